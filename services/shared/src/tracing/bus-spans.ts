import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import type { MessageHandler, OutgoingMessage, SubscribeOptions } from '../bus/event-bus.js';
import { contextFromHeaders, hasSpan, traceHeaders } from './carriers.js';
import { tracer, tracingEnabled } from './tracer.js';

// Incubating semantic conventions, copied as OpenTelemetry advises instead of importing them.
const ATTR_MESSAGING_SYSTEM = 'messaging.system';
const ATTR_MESSAGING_DESTINATION_NAME = 'messaging.destination.name';
const ATTR_MESSAGING_OPERATION_TYPE = 'messaging.operation.type';
const ATTR_MESSAGING_CONSUMER_GROUP_NAME = 'messaging.consumer.group.name';
const ATTR_MESSAGING_DESTINATION_PARTITION_ID = 'messaging.destination.partition.id';
const ATTR_MESSAGING_KAFKA_OFFSET = 'messaging.kafka.offset';
const ATTR_MESSAGING_BATCH_MESSAGE_COUNT = 'messaging.batch.message_count';

export type BusSystem = 'kafka' | 'in-process';

/**
 * Publishes `messages` through `send` with their trace context in the headers. A message continues the
 * trace its own headers already name (an outbox row keeps the context of the request that wrote it),
 * else the active one; a PRODUCER span per distinct parent then becomes the consumers' parent. Messages
 * with no trace to join are sent as they are: the bus starts no traces of its own.
 */
export async function tracedPublish(
  system: BusSystem,
  topic: string,
  messages: OutgoingMessage[],
  send: (messages: OutgoingMessage[]) => Promise<void>,
): Promise<void> {
  if (!tracingEnabled()) return send(messages);
  const active = context.active();
  const spans = new Map<string, { span: Span; ctx: Context; count: number }>();
  const out = messages.map((m) => {
    const parent = m.headers?.['traceparent'] ? contextFromHeaders(m.headers) : active;
    if (!hasSpan(parent)) return m;
    const parentId = trace.getSpanContext(parent)!.spanId;
    let entry = spans.get(parentId);
    if (!entry) {
      const span = tracer().startSpan(
        `publish ${topic}`,
        {
          kind: SpanKind.PRODUCER,
          attributes: { [ATTR_MESSAGING_SYSTEM]: system, [ATTR_MESSAGING_DESTINATION_NAME]: topic, [ATTR_MESSAGING_OPERATION_TYPE]: 'send' },
        },
        parent,
      );
      entry = { span, ctx: trace.setSpan(parent, span), count: 0 };
      spans.set(parentId, entry);
    }
    entry.count++;
    const { traceparent: _p, tracestate: _s, ...rest } = m.headers ?? {};
    return { ...m, headers: { ...rest, ...traceHeaders(entry.ctx) } };
  });
  try {
    await send(out);
  } catch (err) {
    for (const { span } of spans.values()) span.setStatus({ code: SpanStatusCode.ERROR, message: errorName(err) });
    throw err;
  } finally {
    for (const { span, count } of spans.values()) {
      if (count > 1) span.setAttribute(ATTR_MESSAGING_BATCH_MESSAGE_COUNT, count);
      span.end();
    }
  }
}

/**
 * The subscription's handler, run inside a CONSUMER span that continues the message's trace (one span per
 * attempt; a failed attempt ends with an error status). Messages that carry no trace are handled outside
 * any trace.
 */
export function tracedHandler(system: BusSystem, opts: SubscribeOptions): MessageHandler {
  const { handler, topic, groupId } = opts;
  return async (msg) => {
    if (!tracingEnabled()) return handler(msg);
    const parent = contextFromHeaders(msg.headers);
    // Not the context the consumer loop was started in (the subscriber's, maybe a request's): a message
    // belongs to its own trace or to none.
    if (!hasSpan(parent)) return context.with(ROOT_CONTEXT, () => handler(msg));
    const span = tracer().startSpan(
      `process ${topic}`,
      {
        kind: SpanKind.CONSUMER,
        attributes: {
          [ATTR_MESSAGING_SYSTEM]: system,
          [ATTR_MESSAGING_DESTINATION_NAME]: topic,
          [ATTR_MESSAGING_OPERATION_TYPE]: 'process',
          [ATTR_MESSAGING_CONSUMER_GROUP_NAME]: groupId,
          [ATTR_MESSAGING_DESTINATION_PARTITION_ID]: String(msg.partition),
          [ATTR_MESSAGING_KAFKA_OFFSET]: Number(msg.offset),
        },
      },
      parent,
    );
    try {
      return await context.with(trace.setSpan(parent, span), () => handler(msg));
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: errorName(err) });
      throw err;
    } finally {
      span.end();
    }
  };
}

/** The error's class name only: messages may quote data. */
function errorName(err: unknown): string {
  return err instanceof Error ? err.name : 'Error';
}

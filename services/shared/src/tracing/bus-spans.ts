import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import type { MessageHandler, OutgoingMessage, SubscribeOptions } from '../bus/event-bus.js';
import { contextFromHeaders, hasSpan, traceHeaders } from './carriers.js';
import { annotateActiveSpan, tracer, tracingEnabled } from './tracer.js';

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
 * else the active one. Messages with no trace to join are sent as they are: the bus starts no traces of
 * its own.
 *
 * On Kafka the kafkajs instrumentation makes the PRODUCER span of a send, a child of the context the send
 * runs in, and writes its own `traceparent` into the headers: so consecutive messages with the same parent
 * are sent together inside that parent's context (one send in the usual case, a relay batch of one
 * request's rows; order kept). In process, a PRODUCER span per distinct parent is made here.
 */
export async function tracedPublish(
  system: BusSystem,
  topic: string,
  messages: OutgoingMessage[],
  send: (messages: OutgoingMessage[]) => Promise<void>,
): Promise<void> {
  if (!tracingEnabled()) return send(messages);
  if (system === 'kafka') return publishInParentContexts(messages, send);
  const active = context.active();
  const spans = new Map<string, { span: Span; ctx: Context; count: number }>();
  const out = messages.map((m) => {
    const parent = parentOf(m, active);
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
    return withTraceHeaders(m, entry.ctx);
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

/** Runs of consecutive messages with one parent, each sent inside its parent's context (headers carry it too). */
async function publishInParentContexts(messages: OutgoingMessage[], send: (messages: OutgoingMessage[]) => Promise<void>): Promise<void> {
  const active = context.active();
  const runs: { parent: Context; id: string | undefined; messages: OutgoingMessage[] }[] = [];
  for (const m of messages) {
    const parent = parentOf(m, active);
    const id = hasSpan(parent) ? trace.getSpanContext(parent)!.spanId : undefined;
    const last = runs.at(-1);
    const out = id ? withTraceHeaders(m, parent) : m;
    if (last && last.id === id) last.messages.push(out);
    else runs.push({ parent: id ? parent : ROOT_CONTEXT, id, messages: [out] });
  }
  for (const run of runs) await context.with(run.parent, () => send(run.messages));
}

function parentOf(m: OutgoingMessage, active: Context): Context {
  return m.headers?.['traceparent'] ? contextFromHeaders(m.headers) : active;
}

function withTraceHeaders(m: OutgoingMessage, ctx: Context): OutgoingMessage {
  const { traceparent: _p, tracestate: _s, ...rest } = m.headers ?? {};
  return { ...m, headers: { ...rest, ...traceHeaders(ctx) } };
}

/**
 * The in-process subscription's handler, run inside a CONSUMER span that continues the message's trace (one span per
 * attempt; a failed attempt ends with an error status). Messages that carry no trace are handled outside
 * any trace.
 */
export function tracedHandler(system: BusSystem, opts: SubscribeOptions): MessageHandler {
  const { handler, topic, groupId } = opts;
  // On Kafka the kafkajs instrumentation runs each message's handler in a CONSUMER span continuing the
  // message's trace (or in the root context when it carries none); it does not know the group.
  if (system === 'kafka') {
    return (msg) => {
      annotateActiveSpan({ [ATTR_MESSAGING_CONSUMER_GROUP_NAME]: groupId });
      return handler(msg);
    };
  }
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

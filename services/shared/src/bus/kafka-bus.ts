import { Kafka, Partitioners, logLevel, type LogEntry, type Producer } from 'kafkajs';
import {
  EventBusClosedError,
  type BusLogger,
  type EventBus,
  type HandlerRetryOptions,
  type OutgoingMessage,
  type SubscribeOptions,
  type Subscription,
} from './event-bus.js';
import type { KafkaSecurity } from './kafka-security.js';
import { KafkaSubscription, type KafkaConsumerTuning } from './kafka-subscription.js';
import { tracedHandler, tracedPublish } from '../tracing/bus-spans.js';

export interface KafkaBusOptions {
  brokers: string[];
  clientId: string;
  /** kafkajs logs go here; without one kafkajs stays silent. */
  logger?: BusLogger;
  /**
   * Idempotent producer (default true): broker-side de-duplication of retried sends. kafkajs asks the
   * cluster's controller for a producer id, and librdkafka 2.0.2's mock cluster advertises controller id 0,
   * which is no broker ("Broker 0 not found in the cached metadata"): tests serve the mock through
   * testing/src/shared/kafka-wire-proxy.ts, or set this to false. Without it sends still use acks=all and one
   * request in flight, which keeps per-key order.
   */
  idempotent?: boolean;
  retry?: HandlerRetryOptions;
  consumer?: KafkaConsumerTuning;
  /** TLS and SASL (kafka-security.ts); plaintext without. */
  security?: KafkaSecurity;
}

/**
 * The production adapter: kafkajs, one producer per bus (connected on first publish), one consumer
 * (group member) per subscription. See event-bus.ts for the contract; the consumer side is in
 * kafka-subscription.ts.
 */
export class KafkaBus implements EventBus {
  private readonly kafka: Kafka;
  private producer: Promise<Producer> | undefined;
  private readonly subscriptions = new Set<KafkaSubscription>();
  private closed = false;

  constructor(private readonly options: KafkaBusOptions) {
    const { logger } = options;
    this.kafka = new Kafka({
      clientId: options.clientId,
      brokers: options.brokers,
      ...(options.security?.ssl ? { ssl: options.security.ssl } : {}),
      ...(options.security?.sasl ? { sasl: options.security.sasl } : {}),
      logLevel: logger ? logLevel.INFO : logLevel.NOTHING,
      ...(logger ? { logCreator: () => routeLog(logger) } : {}),
    });
  }

  async publish(topic: string, messages: OutgoingMessage[]): Promise<void> {
    if (this.closed) throw new EventBusClosedError();
    if (messages.length === 0) return;
    const producer = await this.connectedProducer();
    await tracedPublish('kafka', topic, messages, async (traced) => {
      await producer.send({
        topic,
        acks: -1,
        messages: traced.map((m) => ({ key: m.key ?? null, value: m.value, headers: { ...m.headers } })),
      });
    });
  }

  async subscribe(opts: SubscribeOptions): Promise<Subscription> {
    if (this.closed) throw new EventBusClosedError();
    const subscription = new KafkaSubscription(this.kafka, { ...opts, handler: tracedHandler('kafka', opts) }, {
      retry: this.options.retry,
      logger: this.options.logger,
      tuning: this.options.consumer,
      onClosed: () => this.subscriptions.delete(subscription),
    });
    await subscription.start();
    if (this.closed) {
      // close() ran while this member was joining and could not see it.
      await subscription.close();
      throw new EventBusClosedError();
    }
    this.subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    this.closed = true;
    // Consumers first: a handler still running may publish follow-up events.
    await Promise.all([...this.subscriptions].map((s) => s.close()));
    const producer = this.producer;
    this.producer = undefined;
    if (producer) await producer.then((p) => p.disconnect(), () => undefined);
  }

  private connectedProducer(): Promise<Producer> {
    if (!this.producer) {
      const idempotent = this.options.idempotent ?? true;
      const producer = this.kafka.producer({
        idempotent,
        // One request in flight per broker: a retried batch can never overtake the next one.
        maxInFlightRequests: 1,
        // Explicit so kafkajs does not warn; murmur2 like the Java client, so keys land where Java's would.
        createPartitioner: Partitioners.DefaultPartitioner,
      });
      this.producer = producer.connect().then(
        () => producer,
        async (err: unknown) => {
          this.producer = undefined;
          await producer.disconnect().catch(() => undefined);
          throw explainConnectError(err, idempotent);
        },
      );
    }
    return this.producer;
  }
}

function explainConnectError(err: unknown, idempotent: boolean): unknown {
  if (idempotent && err instanceof Error && /Broker -?\d+ not found/.test(err.message)) {
    return new Error(
      `Kafka producer could not initialise idempotence (${err.message}); ` +
        'the cluster reports no usable controller (librdkafka mock clusters do this): use idempotent: false, ' +
        'or serve the mock through its wire proxy (startKafkaMock(), testing/src/shared/kafka-wire-proxy.ts)',
      { cause: err },
    );
  }
  return err;
}

const LEVELS: Record<number, keyof BusLogger> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

function routeLog(logger: BusLogger) {
  return ({ namespace, level, log }: LogEntry): void => {
    const { message, timestamp: _timestamp, ...extra } = log;
    logger[LEVELS[level] ?? 'debug']({ ...extra, kafkajs: namespace }, message);
  };
}

import type { EnvReader } from '../config.js';
import type { BusLogger, EventBus, HandlerRetryOptions } from './event-bus.js';
import { InProcessBus } from './in-process-bus.js';
import { KafkaBus } from './kafka-bus.js';
import { kafkaSecurityFromEnv, type KafkaSecurity } from './kafka-security.js';
import type { KafkaConsumerTuning } from './kafka-subscription.js';

export interface CreateEventBusOptions {
  /** From KAFKA_BROKERS; empty or absent selects the in-process bus (embedded default). */
  kafkaBrokers?: string[] | undefined;
  clientId: string;
  logger?: BusLogger | undefined;
  retry?: HandlerRetryOptions | undefined;
  /** Kafka only; see KafkaBusOptions.idempotent (false for librdkafka's mock cluster). */
  idempotent?: boolean | undefined;
  /** Kafka only. */
  consumer?: KafkaConsumerTuning | undefined;
  /** Kafka only: TLS and SASL. */
  security?: KafkaSecurity | undefined;
}

/** The one place that decides which adapter runs, so the rest of the code only sees `EventBus`. */
export function createEventBus(options: CreateEventBusOptions): EventBus {
  const { kafkaBrokers, clientId, logger, retry, idempotent, consumer, security } = options;
  if (kafkaBrokers && kafkaBrokers.length > 0) {
    return new KafkaBus({ brokers: kafkaBrokers, clientId, logger, retry, idempotent, consumer, ...(security ? { security } : {}) });
  }
  return new InProcessBus({ logger, retry });
}

/**
 * The bus settings of a service process, from its environment: `KAFKA_BROKERS` (empty: in-process bus),
 * `KAFKA_IDEMPOTENT` (default true; false for librdkafka's mock cluster, see KafkaBusOptions.idempotent)
 * and the consumer timings `KAFKA_SESSION_TIMEOUT_MS`, `KAFKA_HEARTBEAT_INTERVAL_MS`,
 * `KAFKA_MAX_WAIT_MS` (kafkajs defaults when unset; tests against the mock shorten them); TLS and SASL
 * from `KAFKA_SSL*` / `KAFKA_SASL_*` (kafka-security.ts).
 */
export function eventBusSettingsFromEnv(env: EnvReader): Pick<CreateEventBusOptions, 'kafkaBrokers' | 'idempotent' | 'consumer' | 'security'> {
  const optionalMs = (name: string, min: number) => {
    const v = env.optionalString(name);
    return v === undefined ? undefined : env.int(name, undefined, { min, max: 600_000 });
  };
  const consumer: KafkaConsumerTuning = {};
  const session = optionalMs('KAFKA_SESSION_TIMEOUT_MS', 1_000);
  const heartbeat = optionalMs('KAFKA_HEARTBEAT_INTERVAL_MS', 100);
  const maxWait = optionalMs('KAFKA_MAX_WAIT_MS', 0);
  if (session !== undefined) consumer.sessionTimeoutMs = session;
  if (heartbeat !== undefined) consumer.heartbeatIntervalMs = heartbeat;
  if (maxWait !== undefined) consumer.maxWaitTimeMs = maxWait;
  return { kafkaBrokers: env.list('KAFKA_BROKERS'), idempotent: env.bool('KAFKA_IDEMPOTENT', true), consumer, security: kafkaSecurityFromEnv(env) };
}

/**
 * A process's bus for announcements that only matter to other processes (cache invalidations): Kafka
 * when KAFKA_BROKERS is set, else none, since an in-process bus would reach nobody.
 */
export function announcementBusFromEnv(env: EnvReader, clientId: string, logger: BusLogger): EventBus | undefined {
  const settings = eventBusSettingsFromEnv(env);
  return settings.kafkaBrokers?.length ? createEventBus({ ...settings, clientId, logger }) : undefined;
}

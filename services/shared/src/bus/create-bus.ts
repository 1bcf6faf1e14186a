import type { BusLogger, EventBus, HandlerRetryOptions } from './event-bus.js';
import { InProcessBus } from './in-process-bus.js';
import { KafkaBus } from './kafka-bus.js';
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
}

/** The one place that decides which adapter runs, so the rest of the code only sees `EventBus`. */
export function createEventBus(options: CreateEventBusOptions): EventBus {
  const { kafkaBrokers, clientId, logger, retry, idempotent, consumer } = options;
  if (kafkaBrokers && kafkaBrokers.length > 0) {
    return new KafkaBus({ brokers: kafkaBrokers, clientId, logger, retry, idempotent, consumer });
  }
  return new InProcessBus({ logger, retry });
}

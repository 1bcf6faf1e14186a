/**
 * The event bus every service talks to: Kafka in production, an in-process log in the embedded default
 * (ARCHITECTURE §2, §4). Both adapters honour the same contract, checked by one test suite
 * (`event-bus.contract.test.ts`), so code written against this interface behaves the same in both modes.
 *
 * Contract:
 * - `publish` resolves once the messages are durably accepted (Kafka: acks=all); a rejection means
 *   they may not have been written, and the caller (e.g. the outbox relay) retries.
 * - Messages with the same key go to the same partition and are handled in publish order.
 *   Messages without a key have no ordering guarantee.
 * - Within one `groupId`, each message is handled by one subscription (group member); partitions are
 *   split between members. Different groups each see every message.
 * - At-least-once: a message's offset is committed only after its handler resolved. A handler that
 *   throws is retried with exponential backoff, in place, and later messages of that partition wait:
 *   nothing is skipped silently. A handler must therefore be idempotent and must turn permanent
 *   failures into an outcome of its own (e.g. mark the job failed) instead of throwing forever.
 * - A subscription that closes and a new one with the same `groupId` resumes after the last committed
 *   offset: no loss, and no duplicates unless a handler was interrupted mid-flight.
 * - `fromBeginning` only matters for a group with no committed offsets: true starts at the oldest
 *   retained message, false at the end of the log when the group first gets its partitions.
 */

export interface BusMessage {
  key: string | null;
  value: Buffer;
  headers: Record<string, string>;
  topic: string;
  partition: number;
  /** Position in the partition, a decimal string because Kafka offsets are 64-bit. */
  offset: string;
}

export interface OutgoingMessage {
  key?: string | null;
  value: Buffer | string;
  headers?: Record<string, string>;
}

export type MessageHandler = (msg: BusMessage) => Promise<void>;

export interface SubscribeOptions {
  topic: string;
  groupId: string;
  fromBeginning?: boolean;
  handler: MessageHandler;
}

export interface Subscription {
  /**
   * Leaves the group: waits for a handler in flight to finish and its offset to be committed, stops a
   * handler's retry loop (that message stays uncommitted, so another member gets it).
   */
  close(): Promise<void>;
}

export interface EventBus {
  publish(topic: string, messages: OutgoingMessage[]): Promise<void>;
  /** Resolves once this member has joined its group and received its partitions. */
  subscribe(opts: SubscribeOptions): Promise<Subscription>;
  /** Closes every subscription, then the producer side. */
  close(): Promise<void>;
}

/** pino-compatible: a pino `Logger` can be passed as is. */
export interface BusLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface HandlerRetryOptions {
  /** First delay after a failed handler call. */
  initialDelayMs?: number;
  /** Delays double up to this cap and stay there. */
  maxDelayMs?: number;
}

export class EventBusClosedError extends Error {
  constructor() {
    super('The event bus is closed.');
    this.name = 'EventBusClosedError';
  }
}

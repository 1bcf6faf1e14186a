import { setTimeout as sleep } from 'node:timers/promises';
import type { BusLogger, BusMessage, HandlerRetryOptions, MessageHandler } from './event-bus.js';

const DEFAULT_INITIAL_DELAY_MS = 200;
const DEFAULT_MAX_DELAY_MS = 30_000;

export interface RunHandlerOptions {
  retry?: HandlerRetryOptions | undefined;
  logger?: BusLogger | undefined;
  /** Aborted when the subscription closes: stops retrying and rejects. */
  signal: AbortSignal;
  /** Called between attempts; Kafka uses it to heartbeat so a long retry does not cost the member its seat. */
  beforeRetry?: (() => Promise<void>) | undefined;
}

/**
 * Runs the handler until it succeeds. Both adapters share this so "a failing handler is retried with
 * backoff and never skipped" means exactly the same thing in each. Rejects only when `signal` aborts
 * (or `beforeRetry` fails), and then the message must stay uncommitted.
 */
export async function runHandlerWithRetry(
  handler: MessageHandler,
  msg: BusMessage,
  options: RunHandlerOptions,
): Promise<void> {
  const initial = options.retry?.initialDelayMs ?? DEFAULT_INITIAL_DELAY_MS;
  const max = options.retry?.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
  for (let attempt = 1; ; attempt++) {
    options.signal.throwIfAborted();
    try {
      await handler(msg);
      return;
    } catch (err) {
      const delayMs = Math.min(max, initial * 2 ** Math.min(attempt - 1, 30));
      // Never the payload or headers: they may carry data that must stay out of logs.
      options.logger?.warn(
        { err, topic: msg.topic, partition: msg.partition, offset: msg.offset, attempt, delayMs },
        'event handler failed; retrying',
      );
      await sleep(delayMs, undefined, { signal: options.signal });
      await options.beforeRetry?.();
    }
  }
}

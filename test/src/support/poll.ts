import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';

/** Reads until `done` holds; fails after `timeoutMs` with what was read last. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 30_000, everyMs = 150): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) assert.fail(`${what} not done after ${timeoutMs} ms: ${JSON.stringify(value).slice(0, 2000)}`);
    await sleep(everyMs);
  }
}

/** `promise`, or a failure naming `what` once `timeoutMs` passed. */
export async function within<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  const timer = new AbortController();
  try {
    return await Promise.race([
      promise,
      sleep(timeoutMs, undefined, { signal: timer.signal }).then(() => assert.fail(`${what} not within ${timeoutMs} ms`)),
    ]);
  } finally {
    timer.abort();
  }
}

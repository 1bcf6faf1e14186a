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

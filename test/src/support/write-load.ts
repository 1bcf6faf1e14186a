import { setTimeout as sleep } from 'node:timers/promises';
import { succeeded, type Outcome } from './outcomes.js';

/** One write a client wants done: named, so a test can look for it afterwards; sent again as is. */
export interface Write {
  kind: string;
  /** Unique per write: an identifier, a key. */
  name: string;
  send(): Promise<Outcome>;
}

export interface Sent {
  write: Write;
  outcome: Outcome;
  startedAt: number;
  endedAt: number;
}

export interface Load {
  sent: Sent[];
  /** Resolves once `n` more writes succeeded than when it was called. */
  succeeded(n: number, timeoutMs?: number): Promise<void>;
  /** Lets each loop finish its write in flight, then stops. */
  stop(): Promise<void>;
}

/**
 * `loops` clients, each sending the writes `next` gives it one after the other (each write once: what a
 * fault made fail is for the test to retry), until stopped.
 */
export function startLoad(loops: number, next: (loop: number, n: number) => Write): Load {
  const sent: Sent[] = [];
  let stopped = false;
  const run = async (loop: number) => {
    for (let n = 0; !stopped; n++) {
      const write = next(loop, n);
      const startedAt = Date.now();
      const outcome = await write.send();
      sent.push({ write, outcome, startedAt, endedAt: Date.now() });
      // A failing dependency answers fast; a client backs off a little instead of spinning on it.
      if (!succeeded(outcome)) await sleep(200);
    }
  };
  const running = Array.from({ length: loops }, (_, i) => run(i));
  const ok = () => sent.filter((s) => succeeded(s.outcome)).length;
  return {
    sent,
    async succeeded(n, timeoutMs = 30_000) {
      const target = ok() + n;
      const deadline = Date.now() + timeoutMs;
      while (ok() < target) {
        if (Date.now() > deadline) throw new Error(`only ${ok()} of ${target} writes succeeded within ${timeoutMs} ms`);
        await sleep(25);
      }
    },
    async stop() {
      stopped = true;
      await Promise.all(running);
    },
  };
}

/**
 * What clients do after an outage: send again every write that never got a 200 (a few at a time). Once
 * the system is back each must succeed at the first retry; returns the retried writes.
 */
export async function retryFailed(sent: Sent[], concurrency = 6): Promise<{ write: Write; outcome: Outcome }[]> {
  const done = new Set(sent.filter((s) => succeeded(s.outcome)).map((s) => s.write.name));
  const failed = [...new Map(sent.filter((s) => !done.has(s.write.name)).map((s) => [s.write.name, s.write])).values()];
  const retried: { write: Write; outcome: Outcome }[] = [];
  const worker = async () => {
    for (let write = failed.shift(); write; write = failed.shift()) retried.push({ write, outcome: await write.send() });
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return retried;
}

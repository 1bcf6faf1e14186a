import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { Bulkhead, KeyedBulkheads } from './bulkhead.js';
import { DeadlineExceededError, DomainError } from './errors.js';
import { metricsRegistry } from './metrics.js';

const refusedWithRetry = (err: unknown) => err instanceof DomainError && err.code === 'UNAVAILABLE' && err.retryAfterSeconds === 1;

test('beyond the limit a call waits its turn, and gets the place the first gives back', async () => {
  const b = new Bulkhead({ limit: 1, maxQueue: Infinity, maxWaitMs: Infinity }, 'full');
  const order: string[] = [];
  let finish!: () => void;
  const first = b.run(() => new Promise<void>((r) => (finish = r)).then(() => void order.push('first')));
  const second = b.run(async () => void order.push('second'));
  // An unbounded wait is not a 1 ms timer (what setTimeout makes of Infinity).
  await sleep(20);
  assert.deepEqual(order, []);
  finish();
  await Promise.all([first, second]);
  assert.deepEqual(order, ['first', 'second']);
  assert.ok(b.idle);
});

test('a full queue is refused at once, a waiter after maxWaitMs; both with Retry-After', async () => {
  const b = new Bulkhead({ limit: 1, maxQueue: 1, maxWaitMs: 30 }, 'Too many.');
  const release = await b.acquire();
  const waiting = b.acquire();
  await assert.rejects(b.acquire(), (err) => refusedWithRetry(err) && (err as Error).message === 'Too many.');
  await assert.rejects(waiting, refusedWithRetry);
  release();
  release(); // giving back twice gives back once
  assert.ok(b.idle);
});

test("a waiter's signal ends its wait with the signal's reason", async () => {
  const b = new Bulkhead({ limit: 1, maxQueue: 5, maxWaitMs: 10_000 }, 'full');
  const release = await b.acquire();
  const controller = new AbortController();
  const waiting = b.acquire(controller.signal);
  controller.abort(new DeadlineExceededError());
  await assert.rejects(waiting, (err) => err instanceof DeadlineExceededError);
  release();
  assert.ok(b.idle);
});

test('keyed: each key has its own places, and an idle key is forgotten', async () => {
  const k = new KeyedBulkheads({ limit: 1, maxQueue: 0, maxWaitMs: 0 }, 'full');
  const a = await k.acquire('a');
  await assert.rejects(k.acquire('a'), refusedWithRetry);
  const b = await k.acquire('b');
  assert.equal(k.size, 2);
  a();
  b();
  assert.equal(k.size, 0);
});

test('each refusal counts on bulkhead_refused_total under the bulkhead\'s name', async () => {
  const count = async () => (await metricsRegistry.getSingleMetric('bulkhead_refused_total')!.get()).values.find((v) => v.labels['bulkhead'] === 'test_share')?.value ?? 0;
  const before = await count();
  const k = new KeyedBulkheads({ limit: 1, maxQueue: 0, maxWaitMs: 0 }, 'full', 'test_share');
  const release = await k.acquire('a');
  await assert.rejects(k.acquire('a'), refusedWithRetry);
  await assert.rejects(k.acquire('a'), refusedWithRetry);
  release();
  assert.equal(await count(), before + 2);
});

import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { redisSkipReason, takeRedisKeys, TEST_REDIS_URL, uniqueRedisPrefix } from '@green-impact/testing/gateway/redis';
import { MemoryBuckets } from './memory-buckets.js';
import { RedisBuckets } from './redis-buckets.js';
import type { BucketStore, BucketTake } from './token-bucket.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `store` with `t` until a take is allowed; fails after `timeoutMs`. Refused takes take nothing. */
async function takeWhenAllowed(store: BucketStore, t: BucketTake, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await store.take([t])).allowed) {
    if (Date.now() > deadline) assert.fail(`no token for ${t.key} within ${timeoutMs} ms`);
    await sleep(10);
  }
}
const take = (key: string, perSecond: number, burst: number, cost: 0 | 1 = 1): BucketTake => ({ key, rule: { perSecond, burst }, cost });

/** The same behaviour from both stores: the memory one and the Redis one (its Lua script). */
const stores: { name: string; skip: () => Promise<string | false>; open: (prefix: string) => Promise<BucketStore> }[] = [
  { name: 'memory', skip: async () => false, open: async () => new MemoryBuckets() },
  {
    name: 'redis',
    skip: () => redisSkipReason(),
    open: async (prefix) => {
      const store = new RedisBuckets(TEST_REDIS_URL, prefix);
      await store.connect();
      return store;
    },
  },
];

for (const backend of stores) {
  describe(`token buckets in ${backend.name}`, { skip: await backend.skip() }, () => {
    const prefix = uniqueRedisPrefix();
    let store: BucketStore;
    const opened = backend.open(prefix).then((s) => (store = s));
    after(async () => {
      await store.close();
      if (backend.name === 'redis') await takeRedisKeys(prefix);
    });

    test('a burst passes, then a refusal says when the next token comes', async () => {
      await opened;
      for (let i = 0; i < 3; i++) assert.deepEqual(await store.take([take('burst', 1, 3)]), { allowed: true });
      const refused = await store.take([take('burst', 1, 3)]);
      assert.equal(refused.allowed, false);
      assert.ok(!refused.allowed && refused.refused === 0 && refused.retryAfterMs > 500 && refused.retryAfterMs <= 1_000, JSON.stringify(refused));
    });

    test('tokens flow back at the rate, up to the burst', async () => {
      await opened;
      for (let i = 0; i < 2; i++) await store.take([take('refill', 4, 2)]);
      assert.equal((await store.take([take('refill', 4, 2)])).allowed, false);
      // The first token back (every 250 ms) is taken the moment it comes, so the next take finds none: a
      // fixed pause could let a second one flow back on a busy machine.
      await takeWhenAllowed(store, take('refill', 4, 2), 2_000);
      assert.equal((await store.take([take('refill', 4, 2)])).allowed, false);
    });

    test('cost 0 only checks: it needs a token and takes none', async () => {
      await opened;
      for (let i = 0; i < 5; i++) assert.equal((await store.take([take('peek', 1, 2, 0)])).allowed, true);
      await store.take([take('peek', 1, 2)]);
      await store.take([take('peek', 1, 2)]);
      const refused = await store.take([take('peek', 1, 2, 0)]);
      assert.ok(!refused.allowed && refused.retryAfterMs > 500 && refused.retryAfterMs <= 1_000, JSON.stringify(refused));
    });

    test('all or nothing: when one bucket refuses, none is taken from', async () => {
      await opened;
      assert.equal((await store.take([take('wide', 1, 5), take('narrow', 1, 1)])).allowed, true);
      const refused = await store.take([take('wide', 1, 5), take('narrow', 1, 1)]);
      assert.ok(!refused.allowed && refused.refused === 1, JSON.stringify(refused));
      // 'wide' lost one token to the first check only: four are left.
      for (let i = 0; i < 4; i++) assert.equal((await store.take([take('wide', 1, 5)])).allowed, true, `take ${i}`);
      assert.equal((await store.take([take('wide', 1, 5)])).allowed, false);
    });

    test('buckets are independent', async () => {
      await opened;
      await store.take([take('one', 1, 1)]);
      assert.equal((await store.take([take('one', 1, 1)])).allowed, false);
      assert.equal((await store.take([take('two', 1, 1)])).allowed, true);
    });
  });
}

describe('token buckets in Redis: storage', { skip: await redisSkipReason() }, () => {
  test('buckets live under the prefix and expire once they would be full again', async () => {
    const prefix = uniqueRedisPrefix();
    const store = new RedisBuckets(TEST_REDIS_URL, prefix);
    await store.connect();
    try {
      await store.take([take('a', 10, 5), take('b', 10, 5, 0)]);
      const keys = await takeRedisKeys(prefix);
      // Only the bucket taken from is written; one token short of full: 100 ms, plus a second of margin.
      assert.deepEqual([...keys.keys()], ['a']);
      assert.ok(keys.get('a')! > 900 && keys.get('a')! <= 1_100, `pttl ${keys.get('a')}`);
    } finally {
      await store.close();
    }
  });
});

test('memory: buckets full again are swept, and past maxBuckets the least recently written goes', async () => {
  const store = new MemoryBuckets({ maxBuckets: 3 });
  try {
    for (const key of ['a', 'b', 'c', 'd']) await store.take([take(key, 1, 1)]);
    assert.equal(store.size, 3);
    // 'a' was dropped: it starts full again; 'b' is still empty.
    assert.equal((await store.take([take('a', 1, 1)])).allowed, true);
    assert.equal((await store.take([take('c', 1, 1)])).allowed, false);
    store.sweep(Date.now() + 60_000);
    assert.equal(store.size, 0);
  } finally {
    await store.close();
  }
});

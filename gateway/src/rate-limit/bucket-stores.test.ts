import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { redisSkipReason, rewindRedisBucket, takeRedisKeys, TEST_REDIS_URL, uniqueRedisPrefix } from '@green-impact/testing/gateway/redis';
import { MemoryBuckets } from './memory-buckets.js';
import { RedisBuckets } from './redis-buckets.js';
import type { BucketStore, BucketTake } from './token-bucket.js';

const take = (key: string, perSecond: number, burst: number, cost: 0 | 1 = 1): BucketTake => ({ key, rule: { perSecond, burst }, cost });
/** One token a minute: the rates below are slow enough that the real time a loaded machine takes between two calls moves nothing that is asserted. */
const PER_MINUTE = 1 / 60;

/**
 * The same behaviour from both stores: the memory one (its clock injected and moved by hand) and the Redis
 * one (its Lua script, on Redis's clock: a bucket is moved into the past by rewriting its `at`). No test
 * waits for a token to flow back.
 */
const stores: {
  name: string;
  skip: () => Promise<string | false>;
  open: (prefix: string) => Promise<{ store: BucketStore; advance(key: string, ms: number): Promise<void> }>;
}[] = [
  {
    name: 'memory',
    skip: async () => false,
    open: async () => {
      let clock = 1_767_225_600_000;
      return { store: new MemoryBuckets({ now: () => clock }), advance: async (_key, ms) => void (clock += ms) };
    },
  },
  {
    name: 'redis',
    skip: () => redisSkipReason(),
    open: async (prefix) => {
      const store = new RedisBuckets(TEST_REDIS_URL, prefix);
      await store.connect();
      return { store, advance: (key, ms) => rewindRedisBucket(prefix + key, ms) };
    },
  },
];

// Every skip resolved before any suite is declared: under npm test's --test-force-exit a file exits once
// the suites declared so far have finished, so one declared after a later await (Redis's, while the memory
// suite ran) silently never ran.
const skips = await Promise.all(stores.map((b) => b.skip()));
const redisSkip = await redisSkipReason();

for (const [i, backend] of stores.entries()) {
  describe(`token buckets in ${backend.name}`, { skip: skips[i]! }, () => {
    const prefix = uniqueRedisPrefix();
    let store: BucketStore;
    let advance: (key: string, ms: number) => Promise<void>;
    const opened = backend.open(prefix).then((s) => ({ store, advance } = s));
    after(async () => {
      await store.close();
      if (backend.name === 'redis') await takeRedisKeys(prefix);
    });

    test('a burst passes, then a refusal says when the next token comes', async () => {
      await opened;
      for (let i = 0; i < 3; i++) assert.deepEqual(await store.take([take('burst', PER_MINUTE, 3)]), { allowed: true });
      const refused = await store.take([take('burst', PER_MINUTE, 3)]);
      assert.equal(refused.allowed, false);
      // A minute for the next token, less what passed since the last take (nothing on the memory clock).
      assert.ok(!refused.allowed && refused.refused === 0 && refused.retryAfterMs > 50_000 && refused.retryAfterMs <= 60_000, JSON.stringify(refused));
    });

    test('tokens flow back at the rate, up to the burst', async () => {
      await opened;
      for (let i = 0; i < 2; i++) await store.take([take('refill', PER_MINUTE, 2)]);
      assert.equal((await store.take([take('refill', PER_MINUTE, 2)])).allowed, false);
      await advance('refill', 30_000);
      assert.equal((await store.take([take('refill', PER_MINUTE, 2)])).allowed, false, 'half a token is none');
      await advance('refill', 30_000);
      assert.equal((await store.take([take('refill', PER_MINUTE, 2)])).allowed, true, 'a minute gives one token back');
      assert.equal((await store.take([take('refill', PER_MINUTE, 2)])).allowed, false, '…and only one');
      await advance('refill', 3_600_000);
      for (let i = 0; i < 2; i++) assert.equal((await store.take([take('refill', PER_MINUTE, 2)])).allowed, true, `an hour fills it to the burst: take ${i}`);
      assert.equal((await store.take([take('refill', PER_MINUTE, 2)])).allowed, false, 'never beyond the burst');
    });

    test('cost 0 only checks: it needs a token and takes none', async () => {
      await opened;
      for (let i = 0; i < 5; i++) assert.equal((await store.take([take('peek', PER_MINUTE, 2, 0)])).allowed, true);
      await store.take([take('peek', PER_MINUTE, 2)]);
      await store.take([take('peek', PER_MINUTE, 2)]);
      const refused = await store.take([take('peek', PER_MINUTE, 2, 0)]);
      assert.ok(!refused.allowed && refused.retryAfterMs > 50_000 && refused.retryAfterMs <= 60_000, JSON.stringify(refused));
    });

    test('all or nothing: when one bucket refuses, none is taken from', async () => {
      await opened;
      assert.equal((await store.take([take('wide', PER_MINUTE, 5), take('narrow', PER_MINUTE, 1)])).allowed, true);
      const refused = await store.take([take('wide', PER_MINUTE, 5), take('narrow', PER_MINUTE, 1)]);
      assert.ok(!refused.allowed && refused.refused === 1, JSON.stringify(refused));
      // 'wide' lost one token to the first check only: four are left.
      for (let i = 0; i < 4; i++) assert.equal((await store.take([take('wide', PER_MINUTE, 5)])).allowed, true, `take ${i}`);
      assert.equal((await store.take([take('wide', PER_MINUTE, 5)])).allowed, false);
    });

    test('buckets are independent', async () => {
      await opened;
      await store.take([take('one', PER_MINUTE, 1)]);
      assert.equal((await store.take([take('one', PER_MINUTE, 1)])).allowed, false);
      assert.equal((await store.take([take('two', PER_MINUTE, 1)])).allowed, true);
    });
  });
}

describe('token buckets in Redis: storage', { skip: redisSkip }, () => {
  test('buckets live under the prefix and expire once they would be full again', async () => {
    const prefix = uniqueRedisPrefix();
    const store = new RedisBuckets(TEST_REDIS_URL, prefix);
    await store.connect();
    try {
      await store.take([take('a', PER_MINUTE, 5), take('b', PER_MINUTE, 5, 0)]);
      const keys = await takeRedisKeys(prefix);
      // Only the bucket taken from is written; one token short of full: a minute, plus a second of margin.
      assert.deepEqual([...keys.keys()], ['a']);
      assert.ok(keys.get('a')! > 51_000 && keys.get('a')! <= 61_000, `pttl ${keys.get('a')}`);
    } finally {
      await store.close();
    }
  });
});

test('memory: buckets full again are swept, and past maxBuckets the least recently written goes', async () => {
  const clock = 1_767_225_600_000;
  const store = new MemoryBuckets({ maxBuckets: 3, now: () => clock });
  try {
    for (const key of ['a', 'b', 'c', 'd']) await store.take([take(key, 1, 1)]);
    assert.equal(store.size, 3);
    // 'a' was dropped: it starts full again; 'b' is still empty.
    assert.equal((await store.take([take('a', 1, 1)])).allowed, true);
    assert.equal((await store.take([take('c', 1, 1)])).allowed, false);
    store.sweep(clock + 999);
    assert.equal(store.size, 3, 'not full again before a second');
    store.sweep(clock + 1_000);
    assert.equal(store.size, 0);
  } finally {
    await store.close();
  }
});

import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { skipUnless } from '../shared/skip-rule.js';

/** The Redis server the rate-limit tests use (TEST_REDIS_URL, default the machine's server). */
export const TEST_REDIS_URL = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/**
 * For node:test's `skip` option: a reason to skip the Redis variant, or false. Throws in CI, which must
 * provide Redis (.ci/run starts it), like the PostgreSQL variants (testing/src/shared/databases.ts).
 */
export async function redisSkipReason(url = TEST_REDIS_URL): Promise<string | false> {
  const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
    return false;
  } catch (err) {
    return skipUnless(false, `Redis at ${url} is unreachable: ${(err as Error).message}`);
  } finally {
    redis.disconnect();
  }
}

/** A key prefix of its own for one test, so tests running at once never share a bucket. */
export function uniqueRedisPrefix(): string {
  return `green-impact-test:${randomBytes(6).toString('hex')}:`;
}

/** The keys under `prefix` with their remaining time to live (ms), for assertions; then removes them. */
export async function takeRedisKeys(prefix: string, url = TEST_REDIS_URL): Promise<Map<string, number>> {
  const redis = new Redis(url);
  try {
    const keys = await redis.keys(`${prefix}*`);
    const found = new Map<string, number>();
    for (const key of keys) found.set(key.slice(prefix.length), await redis.pttl(key));
    if (keys.length) await redis.del(...keys);
    return found;
  } finally {
    redis.disconnect();
  }
}

/**
 * Moves a Redis bucket (redis-buckets.ts: a hash of tokens and `at`, Redis's TIME in ms) `ms` into the
 * past, as if that long had passed since it was last taken from: the tests' clock for buckets whose clock
 * is Redis's own.
 */
export async function rewindRedisBucket(key: string, ms: number, url = TEST_REDIS_URL): Promise<void> {
  const redis = new Redis(url);
  try {
    if ((await redis.hincrby(key, 'at', -ms)) <= 0) throw new Error(`no bucket ${key}`);
  } finally {
    redis.disconnect();
  }
}

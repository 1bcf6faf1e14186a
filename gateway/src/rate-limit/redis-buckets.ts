import { Redis } from 'ioredis';
import type { BucketStore, BucketTake, Verdict } from './token-bucket.js';

/**
 * token-bucket.ts's arithmetic in Lua, so a check and its takes are one atomic step however many gateways
 * share the buckets. The clock is Redis's (TIME), so gateways with skewed clocks agree. KEYS: the buckets;
 * ARGV: per bucket perSecond, burst and cost (0: only check). Returns {0, 0} when allowed, else the
 * 1-based index of the first bucket that refused and the milliseconds until it would allow.
 */
const TAKE_TOKENS = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local left = {}
for i, key in ipairs(KEYS) do
  local rate, burst, cost = tonumber(ARGV[3 * i - 2]), tonumber(ARGV[3 * i - 1]), tonumber(ARGV[3 * i])
  local saved = redis.call('HMGET', key, 'tokens', 'at')
  local tokens = burst
  if saved[1] and saved[2] then
    tokens = math.min(burst, tonumber(saved[1]) + math.max(0, now - tonumber(saved[2])) * rate / 1000)
  end
  local need = math.max(cost, 1)
  if tokens < need then
    return {i, math.ceil((need - tokens) * 1000 / rate)}
  end
  left[i] = tokens - cost
end
for i, key in ipairs(KEYS) do
  local rate, burst, cost = tonumber(ARGV[3 * i - 2]), tonumber(ARGV[3 * i - 1]), tonumber(ARGV[3 * i])
  if cost > 0 then
    redis.call('HSET', key, 'tokens', tostring(left[i]), 'at', tostring(now))
    -- Gone once full again, like a bucket nobody touched: idle buckets cost Redis nothing.
    redis.call('PEXPIRE', key, math.ceil((burst - left[i]) * 1000 / rate) + 1000)
  end
end
return {0, 0}
`;

type ScriptedRedis = Redis & { takeTokens(keyCount: number, ...keysAndArgs: (string | number)[]): Promise<[number, number]> };

/**
 * Buckets in Redis, shared by every gateway. ioredis sends the script by EVALSHA (loading it once per
 * connection when Redis answers NOSCRIPT). Commands fail fast rather than queue while Redis is away
 * (no offline queue, no retries, `commandTimeoutMs`), so the limiter can fall back at once; the client
 * keeps reconnecting in the background. The buckets are plain keys under `prefix`: a standalone Redis
 * or a primary, not Redis Cluster (a check touches two keys that would sit in different slots).
 */
export class RedisBuckets implements BucketStore {
  private readonly redis: ScriptedRedis;

  constructor(
    url: string,
    private readonly prefix: string,
    options: { commandTimeoutMs?: number; onConnectionError?: (err: Error) => void } = {},
  ) {
    this.redis = new Redis(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs ?? 250,
      connectTimeout: 2_000,
      scripts: { takeTokens: { lua: TAKE_TOKENS } },
    }) as ScriptedRedis;
    // Without a listener an 'error' event would end the process; failed commands are reported by the caller.
    this.redis.on('error', options.onConnectionError ?? (() => undefined));
  }

  /** Connects; rejects when Redis cannot be reached now (the client goes on trying in the background). */
  connect(): Promise<void> {
    return this.redis.connect();
  }

  async take(takes: readonly BucketTake[]): Promise<Verdict> {
    const keys = takes.map((t) => this.prefix + t.key);
    const args = takes.flatMap((t) => [t.rule.perSecond, t.rule.burst, t.cost]);
    const [refused, waitMs] = await this.redis.takeTokens(keys.length, ...keys, ...args);
    return refused === 0 ? { allowed: true } : { allowed: false, refused: refused - 1, retryAfterMs: waitMs };
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

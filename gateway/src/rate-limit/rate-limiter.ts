import { createHash } from 'node:crypto';
import { Counter } from 'prom-client';
import type { Logger } from '@green-impact/shared/logger';
import { metricsRegistry } from '@green-impact/shared/metrics';
import type { RateLimitSettings } from '../config.js';
import { MemoryBuckets } from './memory-buckets.js';
import { RedisBuckets } from './redis-buckets.js';
import type { BucketTake, Verdict } from './token-bucket.js';

const storeErrors = new Counter({
  name: 'gateway_rate_limit_store_errors_total',
  help: 'Rate-limit checks Redis failed to answer; each was answered from this process\'s memory instead.',
  registers: [metricsRegistry],
});

/** Which limit refused a request: its key's, its address's, or its address's refused keys. */
export type LimitName = 'key' | 'address' | 'refused_keys';

export interface Refusal {
  limit: LimitName;
  retryAfterMs: number;
}

/**
 * The gateway's rate limits (SECURITY.md): a request with an X-Api-Key takes a token from its key's
 * bucket, and is refused while its address has no token left for refused keys; a request without a key
 * takes one from its address's bucket; a key identity refuses takes one from its address's refused-keys
 * bucket. Buckets are named by a hash, never by the key or the address in clear.
 *
 * With REDIS_URL every gateway shares the buckets. When Redis does not answer, the check is answered from
 * this process's memory (logged once per outage, counted in gateway_rate_limit_store_errors_total): the
 * limits then hold per gateway instead of across all, which keeps both the API and a bound on abuse up
 * while Redis is away, where failing closed would turn a Redis outage into an API outage.
 */
export class RateLimiter {
  private readonly memory = new MemoryBuckets();
  private readonly redis: RedisBuckets | undefined;
  private redisFailing = false;

  constructor(
    private readonly settings: RateLimitSettings,
    private readonly log: Logger,
  ) {
    this.redis = settings.redisUrl ? new RedisBuckets(settings.redisUrl, settings.redisPrefix) : undefined;
  }

  /** Connects to Redis when configured; an unreachable Redis is reported, not fatal. */
  async start(): Promise<void> {
    await this.redis?.connect().catch((err: unknown) => this.redisFailed(err));
  }

  /** Checks and counts a request before anything else is done for it. */
  async admit(request: { apiKey: string | undefined; address: string }): Promise<Refusal | undefined> {
    const { perKey, perAddress } = this.settings;
    const takes: (BucketTake & { limit: LimitName })[] = [];
    if (request.apiKey) {
      if (perAddress) takes.push({ limit: 'refused_keys', key: bucketName('refused', request.address), rule: perAddress, cost: 0 });
      if (perKey) takes.push({ limit: 'key', key: bucketName('key', request.apiKey), rule: perKey, cost: 1 });
    } else if (perAddress) {
      takes.push({ limit: 'address', key: bucketName('address', request.address), rule: perAddress, cost: 1 });
    }
    if (takes.length === 0) return undefined;
    const verdict = await this.take(takes);
    return verdict.allowed ? undefined : { limit: takes[verdict.refused]!.limit, retryAfterMs: verdict.retryAfterMs };
  }

  /** Counts a key that identity refused against the address that sent it. */
  async keyRefused(address: string): Promise<void> {
    const rule = this.settings.perAddress;
    if (rule) await this.take([{ key: bucketName('refused', address), rule, cost: 1 }]);
  }

  async close(): Promise<void> {
    await Promise.all([this.redis?.close(), this.memory.close()]);
  }

  private async take(takes: readonly BucketTake[]): Promise<Verdict> {
    if (!this.redis) return this.memory.take(takes);
    let verdict: Verdict;
    try {
      verdict = await this.redis.take(takes);
    } catch (err) {
      this.redisFailed(err);
      return this.memory.take(takes);
    }
    if (this.redisFailing) {
      this.redisFailing = false;
      this.log.info('rate limiting: Redis answers again; limits are shared by every gateway again');
    }
    return verdict;
  }

  private redisFailed(err: unknown): void {
    storeErrors.inc();
    if (this.redisFailing) return;
    this.redisFailing = true;
    const reason = err instanceof Error ? err.message : String(err);
    this.log.warn({ reason }, 'rate limiting: Redis does not answer; limits are counted in this gateway\'s memory until it does');
  }
}

/** `kind:` and 128 bits of SHA-256 under a label of our own: not identity's key hash, not the value in clear. */
export function bucketName(kind: 'key' | 'address' | 'refused', value: string): string {
  return `${kind}:${createHash('sha256').update(`green-impact rate limit\0${value}`).digest('base64url').slice(0, 22)}`;
}

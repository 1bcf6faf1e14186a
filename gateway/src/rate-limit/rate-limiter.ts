import { hash } from 'node:crypto';
import { Counter } from 'prom-client';
import type { Logger } from '@green-impact/shared/logger';
import { metricsRegistry } from '@green-impact/shared/metrics';
import type { RateLimitSettings } from '../config.js';
import { KnownKeys, type KnownKey } from './known-keys.js';
import { MemoryBuckets } from './memory-buckets.js';
import { RedisBuckets } from './redis-buckets.js';
import type { BucketTake, Verdict } from './token-bucket.js';

const storeErrors = new Counter({
  name: 'gateway_rate_limit_store_errors_total',
  help: 'Rate-limit checks Redis failed to answer; each was answered from this process\'s memory instead.',
  registers: [metricsRegistry],
});

/**
 * Which limit refused a request: its known key's, its address's, all unauthenticated traffic's
 * (`unauthenticated`), or its address's refused keys.
 */
export type LimitName = 'key' | 'address' | 'unauthenticated' | 'refused_keys';

export interface Refusal {
  limit: LimitName;
  retryAfterMs: number;
  /** The request carried a key (one not known good, unless `limit` is `key`). */
  keyed: boolean;
}

/**
 * The gateway's rate limits (SECURITY.md): a request with a key identity has accepted (KnownKeys) takes
 * a token from its key's bucket. Any other request (no key, or a key not known good) takes one from its
 * address's bucket and one from the global unauthenticated bucket, so made-up keys get no further than
 * anonymous requests; with a key, it is also refused while its address has no token left for refused
 * keys, and a key identity refuses takes one from that refused-keys bucket. Buckets are named by a hash,
 * never by the key or the address in clear.
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
  /** Keys identity accepted; identity events reach it through the gateway (cache-invalidation.ts). */
  readonly knownKeys: KnownKeys;

  constructor(
    private readonly settings: RateLimitSettings,
    private readonly log: Logger,
  ) {
    this.redis = settings.redisUrl ? new RedisBuckets(settings.redisUrl, settings.redisPrefix) : undefined;
    this.knownKeys = new KnownKeys(settings.knownKeys);
  }

  /** Connects to Redis when configured; an unreachable Redis is reported, not fatal. */
  async start(): Promise<void> {
    await this.redis?.connect().catch((err: unknown) => this.redisFailed(err));
  }

  /** Checks and counts a request before anything else is done for it. */
  async admit(request: { apiKey: string | undefined; address: string }): Promise<Refusal | undefined> {
    const { perKey, perAddress, unauthenticated } = this.settings;
    const keyed = Boolean(request.apiKey);
    const keyBucket = request.apiKey ? bucketName('key', request.apiKey) : undefined;
    const takes: (BucketTake & { limit: LimitName })[] = [];
    if (keyBucket && this.knownKeys.has(keyBucket)) {
      // Accepted by identity, so not a guess: neither the address's anonymous traffic nor its refused
      // keys hold it back.
      if (perKey) takes.push({ limit: 'key', key: keyBucket, rule: perKey, cost: 1 });
    } else {
      if (keyed && perAddress) takes.push({ limit: 'refused_keys', key: bucketName('refused', request.address), rule: perAddress, cost: 0 });
      if (perAddress) takes.push({ limit: 'address', key: bucketName('address', request.address), rule: perAddress, cost: 1 });
      if (unauthenticated) takes.push({ limit: 'unauthenticated', key: UNAUTHENTICATED_BUCKET, rule: unauthenticated, cost: 1 });
      // Its own bucket too, so a key counts the same before and after it is known; written only when the
      // anonymous buckets allow (all or nothing), so made-up keys cannot fill the store faster than that.
      if (keyBucket && perKey) takes.push({ limit: 'key', key: keyBucket, rule: perKey, cost: 1 });
    }
    if (takes.length === 0) return undefined;
    const verdict = await this.take(takes);
    return verdict.allowed ? undefined : { limit: takes[verdict.refused]!.limit, retryAfterMs: verdict.retryAfterMs, keyed };
  }

  /** The epoch to pass to keyAccepted, read before identity is asked (a revocation meanwhile wins). */
  get knownKeysEpoch(): number {
    return this.knownKeys.epoch;
  }

  /** Identity accepted `apiKey`: from now on it draws from its own bucket. */
  keyAccepted(apiKey: string, key: KnownKey, epoch: number): void {
    this.knownKeys.store(bucketName('key', apiKey), key, epoch);
  }

  /** Counts a key that identity refused against the address that sent it; it is known good no more. */
  async keyRefused(apiKey: string, address: string | undefined): Promise<void> {
    this.knownKeys.forgetBucket(bucketName('key', apiKey));
    const rule = this.settings.perAddress;
    if (rule && address) await this.take([{ key: bucketName('refused', address), rule, cost: 1 }]);
  }

  async close(): Promise<void> {
    this.knownKeys.clear();
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

/** The one bucket every unauthenticated request also takes from (per gateway, or shared with Redis). */
const UNAUTHENTICATED_BUCKET = 'unauthenticated';

/**
 * `kind:` and 128 bits of SHA-256 under a label of our own: not identity's key hash, not the value in clear.
 * Computed for every request (one-shot crypto.hash: a third of createHash's cost for a short input).
 */
export function bucketName(kind: 'key' | 'address' | 'refused', value: string): string {
  return `${kind}:${hash('sha256', `green-impact rate limit\0${value}`, 'base64url').slice(0, 22)}`;
}

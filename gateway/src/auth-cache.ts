import { createHash } from 'node:crypto';
import { Counter, Gauge } from 'prom-client';
import { metricsRegistry } from '@green-impact/shared/metrics';
import type { Authenticated } from './auth.js';
import type { IdentityClient } from './clients.js';

export interface AuthCacheSettings {
  /** How long an authentication is reused without asking identity; 0 turns the cache off. */
  ttlMs: number;
  /** Entries kept at most; the least recently used goes first. */
  maxEntries: number;
}

const lookups = new Counter({
  name: 'gateway_auth_cache_lookups_total',
  help: 'API-key authentications by cache outcome (hit, miss).',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});
const forgotten = new Counter({
  name: 'gateway_auth_cache_invalidations_total',
  help: 'Cached authentications dropped because identity announced a change (revoked key, changed account).',
  registers: [metricsRegistry],
});
const size = new Gauge({ name: 'gateway_auth_cache_entries', help: 'Authentications held in the cache.', registers: [metricsRegistry] });

interface Entry {
  value: Authenticated;
  expiresAt: number;
}

/**
 * The gateway's bounded cache of successful API-key authentications (never of refusals), keyed by the
 * key's SHA-256 so no key is held in memory longer than its request. Identity's change events drop
 * entries (forgetKeys, forgetAccount); the TTL bounds an entry's life when an event is lost.
 *
 * A lookup that was in flight while an event arrived is not stored: `epoch` moves with every event, and
 * `store` refuses a result fetched under an older epoch, so a revocation can never be undone by a slow
 * answer that was read before it.
 */
export class AuthCache {
  private readonly entries = new Map<string, Entry>();
  private epochValue = 0;

  constructor(
    private readonly settings: AuthCacheSettings,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get enabled(): boolean {
    return this.settings.ttlMs > 0 && this.settings.maxEntries > 0;
  }

  get epoch(): number {
    return this.epochValue;
  }

  static keyOf(apiKey: string): string {
    return createHash('sha256').update(apiKey).digest('base64url');
  }

  lookup(cacheKey: string): Authenticated | undefined {
    const entry = this.entries.get(cacheKey);
    if (!entry || entry.expiresAt <= this.now()) {
      if (entry) this.entries.delete(cacheKey);
      lookups.inc({ outcome: 'miss' });
      return undefined;
    }
    // Map keeps insertion order: re-inserting makes this the most recently used.
    this.entries.delete(cacheKey);
    this.entries.set(cacheKey, entry);
    lookups.inc({ outcome: 'hit' });
    return entry.value;
  }

  /** Keeps `value` unless an event arrived since `epoch` was read (the value may predate it). */
  store(cacheKey: string, value: Authenticated, epoch: number): void {
    if (!this.enabled || epoch !== this.epochValue) return;
    this.entries.delete(cacheKey);
    this.entries.set(cacheKey, { value, expiresAt: this.now() + this.settings.ttlMs });
    while (this.entries.size > this.settings.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    size.set(this.entries.size);
  }

  forgetKeys(keyIds: readonly string[]): void {
    const ids = new Set(keyIds);
    this.forgetWhere((a) => ids.has(a.keyId));
  }

  forgetAccount(accountId: string): void {
    this.forgetWhere((a) => a.account.id === accountId);
  }

  clear(): void {
    this.epochValue++;
    this.entries.clear();
    size.set(0);
  }

  get entryCount(): number {
    return this.entries.size;
  }

  private forgetWhere(match: (a: Authenticated) => boolean): void {
    this.epochValue++;
    for (const [k, e] of this.entries) {
      if (match(e.value)) {
        this.entries.delete(k);
        forgotten.inc();
      }
    }
    size.set(this.entries.size);
  }
}

/**
 * The identity client with revocations made through this replica forgotten before they are answered, so
 * the caller that revoked a key is refused with it at once, before identity's event arrives.
 */
export function forgettingRevokedKeys(identity: IdentityClient, cache: AuthCache): IdentityClient {
  return {
    ...identity,
    revokeApiKey: async (request, options) => {
      const res = await identity.revokeApiKey(request, options);
      cache.forgetKeys([request.keyId]);
      return res;
    },
    rotateApiKey: async (request, options) => {
      const res = await identity.rotateApiKey(request, options);
      cache.forgetKeys(res.revokedKeyIds);
      return res;
    },
  };
}

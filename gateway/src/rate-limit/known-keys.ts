import type { IdentityFollower } from '../cache-invalidation.js';
import { EpochLruCache, type CacheSettings } from '../lru-cache.js';

/** What is kept of a key identity accepted: enough to forget it when it is revoked. */
export interface KnownKey {
  keyId: string;
  accountId: string;
}

/**
 * The keys identity has accepted, by their rate-limit bucket name (a hash, never the key): only these
 * draw from a bucket of their own. Any other key is counted as anonymous traffic, against its address
 * and the global unauthenticated bucket, so made-up keys cannot each open a fresh bucket. Being known
 * only decides which bucket is counted: identity still authenticates every request.
 *
 * A key leaves when identity refuses it, when its revocation or its account's change is announced, by
 * its TTL, or as the least recently used beyond `maxEntries`; it then costs one anonymous token until
 * identity accepts it again. Entries are per gateway: a key is learnt on each replica by its first
 * accepted request there.
 */
export class KnownKeys extends EpochLruCache<KnownKey> implements IdentityFollower {
  constructor(settings: CacheSettings, now?: () => number) {
    super('known_keys', settings, now);
  }

  has(bucket: string): boolean {
    return this.enabled && this.lookup(bucket) !== undefined;
  }

  /** Forgets a key identity refused; a no-op (no epoch moved) for the many keys that were never known. */
  forgetBucket(bucket: string): void {
    if (this.has(bucket)) this.forgetWhere((_key, name) => name === bucket);
  }

  forgetKeys(keyIds: readonly string[]): void {
    const ids = new Set(keyIds);
    this.forgetWhere((k) => ids.has(k.keyId));
  }

  forgetAccount(accountId: string): void {
    this.forgetWhere((k) => k.accountId === accountId);
  }
}

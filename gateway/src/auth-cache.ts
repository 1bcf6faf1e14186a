import { hash } from 'node:crypto';
import type { Caller } from '@green-impact/shared/caller';
import type { Account } from '@green-impact/proto/greenimpact/identity/v1/identity';
import type { IdentityClient } from './clients.js';
import type { IdentityFollower } from './cache-invalidation.js';
import { EpochLruCache, type CacheSettings } from './lru-cache.js';

export type AuthCacheSettings = CacheSettings;

/** Who an API key authenticates as: what auth.ts answers and this cache keeps. */
export interface Authenticated {
  caller: Caller;
  account: Account;
  /** The API key's id; empty when a bearer token authenticated the request. */
  keyId: string;
  /** Present when a bearer token (OpenID Connect) authenticated the request (auth.ts). */
  token?: TokenFacts | undefined;
}

/** What the gateway keeps of a verified bearer token. */
export interface TokenFacts {
  /** When the token stops being valid (epoch milliseconds): cached entries and sockets end with it. */
  expiresAt: number;
  /** Without the issuer's write scope a token may read but change nothing. */
  readOnly: boolean;
}

/**
 * The gateway's bounded cache of successful API-key authentications (never of refusals), keyed by the
 * key's SHA-256 so no key is held in memory longer than its request. Identity's change events drop
 * entries (forgetKeys, forgetAccount); the TTL bounds an entry's life when an event is lost. A lookup in
 * flight while an event arrives is not stored (EpochLruCache), so a revocation is never undone by a slow
 * answer read before it.
 */
export class AuthCache extends EpochLruCache<Authenticated> implements IdentityFollower {
  constructor(settings: AuthCacheSettings, now?: () => number) {
    super('auth', settings, now);
  }

  /** One-shot crypto.hash: a third of createHash's cost for a short input, paid on every request. */
  static keyOf(apiKey: string): string {
    return hash('sha256', apiKey, 'base64url');
  }

  forgetKeys(keyIds: readonly string[]): void {
    const ids = new Set(keyIds);
    this.forgetWhere((a) => ids.has(a.keyId));
  }

  forgetAccount(accountId: string): void {
    this.forgetWhere((a) => a.account.id === accountId);
  }
}

/**
 * The identity client with revocations made through this replica forgotten (the cache's entries, the known keys of
 * the rate limiter, the open WebSockets) before they are answered, so the caller that revoked a key is refused with it, and its streams
 * are ended, at once, before identity's event arrives (and without a bus at all).
 */
export function forgettingRevokedKeys(identity: IdentityClient, followers: readonly Pick<IdentityFollower, 'forgetKeys'>[]): IdentityClient {
  const forget = (keyIds: readonly string[]) => followers.forEach((f) => f.forgetKeys(keyIds));
  return {
    ...identity,
    revokeApiKey: async (request, options) => {
      const res = await identity.revokeApiKey(request, options);
      forget([request.keyId]);
      return res;
    },
    rotateApiKey: async (request, options) => {
      const res = await identity.rotateApiKey(request, options);
      forget(res.revokedKeyIds);
      return res;
    },
  };
}

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AccountRole } from '@green-impact/proto/greenimpact/identity/v1/identity';
import type { Authenticated } from './auth.js';
import { AuthCache } from './auth-cache.js';

function auth(accountId: string, keyId: string): Authenticated {
  return {
    caller: { accountId, role: 'user', requestId: 'r' },
    account: { id: accountId, name: accountId, role: AccountRole.ACCOUNT_ROLE_USER, createdAt: '2026-01-01T00:00:00Z' },
    keyId,
  };
}

describe('AuthCache', () => {
  it('answers a stored authentication until its TTL, then asks again', () => {
    let now = 0;
    const cache = new AuthCache({ ttlMs: 1_000, maxEntries: 10 }, () => now);
    cache.store('a', auth('acc1', 'k1'), cache.epoch);
    assert.equal(cache.lookup('a')?.keyId, 'k1');
    now = 999;
    assert.equal(cache.lookup('a')?.keyId, 'k1');
    now = 1_000;
    assert.equal(cache.lookup('a'), undefined);
    assert.equal(cache.entryCount, 0);
  });

  it('keeps at most maxEntries, dropping the least recently used', () => {
    const cache = new AuthCache({ ttlMs: 60_000, maxEntries: 2 }, () => 0);
    cache.store('a', auth('acc', 'ka'), cache.epoch);
    cache.store('b', auth('acc', 'kb'), cache.epoch);
    assert.ok(cache.lookup('a')); // a is now more recent than b
    cache.store('c', auth('acc', 'kc'), cache.epoch);
    assert.equal(cache.entryCount, 2);
    assert.ok(cache.lookup('a'));
    assert.equal(cache.lookup('b'), undefined);
    assert.ok(cache.lookup('c'));
  });

  it('forgets revoked keys and changed accounts, and nothing else', () => {
    const cache = new AuthCache({ ttlMs: 60_000, maxEntries: 10 }, () => 0);
    cache.store('a1', auth('acc1', 'k1'), cache.epoch);
    cache.store('a2', auth('acc1', 'k2'), cache.epoch);
    cache.store('b1', auth('acc2', 'k3'), cache.epoch);
    cache.forgetKeys(['k1']);
    assert.equal(cache.lookup('a1'), undefined);
    assert.ok(cache.lookup('a2'));
    cache.forgetAccount('acc1');
    assert.equal(cache.lookup('a2'), undefined);
    assert.ok(cache.lookup('b1'));
  });

  it('does not store an answer fetched before an event that arrived while it was in flight', () => {
    const cache = new AuthCache({ ttlMs: 60_000, maxEntries: 10 }, () => 0);
    const epoch = cache.epoch; // the lookup starts
    cache.forgetKeys(['k1']); // identity announces the revocation meanwhile
    cache.store('a1', auth('acc1', 'k1'), epoch); // the slow answer, read before the revocation
    assert.equal(cache.lookup('a1'), undefined);
    cache.store('a1', auth('acc1', 'k1'), cache.epoch);
    assert.ok(cache.lookup('a1'));
  });

  it('is off with a TTL of 0', () => {
    const cache = new AuthCache({ ttlMs: 0, maxEntries: 10 }, () => 0);
    assert.equal(cache.enabled, false);
    cache.store('a', auth('acc', 'k'), cache.epoch);
    assert.equal(cache.lookup('a'), undefined);
  });

  it('keys by a digest, never by the key itself', () => {
    const k = AuthCache.keyOf('secret-api-key');
    assert.equal(k.includes('secret'), false);
    assert.equal(k, AuthCache.keyOf('secret-api-key'));
    assert.notEqual(k, AuthCache.keyOf('secret-api-kez'));
  });
});

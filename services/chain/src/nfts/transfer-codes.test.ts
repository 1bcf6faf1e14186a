import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import { codeHash, codeRefusal, givenCode, newCode } from './transfer-codes.js';

const now = new Date('2025-06-01T12:00:00Z');
const later = new Date('2025-06-08T12:00:00Z');
const earlier = new Date('2025-05-31T12:00:00Z');

describe('transfer codes', () => {
  it('are 256 random bits, stored as their SHA-256', () => {
    const a = newCode();
    assert.match(a, /^[A-Za-z0-9_-]{43}$/);
    assert.notEqual(a, newCode());
    assert.match(codeHash(a), /^[0-9a-f]{64}$/);
    assert.equal(codeHash(a), codeHash(a));
  });

  it('as given: trimmed, required, at most 128 characters, each refusal naming the code', () => {
    const code = newCode();
    assert.equal(givenCode(`  ${code} `, 'receiverCode'), code);
    const refused = (value: string, field: 'receiverCode' | 'ownerCode', message: string) =>
      assert.throws(() => givenCode(value, field), (err: unknown) => err instanceof InvalidArgumentError && err.message === message && err.field === field);
    refused('  ', 'receiverCode', 'receiverCode is required.');
    refused('c'.repeat(129), 'ownerCode', 'ownerCode must be at most 128 characters.');
    assert.equal(givenCode('c'.repeat(128), 'ownerCode').length, 128);
  });

  it('work once, until they expire, unless the send was revoked', () => {
    assert.equal(codeRefusal({ expiresAt: later, claimedAt: null, revokedAt: null }, 'receiver', now), undefined);
    assert.equal(codeRefusal({ expiresAt: later, claimedAt: null, revokedAt: null }, 'owner', now), undefined);
    const message = (s: Parameters<typeof codeRefusal>[0], which: 'owner' | 'receiver') => codeRefusal(s, which, now)?.message;
    assert.equal(message({ expiresAt: later, claimedAt: now, revokedAt: null }, 'receiver'), 'The receiver code was already used: the NFT was claimed.');
    assert.equal(message({ expiresAt: later, claimedAt: now, revokedAt: null }, 'owner'), 'The NFT was already claimed; the send can no longer be revoked.');
    assert.equal(message({ expiresAt: later, claimedAt: null, revokedAt: now }, 'receiver'), 'The send was revoked by its owner; the receiver code no longer works.');
    assert.equal(message({ expiresAt: later, claimedAt: null, revokedAt: now }, 'owner'), 'The owner code was already used: the send was revoked.');
    assert.match(message({ expiresAt: earlier, claimedAt: null, revokedAt: null }, 'receiver')!, /^The receiver code expired on 2025-05-31T12:00:00.000Z; ask the sender/);
    // Closed because it expired (a later transfer or send): still "expired", not "revoked".
    assert.match(message({ expiresAt: earlier, claimedAt: null, revokedAt: now }, 'receiver')!, /expired/);
    assert.equal(codeRefusal({ expiresAt: earlier, claimedAt: null, revokedAt: null }, 'owner', now)?.constructor.name, 'FailedPreconditionError');
  });
});

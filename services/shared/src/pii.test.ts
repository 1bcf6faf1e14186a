import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decryptField, encryptField, fingerprintMatches, generateEncryptionKey, keyFingerprint, parseEncryptionKey } from './pii.js';
import { InvalidArgumentError } from './errors.js';

describe('PII encryption', () => {
  const key = parseEncryptionKey(generateEncryptionKey());
  const other = parseEncryptionKey(generateEncryptionKey());

  it('round-trips with the key and never repeats a ciphertext', () => {
    const a = encryptField('Ada Lovelace', key, 'users/1/name');
    const b = encryptField('Ada Lovelace', key, 'users/1/name');
    assert.notEqual(a, b);
    assert.ok(!a.includes('Ada'));
    assert.equal(decryptField(a, key, 'users/1/name'), 'Ada Lovelace');
  });

  it('refuses a wrong key or a ciphertext moved to another field, with a clear error', () => {
    const blob = encryptField('secret', key, 'f1');
    assert.throws(() => decryptField(blob, other, 'f1'), InvalidArgumentError);
    assert.throws(() => decryptField(blob, key, 'f2'), InvalidArgumentError);
    assert.throws(() => decryptField('garbage', key, 'f1'), InvalidArgumentError);
  });

  it('tells keys apart by fingerprint without storing them', () => {
    const fp = keyFingerprint(key);
    assert.match(fp, /^[0-9a-f]{64}$/);
    assert.equal(fingerprintMatches(key, fp), true);
    assert.equal(fingerprintMatches(other, fp), false);
  });

  it('accepts only 64 hex characters as a key', () => {
    assert.throws(() => parseEncryptionKey('short'), /64 hexadecimal/);
    assert.throws(() => parseEncryptionKey('z'.repeat(64)), /64 hexadecimal/);
  });
});

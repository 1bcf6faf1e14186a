import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { ConfigError } from './config.js';
import { secretWeakness, strongSecret } from './secret-strength.js';

describe('secret strength', () => {
  it('refuses short, human-made and placeholder secrets, naming the variable', () => {
    const weak: [string, RegExp][] = [
      ['k', /it has 1 characters, at least 32 random ones are needed/],
      ['gi_short', /it has 5 characters/],
      // What the dev overlay committed: long enough, known to everyone who read the repository.
      ['dev-operator-key-not-for-production', /contains "operator"/],
      ['dev-only-document-link-secret-not-for-production', /contains "secret"/],
      ['correct-horse-battery-staple-and-more-words', /one kind of character only/],
      ['ChangeMe-ChangeMe-ChangeMe-ChangeMe-2026', /contains "changeme"/],
      ['s'.repeat(32), /one kind of character only/],
      ['aB3aB3aB3aB3aB3aB3aB3aB3aB3aB3aB3aB3', /only 3 different characters/],
      ['0123456789abcdef0123456789abcdef', /repeats a run of 8 characters/],
      ['Xq7-Lm2pZr9_Wd4kXq7-Lm2pZr9_Wd4k', /repeats a run of 8 characters/],
      ['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_', /8 characters in sequence/],
      ['9876543210zyxwvutsrqPONMLKJIHGFE', /8 characters in sequence/],
    ];
    for (const [value, why] of weak) {
      assert.match(secretWeakness(value) ?? 'accepted', why, value);
      assert.throws(() => strongSecret('BOOTSTRAP_API_KEY', value), (err: unknown) => {
        assert.ok(err instanceof ConfigError);
        assert.match(err.message, /^BOOTSTRAP_API_KEY is too weak: .*; make one with: openssl rand -base64 32/);
        assert.ok(!err.message.includes(value) || value.length < 8, 'the message does not repeat the secret');
        return true;
      });
    }
  });

  it('accepts what openssl rand and the service\'s own gi_ keys make, and an unset value', () => {
    const makers = [
      () => randomBytes(32).toString('base64'),
      () => randomBytes(32).toString('hex'),
      () => randomBytes(24).toString('base64url'),
      () => `gi_${randomBytes(32).toString('base64url')}`,
    ];
    for (const make of makers) {
      for (let i = 0; i < 500; i++) {
        const value = make();
        assert.equal(secretWeakness(value), undefined, value);
      }
    }
    assert.equal(strongSecret('BOOTSTRAP_API_KEY', undefined), undefined);
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import { bytes32Value, validKey, validStringValue } from './key-value-rules.js';

/** INVALID_ARGUMENT with this text, naming the parameter at fault (so GraphQL names it `input.<name>`). */
const refused = (fn: () => unknown, message: string, field: string) =>
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof InvalidArgumentError, String(err));
    assert.equal(err.message, message);
    assert.equal(err.field, field);
    return true;
  });

describe('key-value rules (spec §4.12, §8)', () => {
  it('keys: at most 32 characters, counted as code points; no control characters', () => {
    assert.equal(validKey('k'.repeat(32)), 'k'.repeat(32));
    refused(() => validKey('k'.repeat(33)), 'key must be at most 32 characters, got 33.', 'key');
    // 32 emoji are 64 UTF-16 units but 32 characters.
    assert.equal(validKey('😀'.repeat(32)).length, 64);
    refused(() => validKey('😀'.repeat(33)), 'key must be at most 32 characters, got 33.', 'key');
    refused(() => validKey(''), 'key is required.', 'key');
    for (const bad of ['a\tb', 'line\n', 'nul\u0000', 'del\u007f', 'c1\u0085']) refused(() => validKey(bad), 'key must not contain control characters.', 'key');
    assert.equal(validKey('grön nyckel'), 'grön nyckel');
  });

  it('bytes32 values: at most 32 characters and 32 bytes of UTF-8, right-padded', () => {
    assert.equal(bytes32Value('v'.repeat(32)), '0x' + '76'.repeat(32));
    assert.equal(bytes32Value('é'.repeat(16)), '0x' + 'c3a9'.repeat(16));
    refused(() => bytes32Value('v'.repeat(33)), 'value must be at most 32 characters and 32 bytes (UTF-8) for insertBytes32, got 33 characters, 33 bytes.', 'value');
    // 32 characters but 33 bytes: "é" is 2 bytes in UTF-8.
    refused(() => bytes32Value('é' + 'v'.repeat(31)), 'value must be at most 32 characters and 32 bytes (UTF-8) for insertBytes32, got 32 characters, 33 bytes.', 'value');
  });

  it("insertString values: the network's limit, in UTF-8 bytes; line breaks are text", () => {
    assert.equal(validStringValue('line 1\nline 2', 'sepolia', 64), 'line 1\nline 2');
    assert.equal(validStringValue('x'.repeat(64), 'sepolia', 64).length, 64);
    refused(() => validStringValue('x'.repeat(65), 'sepolia', 64), 'value is too large for network sepolia: at most 64 bytes (UTF-8), got 65.', 'value');
    refused(() => validStringValue('é'.repeat(33), 'amoy', 64), 'value is too large for network amoy: at most 64 bytes (UTF-8), got 66.', 'value');
  });
});

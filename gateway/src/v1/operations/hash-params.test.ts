import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateParameters } from '../parameters.js';
import { checkBytes32Value, checkKey, fetchParams, insertBytes32Params, insertStringParams } from './hash-params.js';

test('keys: at most 32 characters, counted as code points', () => {
  assert.equal(checkKey('k'.repeat(32)), 'k'.repeat(32));
  assert.throws(() => checkKey('k'.repeat(33)), { code: 'INVALID_ARGUMENT', message: 'key must be at most 32 characters, got 33.' });
  // 32 emoji are 64 UTF-16 units but 32 characters.
  assert.equal(checkKey('😀'.repeat(32)).length, 64);
  assert.throws(() => checkKey('😀'.repeat(33)), { message: 'key must be at most 32 characters, got 33.' });
  assert.throws(() => checkKey('k'.repeat(40), 'input.key'), { message: 'input.key must be at most 32 characters, got 40.' });
});

test('bytes32 values: at most 32 characters and 32 bytes of UTF-8', () => {
  assert.equal(checkBytes32Value('v'.repeat(32)), 'v'.repeat(32));
  assert.throws(() => checkBytes32Value('v'.repeat(33)), {
    code: 'INVALID_ARGUMENT',
    message: 'value must be at most 32 characters and 32 bytes (UTF-8) for insertBytes32, got 33 characters, 33 bytes.',
  });
  // 31 characters but 33 bytes: "é" is 2 bytes in UTF-8.
  assert.throws(() => checkBytes32Value('é' + 'v'.repeat(31)), {
    message: 'value must be at most 32 characters and 32 bytes (UTF-8) for insertBytes32, got 32 characters, 33 bytes.',
  });
  assert.equal(checkBytes32Value('é'.repeat(16)), 'é'.repeat(16));
});

test('specs: key and value required; numbers become text; control characters refused in keys', () => {
  assert.deepEqual(validateParameters(insertStringParams, { key: 42, value: 'line 1\nline 2' }), { key: '42', value: 'line 1\nline 2' });
  assert.throws(() => validateParameters(insertStringParams, { key: 'k' }), { message: 'value is required.' });
  assert.throws(() => validateParameters(insertBytes32Params, { value: 'v' }), { message: 'key is required.' });
  assert.throws(() => validateParameters(insertStringParams, { key: 'a\tb', value: 'v' }), { message: 'key must not contain control characters.' });
  // The network decides insertString's limit; the gateway lets far more than 255 characters through.
  assert.equal(validateParameters(insertStringParams, { key: 'k', value: 'x'.repeat(5000) }).value.length, 5000);
});

test('fetch takes jobId, or job_id as the ESG solution spells it', () => {
  assert.deepEqual(validateParameters(fetchParams, { jobId: 'a' }), { jobId: 'a' });
  assert.deepEqual(validateParameters(fetchParams, { job_id: 'b' }), { jobId: 'b' });
  assert.throws(() => validateParameters(fetchParams, {}), { message: 'jobId is required.' });
});

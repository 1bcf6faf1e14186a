import { test } from 'node:test';
import assert from 'node:assert/strict';
import { baseUrlOf, parseIdempotencyKey } from './request-facts.js';

test('Idempotency-Key: absent or blank is none; trimmed; at most 255 printable ASCII characters', () => {
  assert.equal(parseIdempotencyKey(undefined), undefined);
  assert.equal(parseIdempotencyKey('   '), undefined);
  assert.equal(parseIdempotencyKey(' order-42 '), 'order-42');
  assert.equal(parseIdempotencyKey('k'.repeat(255)), 'k'.repeat(255));
  assert.throws(() => parseIdempotencyKey('k'.repeat(256)), { code: 'INVALID_ARGUMENT', message: 'Idempotency-Key must be at most 255 characters.' });
  assert.throws(() => parseIdempotencyKey('clé'), { message: 'Idempotency-Key must be printable ASCII characters.' });
  assert.throws(() => parseIdempotencyKey('a\u0000b', 'input.idempotencyKey'), { message: 'input.idempotencyKey must be printable ASCII characters.' });
});

test('base URL of links: PUBLIC_BASE_URL, else the origin the client used', () => {
  assert.equal(baseUrlOf('https://impact.example.org', { protocol: 'http', host: '10.0.0.1:8080' }), 'https://impact.example.org');
  assert.equal(baseUrlOf(undefined, { protocol: 'http', host: '127.0.0.1:8080' }), 'http://127.0.0.1:8080');
  assert.equal(baseUrlOf(undefined, { protocol: 'https', host: '[::1]:8443' }), 'https://[::1]:8443');
  // A Host header that is not a host cannot put markup or paths into links.
  assert.equal(baseUrlOf(undefined, { protocol: 'http', host: 'evil.example/<script>' }), 'http://localhost');
  assert.equal(baseUrlOf(undefined, { protocol: 'http', host: undefined }), 'http://localhost');
});

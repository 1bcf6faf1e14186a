import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DomainError, NotAuthorizedError, UnauthenticatedError, type ErrorCode } from '@green-impact/shared/errors';
import { describeError, HTTP_STATUS_OF } from './http-errors.js';

test('domain codes map to grpc-gateway statuses', () => {
  const expected: Record<ErrorCode, number> = {
    INVALID_ARGUMENT: 400,
    FAILED_PRECONDITION: 400,
    UNAUTHENTICATED: 401,
    PERMISSION_DENIED: 403,
    NOT_FOUND: 404,
    ALREADY_EXISTS: 409,
    PAYLOAD_TOO_LARGE: 413,
    RESOURCE_EXHAUSTED: 429,
    INTERNAL: 500,
    UNIMPLEMENTED: 501,
    UNAVAILABLE: 503,
    DEADLINE_EXCEEDED: 504,
  };
  assert.deepEqual(HTTP_STATUS_OF, expected);
  for (const [code, status] of Object.entries(expected)) {
    const d = describeError(new DomainError(code as ErrorCode, 'text'));
    assert.equal(d.status, status);
    assert.equal(d.body.code, code);
  }
});

test('spec texts pass through verbatim', () => {
  assert.deepEqual(describeError(new UnauthenticatedError()).body, {
    message: 'Please submit client identifier.',
    code: 'UNAUTHENTICATED',
  });
  assert.deepEqual(describeError(new NotAuthorizedError()).body, { message: 'Not authorized.', code: 'PERMISSION_DENIED' });
});

test('internals never leak', () => {
  const plain = describeError(new Error('duplicate key value violates unique constraint "users_pkey"'));
  assert.deepEqual(plain, { status: 500, body: { message: 'Internal error.', code: 'INTERNAL' }, internal: true });
  const domain = describeError(new DomainError('INTERNAL', 'SELECT * FROM secrets failed'));
  assert.equal(domain.body.message, 'Internal error.');
  assert.equal(describeError('a string').body.code, 'INTERNAL');
  assert.equal(describeError(null).status, 500);
});

test('body-parser failures are client errors', () => {
  const bp = (type: string, status: number, extra = {}) => Object.assign(new Error('raw'), { type, status, statusCode: status, expose: true, ...extra });
  assert.deepEqual(describeError(bp('entity.parse.failed', 400)).body, { message: 'The request body is not valid JSON.', code: 'INVALID_ARGUMENT' });
  assert.deepEqual(describeError(bp('entity.too.large', 413, { limit: 1024 })), {
    status: 413,
    body: { message: 'The request body is larger than the limit of 1024 bytes.', code: 'PAYLOAD_TOO_LARGE' },
    internal: false,
  });
  assert.equal(describeError(bp('charset.unsupported', 415)).status, 400);
  assert.equal(describeError(bp('encoding.unsupported', 415)).status, 400);
  assert.equal(describeError(bp('request.aborted', 400)).status, 400);
  assert.equal(describeError(bp('something.new', 400)).status, 400);
  // a corrupt gzip body: body-parser wraps zlib's error as a 400 without a type
  const zlib = Object.assign(new Error('incorrect header check'), { code: 'Z_DATA_ERROR', status: 400, statusCode: 400, expose: true });
  assert.deepEqual(describeError(zlib).body, { message: 'The request body could not be read.', code: 'INVALID_ARGUMENT' });
  // a 5xx from the parser stays internal
  assert.equal(describeError(bp('stream.encoding.set', 500)).status, 500);
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { status, type ServiceError } from '@grpc/grpc-js';
import { DomainError, NotAuthorizedError, type ErrorCode } from '../errors.js';
import { domainErrorToGrpc, grpcErrorToDomain } from './status-map.js';
import { toDomainError } from './unexpected-error.js';

describe('domain error ↔ gRPC status', () => {
  it('round-trips every domain code with its message', () => {
    const codes: ErrorCode[] = [
      'INVALID_ARGUMENT', 'UNAUTHENTICATED', 'PERMISSION_DENIED', 'NOT_FOUND', 'ALREADY_EXISTS',
      'FAILED_PRECONDITION', 'RESOURCE_EXHAUSTED', 'PAYLOAD_TOO_LARGE', 'UNAVAILABLE', 'DEADLINE_EXCEEDED',
      'UNIMPLEMENTED', 'INTERNAL',
    ];
    for (const code of codes) {
      const wire = domainErrorToGrpc(new DomainError(code, `m-${code}`));
      const back = grpcErrorToDomain({ code: wire.code, details: wire.details, metadata: wire.metadata } as ServiceError);
      assert.equal(back.code, code);
      assert.equal(back.message, `m-${code}`);
    }
    assert.equal(domainErrorToGrpc(new NotAuthorizedError()).code, status.PERMISSION_DENIED);
  });

  it('maps a transport failure without metadata to a retryable error', () => {
    const e = grpcErrorToDomain({ code: status.UNAVAILABLE, details: 'No connection established', metadata: undefined } as unknown as ServiceError);
    assert.equal(e.code, 'UNAVAILABLE');
    assert.doesNotMatch(e.message, /connection established/);
  });

  it('classifies unexpected errors without leaking them', () => {
    assert.equal(toDomainError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })).code, 'UNAVAILABLE');
    assert.equal(toDomainError({ driverError: { code: '57P01' }, message: 'terminating connection' }).code, 'UNAVAILABLE');
    // node-postgres' connection failures without a code: a cut, a connect timeout, a pool checkout timeout.
    for (const message of [
      'Connection terminated unexpectedly',
      'Connection terminated due to connection timeout',
      'timeout exceeded when trying to connect',
      'Client has encountered a connection error and is not queryable',
    ]) {
      const e = toDomainError(new Error(message));
      assert.equal(e.code, 'UNAVAILABLE', message);
      assert.equal(e.message, 'The database is temporarily unavailable; please retry.');
    }
    assert.equal(toDomainError({ code: '23505', message: 'duplicate key value violates unique constraint "x"' }).code, 'ALREADY_EXISTS');
    assert.equal(toDomainError({ code: '22003', message: 'value "2147483648" is out of range for type integer' }).code, 'INVALID_ARGUMENT');
    assert.doesNotMatch(toDomainError({ code: '22003', message: 'value "2147483648" is out of range for type integer' }).message, /integer/);
    const internal = toDomainError(new TypeError('cannot read x of undefined'));
    assert.equal(internal.code, 'INTERNAL');
    assert.equal(internal.message, 'Internal error.');
  });
});

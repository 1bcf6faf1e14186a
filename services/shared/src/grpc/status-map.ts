import { Metadata, status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import { DomainError, InvalidArgumentError, type ErrorCode } from '../errors.js';

/** The one table between domain error codes and gRPC status codes (both directions). */
const toGrpc: Record<ErrorCode, GrpcStatus> = {
  INVALID_ARGUMENT: GrpcStatus.INVALID_ARGUMENT,
  UNAUTHENTICATED: GrpcStatus.UNAUTHENTICATED,
  PERMISSION_DENIED: GrpcStatus.PERMISSION_DENIED,
  NOT_FOUND: GrpcStatus.NOT_FOUND,
  ALREADY_EXISTS: GrpcStatus.ALREADY_EXISTS,
  FAILED_PRECONDITION: GrpcStatus.FAILED_PRECONDITION,
  RESOURCE_EXHAUSTED: GrpcStatus.RESOURCE_EXHAUSTED,
  PAYLOAD_TOO_LARGE: GrpcStatus.RESOURCE_EXHAUSTED,
  UNAVAILABLE: GrpcStatus.UNAVAILABLE,
  DEADLINE_EXCEEDED: GrpcStatus.DEADLINE_EXCEEDED,
  UNIMPLEMENTED: GrpcStatus.UNIMPLEMENTED,
  INTERNAL: GrpcStatus.INTERNAL,
};

const fromGrpc = new Map<GrpcStatus, ErrorCode>([
  [GrpcStatus.INVALID_ARGUMENT, 'INVALID_ARGUMENT'],
  [GrpcStatus.OUT_OF_RANGE, 'INVALID_ARGUMENT'],
  [GrpcStatus.UNAUTHENTICATED, 'UNAUTHENTICATED'],
  [GrpcStatus.PERMISSION_DENIED, 'PERMISSION_DENIED'],
  [GrpcStatus.NOT_FOUND, 'NOT_FOUND'],
  [GrpcStatus.ALREADY_EXISTS, 'ALREADY_EXISTS'],
  [GrpcStatus.FAILED_PRECONDITION, 'FAILED_PRECONDITION'],
  [GrpcStatus.ABORTED, 'FAILED_PRECONDITION'],
  [GrpcStatus.RESOURCE_EXHAUSTED, 'RESOURCE_EXHAUSTED'],
  [GrpcStatus.UNAVAILABLE, 'UNAVAILABLE'],
  [GrpcStatus.DEADLINE_EXCEEDED, 'DEADLINE_EXCEEDED'],
  [GrpcStatus.CANCELLED, 'UNAVAILABLE'],
  [GrpcStatus.UNIMPLEMENTED, 'UNIMPLEMENTED'],
]);

/** Metadata key carrying the precise domain code (e.g. PAYLOAD_TOO_LARGE shares RESOURCE_EXHAUSTED). */
const CODE_KEY = 'x-error-code';
/** Metadata key carrying an error's retryAfterSeconds, so a service's bulkhead can say when to retry. */
const RETRY_AFTER_KEY = 'x-retry-after';
/**
 * Metadata key carrying the parameter an INVALID_ARGUMENT names (its /v1/call name), so the gateway can name
 * it as the caller did (GraphQL's `input.year` for the service's `reporting_year`) without a rule of its own.
 */
const FIELD_KEY = 'x-error-field';

export interface GrpcErrorPayload {
  code: GrpcStatus;
  details: string;
  metadata: Metadata;
}

export function domainErrorToGrpc(err: DomainError): GrpcErrorPayload {
  const metadata = new Metadata();
  metadata.set(CODE_KEY, err.code);
  if (err.retryAfterSeconds !== undefined) metadata.set(RETRY_AFTER_KEY, String(err.retryAfterSeconds));
  if (err instanceof InvalidArgumentError && err.field !== undefined) metadata.set(FIELD_KEY, err.field);
  return { code: toGrpc[err.code], details: err.message, metadata };
}

/** Turns a failed call back into a DomainError, so callers (the gateway) map errors in one place. */
export function grpcErrorToDomain(err: ServiceError): DomainError {
  const precise = err.metadata?.get(CODE_KEY)[0];
  if (typeof precise === 'string' && precise in toGrpc) {
    const retry = Number(err.metadata.get(RETRY_AFTER_KEY)[0]);
    const field = err.metadata.get(FIELD_KEY)[0];
    if (precise === 'INVALID_ARGUMENT') return new InvalidArgumentError(err.details, typeof field === 'string' ? { field } : {});
    return new DomainError(precise as ErrorCode, err.details, Number.isInteger(retry) && retry > 0 ? { retryAfterSeconds: retry } : {});
  }
  const code = fromGrpc.get(err.code);
  if (code) {
    const message =
      code === 'UNAVAILABLE' || code === 'DEADLINE_EXCEEDED'
        ? 'A backing service is temporarily unavailable; please retry.'
        : err.details;
    return new DomainError(code, message, { cause: err });
  }
  return new DomainError('INTERNAL', 'Internal error.', { cause: err });
}

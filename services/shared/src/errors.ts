/**
 * The domain error model. Services throw these; one table (grpc/status-map.ts) turns them into gRPC
 * status codes, and the gateway turns those into HTTP statuses and GraphQL codes. Messages are shown to
 * clients verbatim, so they must never carry internals (SQL, stacks, other accounts' data).
 */
export type ErrorCode =
  | 'INVALID_ARGUMENT'
  | 'UNAUTHENTICATED'
  | 'PERMISSION_DENIED'
  | 'NOT_FOUND'
  | 'ALREADY_EXISTS'
  | 'FAILED_PRECONDITION'
  | 'RESOURCE_EXHAUSTED'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNAVAILABLE'
  | 'DEADLINE_EXCEEDED'
  | 'UNIMPLEMENTED'
  | 'INTERNAL';

export class DomainError extends Error {
  readonly code: ErrorCode;
  /** When a retry may succeed (a rate limit, a full bulkhead): the HTTP Retry-After header, in seconds. */
  readonly retryAfterSeconds: number | undefined;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown; retryAfterSeconds?: number | undefined }) {
    super(message, options);
    this.name = 'DomainError';
    this.code = code;
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }
}

export class InvalidArgumentError extends DomainError {
  /** The parameter at fault as the caller named it (e.g. `input.name`), when the validation knows it. */
  readonly field: string | undefined;
  constructor(message: string, options: { field?: string } = {}) {
    super('INVALID_ARGUMENT', message);
    this.name = 'InvalidArgumentError';
    this.field = options.field;
  }
}

export class UnauthenticatedError extends DomainError {
  constructor(message = 'Please submit client identifier.') {
    super('UNAUTHENTICATED', message);
    this.name = 'UnauthenticatedError';
  }
}

export class NotAuthorizedError extends DomainError {
  constructor(message = 'Not authorized.') {
    super('PERMISSION_DENIED', message);
    this.name = 'NotAuthorizedError';
  }
}

export class NotFoundError extends DomainError {
  constructor(message: string) {
    super('NOT_FOUND', message);
    this.name = 'NotFoundError';
  }
}

export class AlreadyExistsError extends DomainError {
  constructor(message: string) {
    super('ALREADY_EXISTS', message);
    this.name = 'AlreadyExistsError';
  }
}

export class FailedPreconditionError extends DomainError {
  constructor(message: string) {
    super('FAILED_PRECONDITION', message);
    this.name = 'FailedPreconditionError';
  }
}

export class UnavailableError extends DomainError {
  constructor(message = 'The service is temporarily unavailable; please retry.', options?: { cause?: unknown; retryAfterSeconds?: number }) {
    super('UNAVAILABLE', message, options);
    this.name = 'UnavailableError';
  }
}

/** Too many requests: a rate limit. `retryAfterSeconds` becomes the HTTP Retry-After header. */
export class ResourceExhaustedError extends DomainError {
  constructor(message: string, options: { retryAfterSeconds?: number } = {}) {
    super('RESOURCE_EXHAUSTED', message, options);
    this.name = 'ResourceExhaustedError';
  }
}

export class DeadlineExceededError extends DomainError {
  constructor(message = 'The request ran out of time.') {
    super('DEADLINE_EXCEEDED', message);
    this.name = 'DeadlineExceededError';
  }
}

export class InternalError extends DomainError {
  constructor(message = 'Internal error.', options?: { cause?: unknown }) {
    super('INTERNAL', message, options);
    this.name = 'InternalError';
  }
}

/** Echoed input is cut short: a message must stay readable whatever a client sends. */
export function truncate(value: string, max = 40): string {
  return value.length > max ? `${value.slice(0, max)}…` : value;
}

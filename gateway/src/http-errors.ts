import { DomainError, InternalError, InvalidArgumentError, type ErrorCode } from '@green-impact/shared/errors';

/**
 * The one table from domain error code to HTTP status, after grpc-gateway's mapping. /v1/call answers
 * with these statuses; /graphql reports the same codes in `extensions.code`.
 */
export const HTTP_STATUS_OF: Readonly<Record<ErrorCode, number>> = {
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

/** The error body of /v1/call: the spec's `message` plus a machine-readable `code`. */
export interface ErrorBody {
  message: string;
  code: ErrorCode;
}

export interface DescribedError {
  status: number;
  body: ErrorBody;
  /** True when the client sees a generic text and the original belongs in the log. */
  internal: boolean;
}

/** Turns anything thrown while serving a request into the status and body the client gets. */
export function describeError(err: unknown): DescribedError {
  const domain = toDomainError(err);
  const internal = domain.code === 'INTERNAL';
  return {
    status: HTTP_STATUS_OF[domain.code],
    body: { message: internal ? 'Internal error.' : domain.message, code: domain.code },
    internal,
  };
}

/**
 * DomainErrors pass through; express/body-parser errors (http-errors objects: a 4xx `status` with a
 * `type` or `expose: true`, e.g. a corrupt gzip body) become client errors, so a client mistake never
 * shows up as a 5xx; anything else is INTERNAL.
 */
export function toDomainError(err: unknown): DomainError {
  if (err instanceof DomainError) return err;
  const e = (typeof err === 'object' && err !== null ? err : {}) as {
    type?: unknown;
    status?: unknown;
    statusCode?: unknown;
    limit?: unknown;
    expose?: unknown;
  };
  const status = typeof e.status === 'number' ? e.status : typeof e.statusCode === 'number' ? e.statusCode : 500;
  if ((typeof e.type === 'string' || e.expose === true) && status >= 400 && status < 500) {
    switch (e.type) {
      case 'entity.too.large':
        return new DomainError(
          'PAYLOAD_TOO_LARGE',
          typeof e.limit === 'number'
            ? `The request body is larger than the limit of ${e.limit} bytes.`
            : 'The request body is too large.',
        );
      case 'entity.parse.failed':
        return new InvalidArgumentError('The request body is not valid JSON.');
      case 'charset.unsupported':
        return new InvalidArgumentError('The request body must be encoded as UTF-8.');
      case 'encoding.unsupported':
        return new InvalidArgumentError('The Content-Encoding of the request is not supported.');
      case 'request.aborted':
        return new InvalidArgumentError('The request was aborted before its body arrived.');
      default:
        return new InvalidArgumentError('The request body could not be read.');
    }
  }
  return new InternalError('Internal error.', { cause: err });
}

import type { ErrorCode } from '@green-impact/shared/errors';

/**
 * The codes GraphQL answers carry (issue 29, one error model; docs/graphql.md "Errors"). `extensions.code`
 * speaks the GraphQL ecosystem's names (Apollo's BAD_USER_INPUT, UNAUTHENTICATED, FORBIDDEN, …, and the
 * HTTP reason names where Apollo has none), so generic client code (retry links, auth redirects) works;
 * `extensions.grpcStatus` keeps the service's gRPC status for whoever needs the finer distinction
 * (ALREADY_EXISTS vs FAILED_PRECONDITION are both CONFLICT). /v1/call keeps the domain codes unchanged.
 */
export const GRAPHQL_CODE_OF: Readonly<Record<ErrorCode, string>> = {
  INVALID_ARGUMENT: 'BAD_USER_INPUT',
  FAILED_PRECONDITION: 'CONFLICT',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  PERMISSION_DENIED: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  ALREADY_EXISTS: 'CONFLICT',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  RESOURCE_EXHAUSTED: 'TOO_MANY_REQUESTS',
  INTERNAL: 'INTERNAL_SERVER_ERROR',
  UNIMPLEMENTED: 'NOT_IMPLEMENTED',
  UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  DEADLINE_EXCEEDED: 'GATEWAY_TIMEOUT',
};

/** The gRPC status of each domain code; PAYLOAD_TOO_LARGE is gRPC's RESOURCE_EXHAUSTED (a message over the limit). */
const GRPC_STATUS_OF: Readonly<Record<ErrorCode, string>> = {
  ...(Object.fromEntries(Object.keys(GRAPHQL_CODE_OF).map((code) => [code, code])) as Record<ErrorCode, string>),
  PAYLOAD_TOO_LARGE: 'RESOURCE_EXHAUSTED',
};

/** Every code `extensions.code` can carry: the table's, and those of GraphQL's own request errors and our query limits. */
export const GRAPHQL_ERROR_CODES: ReadonlySet<string> = new Set([
  ...Object.values(GRAPHQL_CODE_OF),
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_REQUEST',
  'OPERATION_RESOLUTION_FAILURE',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'QUERY_TOO_COMPLEX',
]);

/** The extensions of an error with this domain code. */
export function errorExtensions(code: ErrorCode): { code: string; grpcStatus: string } {
  return { code: GRAPHQL_CODE_OF[code], grpcStatus: GRPC_STATUS_OF[code] };
}

import type { GraphQLFormattedError } from 'graphql';
import { GraphQLError } from 'graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import type { Logger } from '@green-impact/shared/logger';
import { DomainError } from '@green-impact/shared/errors';
import { describeError } from '../http-errors.js';
import { errorExtensions } from './error-codes.js';

/**
 * Shapes every GraphQL error. Domain errors get the ecosystem's `extensions.code` and their gRPC status in
 * `extensions.grpcStatus` (error-codes.ts: BAD_USER_INPUT and INVALID_ARGUMENT, FORBIDDEN and
 * PERMISSION_DENIED, ...); GraphQL's own request errors keep Apollo's codes (GRAPHQL_PARSE_FAILED,
 * GRAPHQL_VALIDATION_FAILED, BAD_USER_INPUT, ...); anything else becomes INTERNAL_SERVER_ERROR with a
 * generic message, and the original goes to the log only.
 */
export function createFormatError(log: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    const where = { ...(formatted.locations ? { locations: formatted.locations } : {}), ...(formatted.path ? { path: formatted.path } : {}) };
    if (original instanceof DomainError) {
      const { body, internal } = describeError(original);
      if (internal) log.error({ err: original, path: formatted.path }, 'graphql resolver failed');
      return { message: body.message, ...where, extensions: errorExtensions(body.code) };
    }
    // Apollo files every validation error under GRAPHQL_VALIDATION_FAILED; a rule of ours that names a
    // sharper code (QUERY_TOO_COMPLEX) keeps it on its original error.
    const own = original instanceof GraphQLError && original.originalError instanceof GraphQLError ? original.originalError.extensions['code'] : undefined;
    const code = typeof own === 'string' ? own : formatted.extensions?.['code'];
    if (original instanceof GraphQLError && typeof code === 'string' && code !== 'INTERNAL_SERVER_ERROR') {
      const grpcStatus = formatted.extensions?.['grpcStatus'];
      return { message: formatted.message, ...where, extensions: { code, ...(typeof grpcStatus === 'string' ? { grpcStatus } : {}) } };
    }
    // A request-level error (no resolver path, nothing underneath) that graphql-js or Apollo raised without
    // a code — a persisted-query hash that does not match, an operation type the schema lacks — is about
    // the request, not a fault: say so, and keep it out of the error log.
    if (original instanceof GraphQLError && !formatted.path && !original.originalError) {
      return { message: formatted.message, ...where, extensions: { code: 'BAD_REQUEST' } };
    }
    log.error({ err: original, path: formatted.path }, 'graphql request failed');
    return { message: 'Internal error.', ...where, extensions: errorExtensions('INTERNAL') };
  };
}

import { Counter, Histogram } from 'prom-client';
import type { GraphQLFormattedError } from 'graphql';
import type { ErrorCode } from '@green-impact/shared/errors';
import { metricsRegistry } from '@green-impact/shared/metrics';
import { HTTP_STATUS_OF } from '../http-errors.js';

/**
 * GraphQL's own metrics. A GraphQL answer is 200 even when it carries errors, so http_requests_total cannot
 * see GraphQL failures: these count each operation by what its answer held. Every label has a bounded set
 * of values (docs/operations.md, "GraphQL metrics"), whatever clients send.
 */

/**
 * success: no errors. client_error: an error the caller caused (a 4xx code in http-errors.ts's table).
 * server_error: a fault of ours or a backend (5xx codes, INTERNAL, and any code we do not know).
 * refused: never executed or stopped by a limit (parse, validation, query limits, rate limits, bulkheads).
 */
export type Outcome = 'success' | 'client_error' | 'server_error' | 'refused';
export type Transport = 'http' | 'ws';

/** Codes of answers refused before (or instead of) execution: the client's document or its rate. */
const REFUSED_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'QUERY_TOO_COMPLEX',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'OPERATION_RESOLUTION_FAILURE',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'RESOURCE_EXHAUSTED',
  'TOO_MANY_REQUESTS',
  'PAYLOAD_TOO_LARGE',
]);

/** Worst first: an answer with a server error and a client error counts as a server error. */
const SEVERITY: Record<Outcome, number> = { success: 0, client_error: 1, refused: 2, server_error: 3 };

export function worse(a: Outcome, b: Outcome): Outcome {
  return SEVERITY[b] > SEVERITY[a] ? b : a;
}

/**
 * The class of one error by its extensions, as the client sees it: by its gRPC status when it has one (a
 * service's BAD_USER_INPUT is the caller's mistake, Apollo's is a refused document), else by its code.
 */
export function classifyCode(code: unknown, grpcStatus?: unknown): Exclude<Outcome, 'success'> {
  if (typeof grpcStatus === 'string') code = grpcStatus;
  if (typeof code !== 'string') return 'server_error';
  if (REFUSED_CODES.has(code)) return 'refused';
  const status = (HTTP_STATUS_OF as Partial<Record<string, number>>)[code as ErrorCode];
  return status !== undefined && status < 500 ? 'client_error' : 'server_error';
}

/** The outcome of an answer with these (formatted) errors. `refusedUnavailable`: its UNAVAILABLE errors are a bulkhead's refusals. */
export function outcomeOf(errors: readonly GraphQLFormattedError[] | undefined, refusedUnavailable = false): Outcome {
  let outcome: Outcome = 'success';
  for (const error of errors ?? []) {
    const grpcStatus = error.extensions?.['grpcStatus'];
    outcome = worse(outcome, refusedUnavailable && grpcStatus === 'UNAVAILABLE' ? 'refused' : classifyCode(error.extensions?.['code'], grpcStatus));
  }
  return outcome;
}

/** Distinct operation names a process labels on its own; later new names count as "other". */
export const MAX_OPERATION_NAMES = 100;
const NAME = /^[_A-Za-z][_0-9A-Za-z]{0,63}$/;

/**
 * The bounded set of `operation` label values. A name joins it only when `learn` is true, which callers
 * pass for an operation that validated and ran for an authenticated caller (graphql-metrics-plugin.ts; a
 * graphql-ws connection is authenticated when it opens): a stream of junk documents with fresh names
 * cannot fill it. The first `max` valid names win (a client's named operations are few and steady);
 * anything else is "other", and an unnamed operation "anonymous".
 */
export class OperationNames {
  readonly #known = new Set<string>();
  constructor(private readonly max: number) {}

  label(name: string | null | undefined, learn: boolean): string {
    if (name === undefined || name === null || name === '') return 'anonymous';
    if (this.#known.has(name)) return name;
    if (learn && NAME.test(name) && this.#known.size < this.max) {
      this.#known.add(name);
      return name;
    }
    return 'other';
  }
}

const processNames = new OperationNames(MAX_OPERATION_NAMES);

/** The `operation` label of an operation name, from the process's one bounded set. */
export function operationLabel(name: string | null | undefined, learn: boolean): string {
  return processNames.label(name, learn);
}

/** The label of an operation that never resolved (refused before or at validation): the name the client sent, if already known. */
export function unresolvedLabel(clientName: unknown): string {
  return typeof clientName === 'string' && clientName !== '' ? operationLabel(clientName, false) : 'other';
}

// Registered once per process in the shared registry, however many gateways a process creates.
const operations = new Counter({
  name: 'gateway_graphql_operations_total',
  help: 'GraphQL operations by operation name (bounded set), outcome (errors inside a 200 answer are failures) and transport.',
  labelNames: ['operation', 'outcome', 'transport'] as const,
  registers: [metricsRegistry],
});

const resolverDuration = new Histogram({
  name: 'gateway_graphql_resolver_duration_seconds',
  help: 'Time a root field resolver takes (Query and Mutation fields only: the schema bounds the set), by parent type and field.',
  labelNames: ['parent_type', 'field'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

export function countOperation(operation: string, outcome: Outcome, transport: Transport): void {
  operations.inc({ operation, outcome, transport });
}

export function observeResolver(parentType: string, field: string, seconds: number): void {
  resolverDuration.observe({ parent_type: parentType, field }, seconds);
}

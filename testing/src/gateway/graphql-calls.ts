import assert from 'node:assert/strict';
import { GRAPHQL_CODE_OF } from '@green-impact/gateway/graphql/error-codes';
import type { ErrorCode } from '@green-impact/shared/errors';

/** What a GraphQL POST answered: the HTTP status and the parsed body. */
export interface GqlResponse {
  status: number;
  headers: Headers;
  body: {
    data?: Record<string, any> | null;
    errors?: { message: string; extensions?: Record<string, unknown>; path?: unknown[] }[];
  };
}

/**
 * POSTs a GraphQL request to `baseUrl`/graphql as a frontend would (JSON, the key in X-Api-Key; `null` or
 * an empty key sends no header). The gateway tests' one client.
 */
export async function gqlAt(
  baseUrl: string,
  query: string,
  variables: Record<string, unknown> = {},
  apiKey: string | null = 'user-key',
): Promise<GqlResponse> {
  const res = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(apiKey ? { 'x-api-key': apiKey } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as GqlResponse['body'] };
}

/** The data of an answer that must have no errors. */
export function data(res: GqlResponse): Record<string, any> {
  assert.equal(res.body.errors, undefined, JSON.stringify(res.body.errors));
  return res.body.data!;
}

/**
 * The one error of an answer, as message and extensions.code; extensions must hold nothing else but, for an
 * error a service answered, its gRPC status, which must be the one the code stands for (graphql/error-codes.ts).
 */
export function onlyError(res: GqlResponse): { message: string; code: unknown } {
  assert.equal(res.body.errors?.length, 1, JSON.stringify(res.body));
  const [err] = res.body.errors!;
  const { code, grpcStatus, ...rest } = err!.extensions ?? {};
  assert.deepEqual(rest, {}, 'no stack trace or other internals in extensions');
  if (grpcStatus !== undefined) assert.equal(code, GRAPHQL_CODE_OF[grpcStatus as ErrorCode], `extensions.code of gRPC status ${String(grpcStatus)}`);
  return { message: err!.message, code };
}

/** Calls per method the given services receive while `run` runs (those `only` picks, when given). */
export async function callsDuring(
  services: { calls: { method: string; issuer?: string }[] }[],
  run: () => Promise<unknown>,
  only: (call: { method: string; issuer?: string }) => boolean = () => true,
): Promise<Record<string, number>> {
  const before = services.map((f) => f.calls.length);
  await run();
  const counts: Record<string, number> = {};
  for (const c of services.flatMap((f, i) => f.calls.slice(before[i])).filter(only)) counts[c.method] = (counts[c.method] ?? 0) + 1;
  return counts;
}

import type { KeylessOperationContext, OperationContext, OperationEntry } from '../v1/operation.js';
import type { CallContext, Operation } from './operation.js';
import { streamedJson } from '../v1/streamed-json.js';
import { annotationOf } from './methods.js';

/**
 * /v1/call as an adapter over the catalogue: each declaration with a `v1` render becomes a row of the
 * operation table. The row carries the declaration's fields, with which /v1/call reads its input
 * (catalogue/parse.ts) and OpenAPI describes it (v1/openapi.ts); its handler makes the declared call and
 * renders the answer.
 */
export function v1Entries(operations: readonly Operation[]): OperationEntry[] {
  const writes = writingMethods(operations);
  // An alias (V1Alias) is a row of its own making the declaration's call.
  const rows = operations.flatMap((op) => [op, ...(op.v1Also ?? []).map((a): Operation => ({ ...op, ...a, input: a.input ?? op.input, envelope: a.envelope ?? op.envelope }))]);
  return rows.flatMap((op): OperationEntry[] => {
    const render = op.v1;
    if (op.operation === undefined || render === undefined) return [];
    const row = {
      solution: op.solution,
      operation: op.operation,
      input: op.input,
      envelope: op.envelope,
      writes: writes(op),
      writesWhen: op.writesWhen,
    };
    const streamed = op.v1Streamed;
    const answer = async (input: Record<string, unknown>, ctx: OperationContext | KeylessOperationContext) => {
      const call = callContext(ctx);
      const response = await op.invoke(input, call);
      const body = render(response, input, ctx);
      const items = streamed?.items(response, input, call);
      return items ? streamedJson(body as Record<string, unknown>, streamed!.key, items) : body;
    };
    if (op.withoutApiKey) return [{ ...row, withoutApiKey: true, authority: op.withoutApiKey.authority, handler: answer }];
    return [{ ...row, handler: answer }];
  });
}

/**
 * Whether an operation changes anything (a read-only bearer token is refused it): the kind its proto
 * annotates (catalogue/methods.ts); else, from the declarations, its gRPC method writes when a declaration
 * of that method is a GraphQL Mutation, reads when one is a Query. A method no GraphQL face declares reads
 * only by the gRPC naming convention (Get…, List…).
 */
export function writingMethods(operations: readonly Operation[]): (op: Operation) => boolean {
  const byMethod = new Map<string, boolean>();
  for (const o of operations) {
    if (!o.graphql) continue;
    const key = `${o.service}.${o.method}`;
    byMethod.set(key, (byMethod.get(key) ?? false) || o.graphql.root === 'Mutation');
  }
  return (op) => {
    const kind = annotationOf(op.service, op.method)?.kind;
    if (kind !== undefined) return kind === 'write';
    return byMethod.get(`${op.service}.${op.method}`) ?? !/^(get|list)[A-Z]/.test(op.method);
  };
}

/** What a declaration's call gets of a /v1/call: the caller, the checked envelope, the Idempotency-Key header (read when used). */
function callContext(ctx: OperationContext | KeylessOperationContext): CallContext {
  const { http } = ctx;
  return {
    caller: ctx.caller,
    requestId: ctx.requestId,
    clients: ctx.clients,
    envelope: ctx.envelope,
    get idempotencyKey() {
      return http.idempotencyKey;
    },
  };
}

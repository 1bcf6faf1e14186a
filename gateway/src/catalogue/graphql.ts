import type { GraphQLResolveInfo } from 'graphql';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import type { GraphqlContext } from '../graphql/context.js';
import type { Operation } from './operation.js';
import { graphqlLabels, inputFromGraphql } from './parse.js';

type Resolver = (source: unknown, args: Record<string, unknown>, ctx: GraphqlContext, info: GraphQLResolveInfo) => Promise<unknown>;

/**
 * GraphQL as an adapter over the catalogue: each declaration with a `graphql` face becomes the resolver of
 * its root field. It authenticates first (as /v1/call does: a request without a valid key learns nothing
 * about its input), reads the input with the declaration, and lets the face's render make the call.
 * A service's refusal that names a parameter is named as the caller named it (`input.year` for the
 * service's `reporting_year`), whether the render made the call or read through the memo; the text is the service's.
 */
export function graphqlResolvers(operations: readonly Operation[]): { Query: Record<string, Resolver>; Mutation: Record<string, Resolver> } {
  const out = { Query: {} as Record<string, Resolver>, Mutation: {} as Record<string, Resolver> };
  for (const op of operations) {
    const face = op.graphql;
    if (!face) continue;
    if (out[face.root][face.field]) throw new Error(`GraphQL field ${face.root}.${face.field} is declared twice.`);
    out[face.root][face.field] = resolverOf(op);
  }
  return out;
}

/** The resolver of a declaration's GraphQL field (also for a Node's refetch, which reads as the field does). */
export function resolverOf(op: Operation): Resolver {
  const face = op.graphql;
  if (!face) throw new Error(`${op.operation ?? 'An operation'} has no GraphQL face.`);
  const labels = graphqlLabels(op.input, face.nested);
  return async (_source, args, ctx, info) => {
    const caller = op.withoutApiKey ? undefined : (await ctx.auth()).caller;
    const input = inputFromGraphql(op.input, args, face.nested);
    const named = (err: unknown) => Promise.reject(relabel(err, labels));
    const call = () => op.invoke(input, { caller, requestId: ctx.requestId, clients: ctx.clients }).catch(named);
    // A render may read through the request's memo instead of `call` (categories(year) reads as nested
    // fields do): its refusals are named as the caller named the argument too.
    return Promise.resolve(face.render(call, input, ctx, info)).catch(named);
  };
}

/**
 * A service's INVALID_ARGUMENT naming a parameter by its /v1/call name, renamed to the GraphQL label: the
 * field at fault, and in the text each of the operation's snake_case names (`Give sdg_id, eu_objective_id
 * or both.` reads `Give input.sdgId, input.euObjectiveId or both.`).
 */
function relabel(err: unknown, labels: ReadonlyMap<string, string>): unknown {
  if (!(err instanceof InvalidArgumentError) || err.field === undefined) return err;
  const label = labels.get(err.field);
  if (label === undefined) return err;
  const message = err.message.replace(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g, (name) => labels.get(name) ?? name);
  const named = message.startsWith(`${err.field} `) ? `${label}${message.slice(err.field.length)}` : message;
  return new InvalidArgumentError(named, { field: label });
}

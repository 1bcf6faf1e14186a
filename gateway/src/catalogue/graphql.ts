import type { GraphQLResolveInfo } from 'graphql';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import type { GraphqlContext } from '../graphql/context.js';
import { servicePaged, type ServicePage } from '../graphql/pagination.js';
import type { CallContext, Operation, PageRequest } from './operation.js';
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
    const run = runnerOf(op);
    const paged = face.paged;
    out[face.root][face.field] = paged
      ? // first/after are checked and turned into the page before anything else, as servicePaged does for every connection.
        (source, args, ctx, info) =>
          servicePaged(
            (_parent: unknown, rest: Record<string, unknown>, c: GraphqlContext, page: PageRequest) => run(rest, c, info, page) as Promise<ServicePage<unknown>>,
            paged.idOf as (item: unknown) => string | number,
            paged.idPattern,
            paged.orderBy?.default,
          )(source, args, ctx, info)
      : (_source, args, ctx, info) => run(args, ctx, info, undefined);
  }
  return out;
}

/** The resolver of a declaration's GraphQL field (also for a Node's refetch, which reads as the field does). */
export function resolverOf(op: Operation): Resolver {
  const run = runnerOf(op);
  return (_source, args, ctx, info) => run(args, ctx, info, undefined);
}

/** Authenticates, reads the input with the declaration and lets the face's render make the call. */
function runnerOf(op: Operation) {
  const face = op.graphql;
  if (!face) throw new Error(`${op.operation ?? 'An operation'} has no GraphQL face.`);
  const label = (name: string) => (face.nested ? `input.${name}` : name);
  const labels = new Map([...graphqlLabels(op.input, face.nested), ['network', label('network')], [IDEMPOTENCY_KEY, label('idempotencyKey')]]);
  return async (args: Record<string, unknown>, ctx: GraphqlContext, info: GraphQLResolveInfo, page: PageRequest | undefined) => {
    const caller = op.withoutApiKey ? undefined : (await ctx.auth()).caller;
    const input = inputFromGraphql(op.input, args, face.nested);
    const named = (err: unknown) => Promise.reject(relabel(err, labels));
    const call = () => op.invoke(input, { caller, requestId: ctx.requestId, clients: ctx.clients, page, ...envelopeOf(op, args, face.nested) }).catch(named);
    // A render may read through the request's memo instead of `call` (categories(year) reads as nested
    // fields do): its refusals are named as the caller named the argument too.
    return Promise.resolve(face.render(call, input, ctx, info)).catch(named);
  };
}

/** The name the chain service gives the Idempotency-Key in its refusals (the /v1/call header's). */
const IDEMPOTENCY_KEY = 'Idempotency-Key';

/**
 * What GraphQL's arguments carry besides the declared fields, as /v1/call's envelope and headers carry
 * them: the `network` of the operations that declare `envelope.network` (version is always 1 here), and
 * `idempotencyKey`, the Idempotency-Key of the job-creating mutations.
 */
function envelopeOf(op: Operation, args: Record<string, unknown>, nested: boolean): Pick<CallContext, 'envelope' | 'idempotencyKey'> {
  const source = (nested ? (args['input'] ?? {}) : args) as Record<string, unknown>;
  const network = source['network'];
  const key = source['idempotencyKey'];
  return {
    ...(op.envelope?.network && typeof network === 'string' ? { envelope: { version: 1, network } } : {}),
    ...(typeof key === 'string' ? { idempotencyKey: key } : {}),
  };
}

/**
 * For GraphQL's own resolvers (nested fields, subscriptions) that call a service directly: a refusal that
 * names a parameter by its /v1/call name (`labels`' keys) is named as the field's argument (its values).
 */
export async function withLabels<T>(read: Promise<T>, labels: Readonly<Record<string, string>>): Promise<T> {
  try {
    return await read;
  } catch (err) {
    throw relabel(err, new Map(Object.entries(labels)));
  }
}

/**
 * A service's INVALID_ARGUMENT naming a parameter by its /v1/call name, renamed to the GraphQL label: the
 * field at fault (or a place inside it: `attributes[0].value …`), and in the text each of the operation's
 * snake_case names (`Give sdg_id, eu_objective_id or both.` reads `Give input.sdgId, input.euObjectiveId or both.`).
 */
function relabel(err: unknown, labels: ReadonlyMap<string, string>): unknown {
  if (!(err instanceof InvalidArgumentError) || err.field === undefined) return err;
  const label = labels.get(err.field);
  if (label === undefined) return err;
  const message = err.message.replace(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g, (name) => labels.get(name) ?? name);
  const named = [' ', '[', '.', ':'].some((next) => message.startsWith(`${err.field}${next}`));
  return new InvalidArgumentError(named ? `${label}${message.slice(err.field.length)}` : message, { field: label });
}

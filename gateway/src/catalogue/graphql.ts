import type { GraphQLResolveInfo } from 'graphql';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import type { GraphqlContext } from '../graphql/context.js';
import { servicePaged, type ServicePage } from '../graphql/pagination.js';
import type { Operation, PageRequest } from './operation.js';
import { graphqlLabels, inputFromGraphql } from './parse.js';

type Resolver = (source: unknown, args: Record<string, unknown>, ctx: GraphqlContext, info: GraphQLResolveInfo) => Promise<unknown>;

/**
 * GraphQL as an adapter over the catalogue: each declaration with a `graphql` face becomes the resolver of
 * its root field. It authenticates first (as /v1/call does: a request without a valid key learns nothing
 * about its input), reads the input with the declaration, and lets the face's render make the call.
 * A service's refusal that names a parameter is named as the caller named it (`input.year` for the
 * service's `reporting_year`); the text is the service's.
 */
export function graphqlResolvers(operations: readonly Operation[]): { Query: Record<string, Resolver>; Mutation: Record<string, Resolver> } {
  const out = { Query: {} as Record<string, Resolver>, Mutation: {} as Record<string, Resolver> };
  for (const op of operations) {
    const face = op.graphql;
    if (!face) continue;
    if (out[face.root][face.field]) throw new Error(`GraphQL field ${face.root}.${face.field} is declared twice.`);
    const labels = graphqlLabels(op.input, face.nested);
    const resolve = async (args: Record<string, unknown>, ctx: GraphqlContext, info: GraphQLResolveInfo, page?: PageRequest) => {
      const caller = op.withoutApiKey ? undefined : (await ctx.auth()).caller;
      const input = inputFromGraphql(op.input, args, face.nested);
      const call = () => op.invoke(input, { caller, requestId: ctx.requestId, clients: ctx.clients, page }).catch((err: unknown) => Promise.reject(relabel(err, labels)));
      return face.render(call, input, ctx, info);
    };
    const paged = face.paged;
    out[face.root][face.field] = paged
      ? // first/after are checked and turned into the page before anything else, as servicePaged does for every connection.
        (source, args, ctx, info) =>
          servicePaged(
            (_parent: unknown, rest: Record<string, unknown>, c: GraphqlContext, page: PageRequest) => resolve(rest, c, info, page) as Promise<ServicePage<unknown>>,
            paged.idOf as (item: unknown) => string | number,
            paged.idPattern,
          )(source, args, ctx)
      : (_source, args, ctx, info) => resolve(args, ctx, info);
  }
  return out;
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

/** A service's INVALID_ARGUMENT naming a parameter by its /v1/call name, renamed to the GraphQL label. */
function relabel(err: unknown, labels: ReadonlyMap<string, string>): unknown {
  if (!(err instanceof InvalidArgumentError) || err.field === undefined) return err;
  const label = labels.get(err.field);
  if (label === undefined) return err;
  const message = err.message.startsWith(`${err.field} `) ? `${label}${err.message.slice(err.field.length)}` : err.message;
  return new InvalidArgumentError(message, { field: label });
}

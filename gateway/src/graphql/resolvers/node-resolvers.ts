import { DomainError, InvalidArgumentError } from '@green-impact/shared/errors';
import type { GraphqlContext } from '../context.js';
import { decodeNodeId, MAX_NODE_IDS, NOT_A_NODE_ID, toNodeId } from '../node-ids.js';
import { taxonomyNodeTypes } from './node-taxonomy-types.js';
import { NotANodeId, nodeTypes, type NodeType } from './node-types.js';

/**
 * Query.node / Query.nodes and each Node type's nodeId (Relay's Object Identification; node-types.ts and
 * node-taxonomy-types.ts have the keys and refetches). A malformed id, one of a type without refetch, or a key part no object of this
 * API has, is INVALID_ARGUMENT; an object the caller may not see, or that is gone, is null — never an
 * error that would tell the two apart.
 */

/** Every Node type by name: node-types.ts and node-taxonomy-types.ts. */
const allNodeTypes = { ...nodeTypes, ...taxonomyNodeTypes };
type NodeTypeName = keyof typeof allNodeTypes;
const registry = allNodeTypes as Record<string, NodeType<unknown>>;
const partsOf = (type: string) => (Object.hasOwn(registry, type) ? registry[type]!.parts : undefined);

/** The object a nodeId names, typed for Node's resolveType, or null; `label` names the argument in errors. */
async function refetch(id: string, ctx: GraphqlContext, label: string): Promise<object | null> {
  await ctx.auth();
  const { type, parts } = decodeNodeId(id, partsOf, label);
  let found: unknown;
  try {
    found = await registry[type]!.refetch(parts, ctx);
  } catch (err) {
    // A key part no read takes (a forged identifier, a year out of range) means the id was not given out here.
    if (err instanceof NotANodeId || (err instanceof DomainError && err.code === 'INVALID_ARGUMENT')) {
      throw new InvalidArgumentError(`${label} ${NOT_A_NODE_ID}`);
    }
    // Gone since the id was given out (a language removed): as a read by id, null.
    if (err instanceof DomainError && err.code === 'NOT_FOUND') return null;
    throw err;
  }
  return found === null || found === undefined ? null : { ...(found as object), __typename: type };
}

export const nodeQueries = {
  node: (_: unknown, args: { id: string }, ctx: GraphqlContext) => refetch(args.id, ctx, 'id'),
  /**
   * In the order of ids, null where node(id) is null. Every id is checked before anything is read; an
   * error reading one object (a backend unavailable) is that item's error, the others are still answered.
   */
  async nodes(_: unknown, args: { ids: string[] }, ctx: GraphqlContext): Promise<(object | null | Error)[]> {
    await ctx.auth();
    if (args.ids.length > MAX_NODE_IDS) {
      throw new InvalidArgumentError(`ids holds ${args.ids.length} ids; at most ${MAX_NODE_IDS} are allowed.`);
    }
    args.ids.forEach((id, i) => decodeNodeId(id, partsOf, `ids[${i}]`));
    return Promise.all(
      args.ids.map((id, i) => refetch(id, ctx, `ids[${i}]`).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))))),
    );
  },
};

/** nodeId of every Node type, from the key node-types.ts gives it; merged into the type resolvers in index.ts. */
export const nodeTypeResolvers = Object.fromEntries(
  (Object.keys(allNodeTypes) as NodeTypeName[]).map((type) => [
    type,
    { nodeId: (obj: unknown) => toNodeId(type, ...registry[type]!.key(obj)) },
  ]),
) as Record<NodeTypeName, { nodeId: (obj: unknown) => string }>;

export const nodeInterface = {
  Node: { __resolveType: (obj: { __typename?: string }) => obj.__typename ?? null },
};

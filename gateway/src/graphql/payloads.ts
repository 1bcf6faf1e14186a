import type { GraphQLResolveInfo } from 'graphql';
import type { GraphqlContext } from './context.js';
import { forgetFrameworkReads } from './framework-reads.js';
import { forgetPortfolioReads } from './portfolio-reads.js';
import { orNull } from './resolvers/or-null.js';
import { selectsField } from './selects-field.js';
import { forgetTaxonomyReads } from './taxonomy-reads.js';
import { USER_ERRORS_FIELD } from './user-errors.js';

/**
 * Payloads of the changes (issue 21): each keeps the `message` and `id` the changes answered as
 * MessageResult (gone from the schema since every change answers a payload), so existing selections keep
 * working, and adds the changed entity, or for a removal the removed item's id.
 *
 * The entity is a thunk on the payload, which graphql-js's default resolver calls only when the field is
 * selected: it reads the entity after the write, as the caller, with the same reads the Query fields use,
 * so visibility rules apply unchanged (another account's private item reads as null, as on a Query).
 * Mutation fields run one after the other, each with its selection, so the request's memoised reads are
 * dropped when a change completes: a payload never shows what an earlier field of the request read.
 */

/** What a change answers: the service's message and, when there is one, the id of the item changed. */
export interface ServiceAnswer {
  message: string;
  id?: number | undefined;
}

type Id = string | number;
/** The arguments of the payload's entity field (Framework's `year`, …); the default resolver passes them to the thunk. */
export type FieldArgs = Record<string, unknown>;

function forgetReads(ctx: GraphqlContext): void {
  forgetTaxonomyReads(ctx);
  forgetFrameworkReads(ctx);
  forgetPortfolioReads(ctx);
}

/**
 * The payload of a change whose entity `field` is read by `read` when selected, with the field's arguments:
 * null when the caller cannot read it (NOT_FOUND, or absent from the caller's reads).
 */
export function changePayload<F extends string, T>(
  ctx: GraphqlContext,
  answer: ServiceAnswer,
  field: F,
  read: (args: FieldArgs) => Promise<T | null | undefined>,
): { message: string; id: Id | null } & Record<F, (args: FieldArgs) => Promise<T | null>> {
  forgetReads(ctx);
  const entity = async (args: FieldArgs) => (await orNull(read(args ?? {}))) ?? null;
  return { message: answer.message, id: answer.id ?? null, [field]: entity } as { message: string; id: Id | null } & Record<
    F,
    (args: FieldArgs) => Promise<T | null>
  >;
}

/**
 * A removal and its payload: `removedId` is the removed item's id. Given as a value when the input names
 * the item by id; as a read when it names it otherwise (an identifier, a code), made before the removal
 * and only when removedId is selected, as the caller (null when the caller cannot read the item).
 */
export async function removalPayload(
  ctx: GraphqlContext,
  info: GraphQLResolveInfo,
  removedId: Id | null | (() => Promise<Id | null | undefined>),
  remove: () => Promise<ServiceAnswer>,
): Promise<{ message: string; id: Id | null; removedId: string | null }> {
  let found: Id | null | undefined = null;
  if (typeof removedId !== 'function') found = removedId;
  else if (selectsField(info, 'removedId')) found = await orNull(removedId());
  const answer = await remove();
  forgetReads(ctx);
  return { message: answer.message, id: answer.id ?? null, removedId: found === null || found === undefined ? null : String(found) };
}

/** SDL of the payload type of a change carrying `field: type`, with the descriptions the schema review asks for. */
export function payloadType(name: string, description: string, field: string, type: string, fieldDescription: string): string {
  return `
  "${description}"
  type ${name} {
    "The service's message, as /v1/call returns it."
    message: String!
    "Id of the item created, changed or removed, when the service answers one."
    id: ID
    "${fieldDescription}"
    ${field}: ${type}${USER_ERRORS_FIELD}
  }
`;
}

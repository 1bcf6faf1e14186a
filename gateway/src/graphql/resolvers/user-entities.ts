import type { GraphqlContext } from '../context.js';
import { changePayload, type ServiceAnswer } from '../payloads.js';
import { userQueries } from './user-resolvers.js';

/**
 * The user, or the user's investor access, a change's payload carries (payloads.ts), read as
 * users(userIdentifier, decryptionKey) and investorsOfUser(userIdentifier) read them for the caller. Names
 * and e-mails are PII: a payload shows them in clear only with the key the change itself was given
 * (addUser's encryptionKey), else as those reads show them without a key (encrypted ones masked), so a
 * payload never reveals more than the Query would with the same arguments.
 */

/** The user with this identifier, as the users connection's one item for userIdentifier shows it. */
async function readUser(ctx: GraphqlContext, userIdentifier: string, decryptionKey: string | undefined) {
  const page = await userQueries.users(undefined, { userIdentifier, decryptionKey }, ctx, { pageSize: 1, pageToken: undefined });
  return page.items.find((u) => u.identifier === userIdentifier);
}

export function userPayload(ctx: GraphqlContext, answer: ServiceAnswer, userIdentifier: string, decryptionKey?: string) {
  return changePayload(ctx, answer, 'user', () => readUser(ctx, userIdentifier, decryptionKey));
}

/** The user's entry of investorsOfUser(userIdentifier), read without a key: encrypted investor names masked. */
export function userInvestorsPayload(ctx: GraphqlContext, answer: ServiceAnswer, userIdentifier: string) {
  return changePayload(ctx, answer, 'userInvestors', async () =>
    (await userQueries.investorsOfUser(undefined, { userIdentifier }, ctx)).find((u) => u.userIdentifier === userIdentifier),
  );
}

/** The id of the user a removal names, read before it (payloads.ts's removalPayload), without a key. */
export const userIdOf = (ctx: GraphqlContext, userIdentifier: string) => async () => (await readUser(ctx, userIdentifier, undefined))?.id;

import type { GraphQLResolveInfo } from 'graphql';
import { withInvestorDetails } from '../../composition/investor-details.js';
import {
  addUserParams,
  getUsersParams,
  toUserRole,
  userGroupParams,
  userInvestorParams,
  userParams,
} from '../../v1/operations/identity.js';
import { validateParameters } from '../../v1/parameters.js';
import { callAs, type GraphqlContext } from '../context.js';
import { accessibleInvestor, group, user, type GqlUserRole } from '../mappers.js';
import type { ServicePage } from '../pagination.js';
import { changePayload, removalPayload, type ServiceAnswer } from '../payloads.js';

/**
 * Users, groups and investor access: the GraphQL face of spec §4.11. Arguments go through the same
 * parameter specs as /v1/call (labels name the GraphQL arguments in messages). Like /v1/call, each
 * resolver authenticates before it validates. Changes answer their payload: the user, or the user's
 * investor access, as a following read shows it to the caller (userPayload below), or a removal's removedId.
 */

type Maybe<T> = T | null | undefined;

const userFilterLabels = { user_identifier: 'userIdentifier', decryption_key: 'decryptionKey' } as const;
const userOnly = { user_identifier: userParams.userIdentifier } as const;

export const userQueries = {
  /** The users connection: the identity service pages the listing (servicePaged in index.ts). */
  async users(
    _: unknown,
    args: { userIdentifier?: Maybe<string>; decryptionKey?: Maybe<string> },
    ctx: GraphqlContext,
    page: { pageSize: number; pageToken: string | undefined },
  ): Promise<ServicePage<ReturnType<typeof user>>> {
    const opts = await callAs(ctx);
    const p = validateParameters(
      getUsersParams,
      { user_identifier: args.userIdentifier, decryption_key: args.decryptionKey },
      userFilterLabels,
    );
    const res = await ctx.clients.identity.getUsers(
      { userIdentifier: p.user_identifier, decryptionKey: p.decryption_key, pageSize: page.pageSize, ...(page.pageToken === undefined ? {} : { pageToken: page.pageToken }) },
      opts,
    );
    return { items: res.users.map(user), nextPageToken: res.nextPageToken, totalCount: res.totalCount ?? res.users.length };
  },
  async groups(_: unknown, __: unknown, ctx: GraphqlContext) {
    const opts = await callAs(ctx);
    const { groups } = await ctx.clients.identity.getGroups({}, opts);
    return groups.map(group);
  },
  async investorsOfUser(
    _: unknown,
    args: { userIdentifier?: Maybe<string>; decryptionKey?: Maybe<string> },
    ctx: GraphqlContext,
  ) {
    const opts = await callAs(ctx);
    const p = validateParameters(
      getUsersParams,
      { user_identifier: args.userIdentifier, decryption_key: args.decryptionKey },
      userFilterLabels,
    );
    const { users } = await ctx.clients.identity.getInvestorsOfUser({ userIdentifier: p.user_identifier }, opts);
    const composition = { caller: opts.caller, requestId: ctx.requestId, clients: ctx.clients };
    return (await withInvestorDetails(users, { decryptionKey: p.decryption_key }, composition)).map((u) => ({
      ...u,
      investors: u.investors.map(accessibleInvestor),
    }));
  },
};

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

export interface AddUserInput {
  userIdentifier: string;
  firstName?: Maybe<string>;
  lastName?: Maybe<string>;
  email?: Maybe<string>;
  role?: Maybe<GqlUserRole>;
  encryptionKey?: Maybe<string>;
}

export const userMutations = {
  async addUser(_: unknown, { input }: { input: AddUserInput }, ctx: GraphqlContext) {
    const opts = await callAs(ctx);
    const p = validateParameters(
      addUserParams,
      {
        user_identifier: input.userIdentifier,
        user_first_name: input.firstName,
        user_last_name: input.lastName,
        user_email: input.email,
        user_role: input.role?.toLowerCase(),
        encryption_key: input.encryptionKey,
      },
      {
        user_identifier: 'input.userIdentifier',
        user_first_name: 'input.firstName',
        user_last_name: 'input.lastName',
        user_email: 'input.email',
        user_role: 'input.role',
        encryption_key: 'input.encryptionKey',
      },
    );
    const res = await ctx.clients.identity.addUser(
      {
        userIdentifier: p.user_identifier,
        userFirstName: p.user_first_name,
        userLastName: p.user_last_name,
        userEmail: p.user_email,
        userRole: toUserRole(p.user_role),
        encryptionKey: p.encryption_key,
      },
      opts,
    );
    return userPayload(ctx, res, p.user_identifier, p.encryption_key);
  },
  async removeUser(_: unknown, args: { userIdentifier: string }, ctx: GraphqlContext, info: GraphQLResolveInfo) {
    const opts = await callAs(ctx);
    const p = validateParameters(userOnly, { user_identifier: args.userIdentifier }, userFilterLabels);
    return removalPayload(ctx, info, userIdOf(ctx, p.user_identifier), () => ctx.clients.identity.removeUser({ userIdentifier: p.user_identifier }, opts));
  },
  async addGroupToUser(_: unknown, args: { userIdentifier: string; group: string }, ctx: GraphqlContext) {
    const opts = await callAs(ctx);
    const p = validateParameters(userGroupParams, { user_identifier: args.userIdentifier, group: args.group }, userFilterLabels);
    const answer = await ctx.clients.identity.addGroupToUser({ userIdentifier: p.user_identifier, group: p.group }, opts);
    return userPayload(ctx, answer, p.user_identifier);
  },
  async removeGroupFromUser(_: unknown, args: { userIdentifier: string; group: string }, ctx: GraphqlContext) {
    const opts = await callAs(ctx);
    const p = validateParameters(userGroupParams, { user_identifier: args.userIdentifier, group: args.group }, userFilterLabels);
    const answer = await ctx.clients.identity.removeGroupFromUser({ userIdentifier: p.user_identifier, group: p.group }, opts);
    return userPayload(ctx, answer, p.user_identifier);
  },
  async addInvestorToUser(_: unknown, args: { userIdentifier: string; investorIdentifier: string }, ctx: GraphqlContext) {
    const opts = await callAs(ctx);
    const p = validateParameters(
      userInvestorParams,
      { user_identifier: args.userIdentifier, investor_identifier: args.investorIdentifier },
      { ...userFilterLabels, investor_identifier: 'investorIdentifier' },
    );
    const answer = await ctx.clients.identity.addInvestorToUser({ userIdentifier: p.user_identifier, investorIdentifier: p.investor_identifier }, opts);
    return userInvestorsPayload(ctx, answer, p.user_identifier);
  },
  async removeInvestorFromUser(_: unknown, args: { userIdentifier: string; investorIdentifier: string }, ctx: GraphqlContext) {
    const opts = await callAs(ctx);
    const p = validateParameters(
      userInvestorParams,
      { user_identifier: args.userIdentifier, investor_identifier: args.investorIdentifier },
      { ...userFilterLabels, investor_identifier: 'investorIdentifier' },
    );
    const answer = await ctx.clients.identity.removeInvestorFromUser({ userIdentifier: p.user_identifier, investorIdentifier: p.investor_identifier }, opts);
    return userInvestorsPayload(ctx, answer, p.user_identifier);
  },
  async generateEncryptionKey(_: unknown, __: unknown, ctx: GraphqlContext) {
    const opts = await callAs(ctx);
    const { key } = await ctx.clients.identity.generateEncryptionKey({}, opts);
    return key;
  },
};

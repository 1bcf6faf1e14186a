import { UserRole, type User } from '@green-impact/proto/greenimpact/identity/v1/identity';
import { userRow } from '../../generated/identity.js';
import { InternalError } from '@green-impact/shared/errors';
import { withInvestorDetails } from '../../composition/investor-details.js';
import type { GraphqlContext } from '../../graphql/context.js';
import { pageFields, SERVICE_ID } from '../../graphql/pagination.js';
import { changePayload, removalPayload, type ServiceAnswer } from '../../graphql/payloads.js';
import { listed } from '../../v1/truncation.js';
import { identifier, oneOf, text } from '../fields.js';
import { callerOf, declare } from '../operation.js';
import { ESG, messageOnly } from '../renders.js';

/**
 * Users, groups and investor access (spec §4.11) and generateEncryptionKey (§4.9), served by
 * IdentityService. The service owns every rule: identifier and name lengths, the e-mail address's format
 * and length, the keys' lengths, known groups and roles, and the refusals' texts.
 *
 * GraphQL's users list is paged by the service (GraphqlFace.paged gives the page through the call
 * context); /v1/call's getUsers asks for no page and answers the whole
 * list up to the service's cap, marked truncated past it.
 */

const NO_USERS = { message: 'No users are registered.' };

const userIdentifier = identifier('user_identifier', { doc: "The account's identifier for the user, at most 255 characters." });
/** The spec misspells decryption_key as depryption_key in one table; legacy clients may send either. */
const decryptionKey = text('decryption_key', {
  aliases: ['depryption_key'],
  doc: "Key given to addUser's encryptionKey; without it encrypted names and e-mails come back masked.",
});
const filter = { userIdentifier: userIdentifier.with({ doc: 'Only the user with this identifier.' }).optional(), decryptionKey: decryptionKey.optional() };

export function toUserRole(role: 'user' | 'admin' | undefined): UserRole {
  if (role === 'admin') return UserRole.USER_ROLE_ADMIN;
  if (role === 'user') return UserRole.USER_ROLE_USER;
  return UserRole.USER_ROLE_UNSPECIFIED;
}

export const getUsers = declare({
  solution: ESG,
  summary: "Users of the caller's account, or the one named; names and e-mails masked unless the key opens them.",
  input: filter,
  service: 'identity',
  method: 'getUsers',
  request: (i, ctx) => ({ userIdentifier: i.userIdentifier, decryptionKey: i.decryptionKey, ...pageFields(ctx.page) }),
  v1: (res, _i, ctx) => (res.users.length === 0 ? NO_USERS : listed(ctx, res, res.users.map(userRow))),
  graphql: {
    paged: { idOf: (u: User) => u.userId, idPattern: SERVICE_ID },
    returns: 'UserConnection!',
    nested: false,
    render: async (call) => {
      const res = await call();
      return { items: res.users, nextPageToken: res.nextPageToken, totalCount: res.totalCount ?? res.users.length };
    },
  },
});

export const getGroups = declare({
  solution: ESG,
  summary: 'The groups a user can be put in.',
  input: {},
  service: 'identity',
  method: 'getGroups',
  request: () => ({}),
  // A legacy quirk: the spec's getGroups names the group's id `id`, where a user's groups name it `group_id` (Group's row).
  v1: (res) => res.groups.map((g) => ({ id: g.id, group: g.group })),
  graphql: { returns: '[Group!]!', nested: false, render: async (call) => (await call()).groups },
});

/** The call context of composition (investor details from the portfolio service) for a GraphQL caller. */
async function composingAs(ctx: GraphqlContext) {
  return { caller: (await ctx.auth()).caller, requestId: ctx.requestId, clients: ctx.clients };
}

/** The investors of each user (or the one named), details read from the portfolio service (composition/). */
export const getInvestorsOfUser = declare({
  solution: ESG,
  summary: 'For each user, the investors the user may access; investor names masked unless the key opens them.',
  input: { ...filter, decryptionKey: decryptionKey.with({ doc: 'Key that decrypts investor names encrypted at rest.' }).optional() },
  service: 'identity',
  method: 'getInvestorsOfUser',
  request: (i) => ({ userIdentifier: i.userIdentifier }),
  v1: async (res, i, ctx) => {
    const users = listed(ctx, res, res.users);
    if (users.length === 0) return NO_USERS;
    // A key authorizes every identity row, so the context has a caller (KeylessOperationContext is the NFT claim's).
    if (!ctx.caller) throw new InternalError('Internal error.', { cause: new Error('getInvestorsOfUser ran without a caller') });
    const at = { caller: ctx.caller, requestId: ctx.requestId, clients: ctx.clients };
    return (await withInvestorDetails(users, { decryptionKey: i.decryptionKey }, at)).map((u) => ({
      user_id: u.userId,
      user_identifier: u.userIdentifier,
      investors: u.investors.map((inv) => ({
        investor_id: inv.investorId,
        investor_identifier: inv.investorIdentifier,
        investor_name: inv.investorName,
      })),
    }));
  },
  graphql: {
    returns: '[UserInvestors!]!',
    nested: false,
    render: async (call, i, ctx) => withInvestorDetails((await call()).users, { decryptionKey: i.decryptionKey }, await composingAs(ctx)),
  },
});

/**
 * The user, or the user's investor access, a change's payload carries (graphql/payloads.ts), read as
 * users(userIdentifier, decryptionKey) and investorsOfUser(userIdentifier) read them for the caller. Names
 * and e-mails are PII: a payload shows them in clear only with the key the change itself was given
 * (addUser's encryptionKey), else as those reads show them without a key (encrypted ones masked), so a
 * payload never reveals more than the Query would with the same arguments.
 */

/** The user with this identifier, as the users connection's one item for userIdentifier shows it. */
async function readUser(ctx: GraphqlContext, identifierOfUser: string, key: string | undefined) {
  const at = { ...(await callerOf(ctx)), page: { pageSize: 1, pageToken: undefined } };
  const { users } = await getUsers.call({ userIdentifier: identifierOfUser, decryptionKey: key }, at);
  return users.find((u) => u.userIdentifier === identifierOfUser);
}

const userPayload = (ctx: GraphqlContext, answer: ServiceAnswer, identifierOfUser: string, key?: string) =>
  changePayload(ctx, answer, 'user', () => readUser(ctx, identifierOfUser, key));

/** The user's entry of investorsOfUser(userIdentifier), read without a key: encrypted investor names masked. */
const userInvestorsPayload = (ctx: GraphqlContext, answer: ServiceAnswer, identifierOfUser: string) =>
  changePayload(ctx, answer, 'userInvestors', async () => {
    const at = await composingAs(ctx);
    const { users } = await getInvestorsOfUser.call({ userIdentifier: identifierOfUser }, at);
    return (await withInvestorDetails(users.filter((u) => u.userIdentifier === identifierOfUser), {}, at))[0];
  });

export const addUser = declare({
  solution: ESG,
  summary: "Adds a user to the caller's account, or updates the one with the same identifier.",
  input: {
    userIdentifier: userIdentifier.with({ missingMessage: 'User identifier is missing.' }),
    firstName: text('user_first_name', { doc: 'First name, at most 255 characters.' }).optional(),
    lastName: text('user_last_name', { doc: 'Last name, at most 255 characters.' }).optional(),
    // An address is a lookup key: no control characters at all (the service checks its format and length).
    email: identifier('user_email', { doc: 'E-mail address, at most 320 characters.' }).optional(),
    role: oneOf('user_role', ['user', 'admin'], { graphql: 'UserRole', doc: 'Role of the user; the identity service decides the default.' }).optional(),
    encryptionKey: text('encryption_key', { doc: 'Key from generateEncryptionKey; names and e-mail are then stored encrypted with it.' }).optional(),
  },
  service: 'identity',
  method: 'addUser',
  request: (i) => ({
    userIdentifier: i.userIdentifier,
    userFirstName: i.firstName,
    userLastName: i.lastName,
    userEmail: i.email,
    userRole: toUserRole(i.role),
    encryptionKey: i.encryptionKey,
  }),
  v1: messageOnly,
  graphql: {
    returns: 'UserPayload!',
    nested: true,
    render: async (call, i, ctx) => userPayload(ctx, await call(), i.userIdentifier, i.encryptionKey),
  },
});

export const removeUser = declare({
  solution: ESG,
  summary: "Removes a user of the caller's account.",
  input: { userIdentifier },
  service: 'identity',
  method: 'removeUser',
  request: (i) => ({ userIdentifier: i.userIdentifier }),
  v1: messageOnly,
  graphql: {
    returns: 'RemovalPayload!',
    nested: false,
    // The id of the user a removal names is read before it, without a key.
    render: (call, i, ctx, info) => removalPayload(ctx, info, async () => (await readUser(ctx, i.userIdentifier, undefined))?.userId, call),
  },
});

const userGroup = { userIdentifier, group: text('group', { doc: 'Name of the group, one of groups.' }) };

export const addGroupToUser = declare({
  solution: ESG,
  summary: 'Puts a user in a group.',
  input: userGroup,
  service: 'identity',
  method: 'addGroupToUser',
  request: (i) => ({ userIdentifier: i.userIdentifier, group: i.group }),
  v1: messageOnly,
  graphql: { returns: 'UserPayload!', nested: false, render: async (call, i, ctx) => userPayload(ctx, await call(), i.userIdentifier) },
});

export const removeGroupFromUser = declare({
  solution: ESG,
  summary: 'Takes a user out of a group.',
  input: userGroup,
  service: 'identity',
  method: 'removeGroupFromUser',
  request: (i) => ({ userIdentifier: i.userIdentifier, group: i.group }),
  v1: messageOnly,
  graphql: { returns: 'UserPayload!', nested: false, render: async (call, i, ctx) => userPayload(ctx, await call(), i.userIdentifier) },
});

const userInvestor = { investorIdentifier: identifier('investor_identifier', { doc: 'Identifier of the investor.' }), userIdentifier };

export const addInvestorToUser = declare({
  solution: ESG,
  summary: 'Gives a user access to an investor.',
  input: userInvestor,
  service: 'identity',
  method: 'addInvestorToUser',
  request: (i) => ({ investorIdentifier: i.investorIdentifier, userIdentifier: i.userIdentifier }),
  v1: messageOnly,
  graphql: { returns: 'UserInvestorsPayload!', nested: false, order: ['userIdentifier', 'investorIdentifier'], render: async (call, i, ctx) => userInvestorsPayload(ctx, await call(), i.userIdentifier) },
});

export const removeInvestorFromUser = declare({
  solution: ESG,
  summary: "Withdraws a user's access to an investor.",
  input: userInvestor,
  service: 'identity',
  method: 'removeInvestorFromUser',
  request: (i) => ({ investorIdentifier: i.investorIdentifier, userIdentifier: i.userIdentifier }),
  v1: messageOnly,
  graphql: { returns: 'UserInvestorsPayload!', nested: false, order: ['userIdentifier', 'investorIdentifier'], render: async (call, i, ctx) => userInvestorsPayload(ctx, await call(), i.userIdentifier) },
});

export const generateEncryptionKey = declare({
  solution: ESG,
  summary: 'A fresh 256-bit key (64 hex characters) for encrypting PII at rest. The service never stores it: keep it safe.',
  input: {},
  service: 'identity',
  method: 'generateEncryptionKey',
  request: () => ({}),
  v1: (res) => ({ message: res.key }),
  graphql: {
    returns: 'GenerateEncryptionKeyPayload!',
    nested: false,
    render: async (call) => ({ encryptionKey: (await call()).key }),
  },
});

export const userOperations = [
  getUsers,
  addUser,
  removeUser,
  getGroups,
  addGroupToUser,
  removeGroupFromUser,
  getInvestorsOfUser,
  addInvestorToUser,
  removeInvestorFromUser,
  generateEncryptionKey,
];

import { UserRole, type User } from '@green-impact/proto/greenimpact/identity/v1/identity';
import { withInvestorDetails } from '../../composition/investor-details.js';
import { defineOperation, type OperationContext } from '../operation.js';
import { listed } from '../truncation.js';

/** /v1/call operations of spec §4.11 (users, groups, investor access) and generateEncryptionKey (§4.9). */

const ESG = 'SVC.ESG.Credits';
const NO_USERS = { message: 'No users are registered.' };

/** Parameter specs, exported so GraphQL validates its arguments by the same rules. */
export const userParams = {
  userIdentifier: { type: 'identifier', required: true },
  optionalUserIdentifier: { type: 'identifier' },
  key: { type: 'string', maxLength: 255 },
  /** The spec misspells decryption_key as depryption_key in one table; legacy clients may send either. */
  decryptionKey: { type: 'string', maxLength: 255, aliases: ['depryption_key'] },
  name: { type: 'string', maxLength: 255 },
  email: { type: 'email' },
  role: { type: 'enum', values: ['user', 'admin'] },
  group: { type: 'string', required: true, maxLength: 255 },
  investorIdentifier: { type: 'identifier', required: true },
} as const;

export const getUsersParams = {
  user_identifier: userParams.optionalUserIdentifier,
  decryption_key: userParams.decryptionKey,
} as const;

export const addUserParams = {
  user_identifier: { ...userParams.userIdentifier, missingMessage: 'User identifier is missing.' },
  user_first_name: userParams.name,
  user_last_name: userParams.name,
  user_email: userParams.email,
  user_role: userParams.role,
  encryption_key: userParams.key,
} as const;

export const userGroupParams = { user_identifier: userParams.userIdentifier, group: userParams.group } as const;

export const userInvestorParams = {
  investor_identifier: userParams.investorIdentifier,
  user_identifier: userParams.userIdentifier,
} as const;

const call = (ctx: OperationContext) => ({ caller: ctx.caller, requestId: ctx.requestId });

/** Spec §2.8 user row. Empty PII fields (never set) come out as null. */
export function userRow(user: User) {
  return {
    user_id: user.userId,
    user_identifier: user.userIdentifier,
    user_first_name: user.userFirstName || null,
    user_last_name: user.userLastName || null,
    user_email: user.userEmail || null,
    user_role: user.userRole === UserRole.USER_ROLE_ADMIN ? 'admin' : 'user',
    user_groups: user.userGroups.map((g) => ({ group_id: g.id, group: g.group })),
  };
}

export function toUserRole(role: 'user' | 'admin' | undefined): UserRole {
  if (role === 'admin') return UserRole.USER_ROLE_ADMIN;
  if (role === 'user') return UserRole.USER_ROLE_USER;
  return UserRole.USER_ROLE_UNSPECIFIED;
}

export const identityOperations = [
  defineOperation({
    solution: ESG,
    operation: 'getUsers',
    params: getUsersParams,
    async handler(p, ctx) {
      const res = await ctx.clients.identity.getUsers({ userIdentifier: p.user_identifier, decryptionKey: p.decryption_key }, call(ctx));
      return res.users.length === 0 ? NO_USERS : listed(ctx, res, res.users.map(userRow));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'addUser',
    params: addUserParams,
    async handler(p, ctx) {
      const { message } = await ctx.clients.identity.addUser(
        {
          userIdentifier: p.user_identifier,
          userFirstName: p.user_first_name,
          userLastName: p.user_last_name,
          userEmail: p.user_email,
          userRole: toUserRole(p.user_role),
          encryptionKey: p.encryption_key,
        },
        call(ctx),
      );
      return { message };
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'removeUser',
    params: { user_identifier: userParams.userIdentifier },
    async handler(p, ctx) {
      const { message } = await ctx.clients.identity.removeUser({ userIdentifier: p.user_identifier }, call(ctx));
      return { message };
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'getGroups',
    params: {},
    async handler(_p, ctx) {
      const { groups } = await ctx.clients.identity.getGroups({}, call(ctx));
      return groups.map((g) => ({ id: g.id, group: g.group }));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'addGroupToUser',
    params: userGroupParams,
    async handler(p, ctx) {
      const { message } = await ctx.clients.identity.addGroupToUser(
        { userIdentifier: p.user_identifier, group: p.group },
        call(ctx),
      );
      return { message };
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'removeGroupFromUser',
    params: userGroupParams,
    async handler(p, ctx) {
      const { message } = await ctx.clients.identity.removeGroupFromUser(
        { userIdentifier: p.user_identifier, group: p.group },
        call(ctx),
      );
      return { message };
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'getInvestorsOfUser',
    params: getUsersParams,
    async handler(p, ctx) {
      const res = await ctx.clients.identity.getInvestorsOfUser({ userIdentifier: p.user_identifier }, call(ctx));
      const users = listed(ctx, res, res.users);
      if (users.length === 0) return NO_USERS;
      return (await withInvestorDetails(users, { decryptionKey: p.decryption_key }, ctx)).map((u) => ({
        user_id: u.userId,
        user_identifier: u.userIdentifier,
        investors: u.investors.map((i) => ({
          investor_id: i.investorId,
          investor_identifier: i.investorIdentifier,
          investor_name: i.investorName,
        })),
      }));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'addInvestorToUser',
    params: userInvestorParams,
    async handler(p, ctx) {
      const { message } = await ctx.clients.identity.addInvestorToUser(
        { investorIdentifier: p.investor_identifier, userIdentifier: p.user_identifier },
        call(ctx),
      );
      return { message };
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'removeInvestorFromUser',
    params: userInvestorParams,
    async handler(p, ctx) {
      const { message } = await ctx.clients.identity.removeInvestorFromUser(
        { investorIdentifier: p.investor_identifier, userIdentifier: p.user_identifier },
        call(ctx),
      );
      return { message };
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'generateEncryptionKey',
    params: {},
    async handler(_p, ctx) {
      const { key } = await ctx.clients.identity.generateEncryptionKey({}, call(ctx));
      return { message: key };
    },
  }),
];

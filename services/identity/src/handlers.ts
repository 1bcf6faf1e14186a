import { IdentityServiceService, AccountRole, UserRole, type Account, type ApiKeyInfo, type User } from '@green-impact/proto/greenimpact/identity/v1/identity';
import { requireCaller } from '@green-impact/shared/caller';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import type { UnaryHandlers } from '@green-impact/shared/grpc/server';
import { generateEncryptionKey } from '@green-impact/shared/pii';
import type { AccountStore } from './accounts.js';
import type { UserStore, UserView } from './users.js';
import type { AccountRoleName, AccountRow, ApiKeyRow, UserRoleName } from './entities.js';
import { MSG } from './messages.js';

/** gRPC handlers: translate messages to store calls and back. No rules live here. */
export function identityHandlers(accounts: AccountStore, users: UserStore): UnaryHandlers<typeof IdentityServiceService> {
  return {
    async authenticate(req) {
      const { account, key } = await accounts.authenticate(req.apiKey);
      return { account: accountMsg(account), keyId: key.id };
    },
    async createAccount(req, ctx) {
      const created = await accounts.createAccount(requireCaller(ctx.caller), req.name, accountRoleName(req.role));
      return { account: accountMsg(created.account), apiKey: created.apiKey, key: keyMsg(created.key) };
    },
    async listAccounts(req, ctx) {
      const caller = requireCaller(ctx.caller);
      // No page asked for: every account (/v1/call's listAccounts).
      if (req.pageSize === undefined) return { accounts: (await accounts.listAccounts(caller)).map(accountMsg), nextPageToken: '' };
      const page = await accounts.pageAccounts(caller, { size: req.pageSize, token: req.pageToken });
      return { accounts: page.accounts.map(accountMsg), nextPageToken: page.nextPageToken, totalCount: page.totalCount };
    },
    async getAccount(req, ctx) {
      return { account: accountMsg(await accounts.getAccount(requireCaller(ctx.caller), req.accountId)) };
    },
    async issueApiKey(req, ctx) {
      const issued = await accounts.issueKey(requireCaller(ctx.caller), req.accountId);
      return { apiKey: issued.apiKey, key: keyMsg(issued.key) };
    },
    async rotateApiKey(req, ctx) {
      const r = await accounts.rotateKey(requireCaller(ctx.caller), req.accountId);
      return { apiKey: r.apiKey, key: keyMsg(r.key), revokedKeyIds: r.revokedKeyIds };
    },
    async revokeApiKey(req, ctx) {
      return { key: keyMsg(await accounts.revokeKey(requireCaller(ctx.caller), req.keyId)) };
    },
    async listApiKeys(req, ctx) {
      return { keys: (await accounts.listKeys(requireCaller(ctx.caller), req.accountId)).map(keyMsg) };
    },

    async getUsers(req, ctx) {
      const caller = requireCaller(ctx.caller);
      // No page asked for: the whole list up to MAX_LIST_ITEMS (/v1/call's getUsers); total_count says it was cut.
      if (req.pageSize === undefined) {
        const listed = await users.getUsers(caller, req.userIdentifier, req.decryptionKey);
        return { users: listed.users.map(userMsg), nextPageToken: '', ...(listed.totalCount !== undefined ? { totalCount: listed.totalCount } : {}) };
      }
      const page = await users.pageUsers(caller, req.userIdentifier, req.decryptionKey, { size: req.pageSize, token: req.pageToken });
      return { users: page.users.map(userMsg), nextPageToken: page.nextPageToken, totalCount: page.totalCount };
    },
    async addUser(req, ctx) {
      const r = await users.addUser(requireCaller(ctx.caller), {
        userIdentifier: req.userIdentifier,
        firstName: req.userFirstName,
        lastName: req.userLastName,
        email: req.userEmail,
        role: userRoleName(req.userRole),
        encryptionKey: req.encryptionKey,
      });
      return { message: r.created ? MSG.userAdded : MSG.userUpdated, id: r.id };
    },
    async removeUser(req, ctx) {
      const id = await users.removeUser(requireCaller(ctx.caller), req.userIdentifier);
      return { message: MSG.userRemoved, id };
    },
    async getGroups(_req, ctx) {
      requireCaller(ctx.caller);
      return { groups: (await users.listGroups()).map((g) => ({ id: g.id, group: g.name })) };
    },
    async addGroupToUser(req, ctx) {
      const id = await users.addGroup(requireCaller(ctx.caller), req.userIdentifier, req.group);
      return { message: MSG.groupAdded, id };
    },
    async removeGroupFromUser(req, ctx) {
      const id = await users.removeGroup(requireCaller(ctx.caller), req.userIdentifier, req.group);
      return { message: MSG.groupRemoved, id };
    },
    async getInvestorsOfUser(req, ctx) {
      const { users: list, totalCount } = await users.investorsOfUsers(requireCaller(ctx.caller), req.userIdentifier);
      return {
        ...(totalCount !== undefined ? { totalCount } : {}),
        users: list.map((u) => ({ userId: u.id, userIdentifier: u.userIdentifier, investorIdentifiers: u.investorIdentifiers })),
      };
    },
    async addInvestorToUser(req, ctx) {
      const id = await users.addInvestor(requireCaller(ctx.caller), req.userIdentifier, req.investorIdentifier);
      return { message: MSG.investorAdded, id };
    },
    async removeInvestorFromUser(req, ctx) {
      const id = await users.removeInvestor(requireCaller(ctx.caller), req.userIdentifier, req.investorIdentifier);
      return { message: MSG.investorRemoved, id };
    },
    async generateEncryptionKey(_req, ctx) {
      requireCaller(ctx.caller);
      return { key: generateEncryptionKey() };
    },
  };
}

function accountRoleName(role: AccountRole): AccountRoleName {
  if (role === AccountRole.ACCOUNT_ROLE_OPERATOR) return 'operator';
  if (role === AccountRole.ACCOUNT_ROLE_USER) return 'user';
  throw new InvalidArgumentError('role must be operator or user.');
}

function userRoleName(role: UserRole): UserRoleName | undefined {
  if (role === UserRole.USER_ROLE_ADMIN) return 'admin';
  if (role === UserRole.USER_ROLE_USER) return 'user';
  if (role === UserRole.USER_ROLE_UNSPECIFIED) return undefined;
  throw new InvalidArgumentError("user_role must be 'user' or 'admin'.");
}

function accountMsg(a: AccountRow): Account {
  return {
    id: a.id,
    name: a.name,
    role: a.role === 'operator' ? AccountRole.ACCOUNT_ROLE_OPERATOR : AccountRole.ACCOUNT_ROLE_USER,
    createdAt: a.createdAt.toISOString(),
  };
}

function keyMsg(k: ApiKeyRow): ApiKeyInfo {
  return {
    id: k.id,
    accountId: k.accountId,
    hint: k.hint,
    createdAt: k.createdAt.toISOString(),
    ...(k.revokedAt ? { revokedAt: k.revokedAt.toISOString() } : {}),
    ...(k.lastUsedAt ? { lastUsedAt: k.lastUsedAt.toISOString() } : {}),
  };
}

function userMsg(u: UserView): User {
  return {
    userId: u.id,
    userIdentifier: u.userIdentifier,
    userFirstName: u.firstName,
    userLastName: u.lastName,
    userEmail: u.email,
    userRole: u.role === 'admin' ? UserRole.USER_ROLE_ADMIN : UserRole.USER_ROLE_USER,
    userGroups: u.groups.map((g) => ({ id: g.id, group: g.name })),
    encrypted: u.encrypted,
    masked: u.masked,
  };
}

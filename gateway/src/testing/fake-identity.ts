import { randomBytes } from 'node:crypto';
import {
  AccountRole,
  IdentityServiceService,
  UserRole,
  type Account,
  type ApiKeyInfo,
  type User,
} from '@green-impact/proto/greenimpact/identity/v1/identity';
import type { Caller } from '@green-impact/shared/caller';
import {
  AlreadyExistsError,
  InvalidArgumentError,
  NotAuthorizedError,
  NotFoundError,
  UnauthenticatedError,
} from '@green-impact/shared/errors';
import { implement, type CallContext } from '@green-impact/shared/grpc/server';
import { serveFake } from './fake-server.js';
import { createLogger } from '@green-impact/shared/logger';
import { fakeOrderedPage, fakeServicePage } from './fake-paging.js';

/** What the identity service answers for PII it cannot open (services/shared/src/pii.ts). */
const MASKED = '********';

type StoredUser = User & { investors: string[]; key: string | undefined };

/**
 * A small in-memory IdentityService served over real gRPC, for the gateway's own tests. It is not the
 * identity service: texts and rules are only as faithful as these tests need. Keys:
 * `op-key` (operator), `user-key` (user "acme"), `broken-key` (its getGroups fails unexpectedly),
 * `slow-key` (its getGroups never answers: it waits until the gateway cancels the call),
 * `revoked-key` (refused as revoked); anything else is refused as unknown.
 */
export interface FakeIdentity {
  address: string;
  /** Every call received: method name and the caller the gateway sent (and the request, for the listings). */
  calls: { method: string; caller: Caller | undefined; requestId: string; request?: unknown }[];
  /** The calls of `slow-key` that the gateway cancelled, seen from here. */
  cancelled: { method: string; requestId: string }[];
  stop(): Promise<void>;
}

const GROUPS = ['bankers', 'investors', 'capitalists', 'issuers', 'agents', 'exchanges', 'regulators'];
const now = '2024-01-01T00:00:00.000Z';

export async function startFakeIdentity(): Promise<FakeIdentity> {
  const log = createLogger('fake-identity', { level: 'silent' });
  const accounts = new Map<string, Account>([
    ['acc-op', { id: 'acc-op', name: 'Operator', role: AccountRole.ACCOUNT_ROLE_OPERATOR, createdAt: now }],
    ['acc-acme', { id: 'acc-acme', name: 'Acme', role: AccountRole.ACCOUNT_ROLE_USER, createdAt: now }],
    ['acc-broken', { id: 'acc-broken', name: 'Broken', role: AccountRole.ACCOUNT_ROLE_USER, createdAt: now }],
    ['acc-slow', { id: 'acc-slow', name: 'Slow', role: AccountRole.ACCOUNT_ROLE_USER, createdAt: now }],
  ]);
  const keys = new Map<string, { info: ApiKeyInfo; secret: string }>();
  const addKey = (accountId: string, secret = `k-${randomBytes(8).toString('hex')}`) => {
    const info: ApiKeyInfo = { id: `key-${keys.size + 1}`, accountId, hint: secret.slice(-4), createdAt: now };
    keys.set(info.id, { info, secret });
    return { apiKey: secret, key: info };
  };
  addKey('acc-op', 'op-key');
  addKey('acc-acme', 'user-key');
  addKey('acc-broken', 'broken-key');
  addKey('acc-slow', 'slow-key');
  /** Per account; `key` is the encryptionKey the PII was stored with (none: stored plain). */
  const users = new Map<string, Map<string, StoredUser>>();
  const usersOf = (c: Caller) => users.get(c.accountId) ?? users.set(c.accountId, new Map()).get(c.accountId)!;
  const calls: FakeIdentity['calls'] = [];
  const cancelled: FakeIdentity['cancelled'] = [];
  const stall = (method: string, ctx: CallContext) =>
    new Promise<never>((_resolve, reject) => {
      ctx.signal.addEventListener('abort', () => {
        cancelled.push({ method, requestId: ctx.requestId });
        reject(new Error('cancelled'));
      });
    });

  const who = (method: string, ctx: CallContext, request?: unknown): Caller => {
    calls.push({ method, caller: ctx.caller, requestId: ctx.requestId, ...(request === undefined ? {} : { request }) });
    if (!ctx.caller) throw new UnauthenticatedError();
    return ctx.caller;
  };
  const userOf = (c: Caller, identifier: string) => {
    const u = usersOf(c).get(identifier);
    if (!u) throw new NotFoundError('No such user.');
    return u;
  };
  /** The user as getUsers answers it: names and e-mail masked unless `decryptionKey` is the key they were stored with. */
  const plain = ({ investors: _investors, key, ...u }: StoredUser, decryptionKey?: string): User => {
    const masked = key !== undefined && key !== decryptionKey;
    const mask = (v: string) => (masked && v !== '' ? MASKED : v);
    return { ...u, userFirstName: mask(u.userFirstName), userLastName: mask(u.userLastName), userEmail: mask(u.userEmail), masked };
  };

  const implementation = implement('greenimpact.identity.v1.IdentityService', IdentityServiceService, {
    async authenticate({ apiKey }, ctx) {
      calls.push({ method: 'authenticate', caller: ctx.caller, requestId: ctx.requestId });
      if (apiKey === 'revoked-key') throw new UnauthenticatedError('The API key is not valid.');
      const found = [...keys.values()].find((k) => k.secret === apiKey && !k.info.revokedAt);
      if (!found) throw new UnauthenticatedError('The API key is not valid.');
      return { account: accounts.get(found.info.accountId)!, keyId: found.info.id };
    },
    async getGroups(_req, ctx) {
      const c = who('getGroups', ctx);
      if (c.accountId === 'acc-broken') throw new Error('relation "groups" does not exist at db.internal:5432');
      if (c.accountId === 'acc-slow') return stall('getGroups', ctx);
      return { groups: GROUPS.map((group, i) => ({ id: i + 1, group })) };
    },
    async getUsers(req, ctx) {
      const all = [...usersOf(who('getUsers', ctx, req)).values()].map((u) => plain(u, req.decryptionKey));
      const list = req.userIdentifier ? all.filter((u) => u.userIdentifier === req.userIdentifier) : all;
      if (req.pageSize === undefined) return { users: list, nextPageToken: '' };
      const page = fakeServicePage(list, req, (u) => u.userId);
      return { users: page.items, nextPageToken: page.nextPageToken, totalCount: page.totalCount };
    },
    async addUser(req, ctx) {
      const mine = usersOf(who('addUser', ctx));
      const existing = mine.get(req.userIdentifier);
      const user = {
        userId: existing?.userId ?? mine.size + 1,
        userIdentifier: req.userIdentifier,
        userFirstName: req.userFirstName ?? existing?.userFirstName ?? '',
        userLastName: req.userLastName ?? existing?.userLastName ?? '',
        userEmail: req.userEmail ?? existing?.userEmail ?? '',
        userRole: req.userRole || existing?.userRole || UserRole.USER_ROLE_USER,
        userGroups: existing?.userGroups ?? [],
        encrypted: req.encryptionKey !== undefined,
        masked: false,
        investors: existing?.investors ?? [],
        key: req.encryptionKey,
      };
      mine.set(req.userIdentifier, user);
      return { message: existing ? 'User updated.' : 'User added.', id: user.userId };
    },
    async removeUser(req, ctx) {
      const c = who('removeUser', ctx);
      userOf(c, req.userIdentifier);
      usersOf(c).delete(req.userIdentifier);
      return { message: 'User removed.' };
    },
    async addGroupToUser(req, ctx) {
      const u = userOf(who('addGroupToUser', ctx), req.userIdentifier);
      const id = GROUPS.indexOf(req.group) + 1;
      if (id === 0) throw new InvalidArgumentError(`No such group. Groups are: ${GROUPS.join(', ')}.`);
      if (u.userGroups.some((g) => g.group === req.group)) throw new AlreadyExistsError('Group is already connected to user.');
      u.userGroups.push({ id, group: req.group });
      return { message: 'Group added to user.' };
    },
    async removeGroupFromUser(req, ctx) {
      const u = userOf(who('removeGroupFromUser', ctx), req.userIdentifier);
      u.userGroups = u.userGroups.filter((g) => g.group !== req.group);
      return { message: 'Group removed from user.' };
    },
    async getInvestorsOfUser(req, ctx) {
      const c = who('getInvestorsOfUser', ctx);
      if (req.userIdentifier) userOf(c, req.userIdentifier);
      const all = [...usersOf(c).values()];
      return {
        users: all
          .filter((u) => !req.userIdentifier || u.userIdentifier === req.userIdentifier)
          .map((u) => ({ userId: u.userId, userIdentifier: u.userIdentifier, investorIdentifiers: u.investors })),
      };
    },
    async addInvestorToUser(req, ctx) {
      const u = userOf(who('addInvestorToUser', ctx), req.userIdentifier);
      if (u.investors.includes(req.investorIdentifier)) throw new AlreadyExistsError('Investor is already connected to user.');
      u.investors.push(req.investorIdentifier);
      return { message: 'Investor added to user.' };
    },
    async removeInvestorFromUser(req, ctx) {
      const u = userOf(who('removeInvestorFromUser', ctx), req.userIdentifier);
      if (!u.investors.includes(req.investorIdentifier)) throw new NotFoundError('No such investor.');
      u.investors = u.investors.filter((i) => i !== req.investorIdentifier);
      return { message: 'Investor removed from user.' };
    },
    async generateEncryptionKey(_req, ctx) {
      who('generateEncryptionKey', ctx);
      return { key: randomBytes(32).toString('hex') };
    },
    async listAccounts(req, ctx) {
      if (who('listAccounts', ctx, req).role !== 'operator') throw new NotAuthorizedError();
      // Creation order (the map's insertion order; the fake's createdAt is one instant).
      if (req.pageSize === undefined) return { accounts: [...accounts.values()], nextPageToken: '' };
      const page = fakeOrderedPage([...accounts.values()], req, (a) => a.id, /^[0-9a-z]+(-[0-9a-z]+)+$/);
      return { accounts: page.items, nextPageToken: page.nextPageToken, totalCount: page.totalCount };
    },
    async createAccount(req, ctx) {
      if (who('createAccount', ctx).role !== 'operator') throw new NotAuthorizedError();
      if (req.name === '') throw new InvalidArgumentError('name must be 1 to 255 characters.');
      const account: Account = { id: `acc-${accounts.size + 1}`, name: req.name, role: req.role, createdAt: now };
      accounts.set(account.id, account);
      return { account, ...addKey(account.id) };
    },
    async issueApiKey(req, ctx) {
      const c = who('issueApiKey', ctx);
      const accountId = req.accountId ?? c.accountId;
      if (accountId !== c.accountId && c.role !== 'operator') throw new NotAuthorizedError();
      return addKey(accountId);
    },
    async rotateApiKey(req, ctx) {
      const c = who('rotateApiKey', ctx);
      const accountId = req.accountId ?? c.accountId;
      if (accountId !== c.accountId && c.role !== 'operator') throw new NotAuthorizedError();
      const revokedKeyIds = [...keys.values()]
        .filter((k) => k.info.accountId === accountId && !k.info.revokedAt)
        .map((k) => ((k.info.revokedAt = now), k.info.id));
      return { ...addKey(accountId), revokedKeyIds };
    },
    async revokeApiKey(req, ctx) {
      const c = who('revokeApiKey', ctx);
      const k = keys.get(req.keyId);
      if (!k) throw new NotFoundError('No such API key.');
      if (k.info.accountId !== c.accountId && c.role !== 'operator') throw new NotAuthorizedError();
      k.info.revokedAt = now;
      return { key: k.info };
    },
    async listApiKeys(req, ctx) {
      const c = who('listApiKeys', ctx);
      const accountId = req.accountId ?? c.accountId;
      if (accountId !== c.accountId && c.role !== 'operator') throw new NotAuthorizedError();
      return { keys: [...keys.values()].filter((k) => k.info.accountId === accountId).map((k) => k.info) };
    },
  }, log);

  const started = await serveFake({ name: 'greenimpact.identity.v1.IdentityService', definition: IdentityServiceService, implementation, protoFile: 'identity' }, log);
  return { address: started.address, calls, cancelled, stop: () => started.shutdown(1_000) };
}

import { In, MoreThan, type DataSource, type EntityManager } from 'typeorm';
import { AlreadyExistsError, InvalidArgumentError, NotFoundError } from '@green-impact/shared/errors';
import type { Caller } from '@green-impact/shared/caller';
import { DEFAULT_LISTING_LIMITS } from '@green-impact/shared/config';
import {
  decryptField,
  encryptField,
  fingerprintMatches,
  keyFingerprint,
  MASKED,
  parseEncryptionKey,
  WRONG_KEY_MESSAGE,
} from '@green-impact/shared/pii';
import {
  GroupEntity,
  UserEntity,
  UserGroupEntity,
  UserInvestorEntity,
  type GroupRow,
  type UserRoleName,
  type UserRow,
} from './entities.js';
import { cappedListing, decodePageToken, pageOf, pageSize, type PageRequest } from '@green-impact/shared/paging';
import { SCHEMA } from './entities.js';
import { MSG } from './messages.js';
import { checkEmail, checkLength, checkUserIdentifier } from './validation.js';

const PII_FIELDS = ['firstName', 'lastName', 'email'] as const;
type PiiField = (typeof PII_FIELDS)[number];

export interface UserView {
  id: number;
  userIdentifier: string;
  firstName: string;
  lastName: string;
  email: string;
  role: UserRoleName;
  groups: GroupRow[];
  encrypted: boolean;
  masked: boolean;
}

export interface AddUserInput {
  userIdentifier: string;
  firstName?: string | undefined;
  lastName?: string | undefined;
  email?: string | undefined;
  role?: UserRoleName | undefined;
  encryptionKey?: string | undefined;
}

/** The spec's users (§4.11): always private to their account; PII optionally encrypted at rest. */
export class UserStore {
  constructor(
    private readonly ds: DataSource,
    /** MAX_LIST_ITEMS: the most users an unpaged getUsers answers. */
    private readonly maxListItems = DEFAULT_LISTING_LIMITS.maxListItems,
  ) {}

  async listGroups(m: EntityManager = this.ds.manager): Promise<GroupRow[]> {
    return m.getRepository(GroupEntity).find({ order: { id: 'ASC' } });
  }

  /**
   * The account's users (or the one named) in id order, at most MAX_LIST_ITEMS; `totalCount` is set only
   * when the list was cut, and the key is then checked against every user of the account, as a page's is.
   */
  async getUsers(caller: Caller, userIdentifier?: string, decryptionKey?: string): Promise<{ users: UserView[]; totalCount: number | undefined }> {
    checkLength('user_identifier', userIdentifier);
    const key = decryptionKey ? parseEncryptionKey(decryptionKey, 'decryption_key') : undefined;
    const cap = this.maxListItems;
    const users = await this.ds.getRepository(UserEntity).find({
      where: { accountId: caller.accountId, ...(userIdentifier !== undefined ? { userIdentifier } : {}) },
      order: { id: 'ASC' },
      take: cap,
    });
    if (userIdentifier !== undefined && users.length === 0) throw new NotFoundError(MSG.noSuchUser);
    let totalCount: number | undefined;
    if (users.length < cap) requireKeyOpensSome(key, users.flatMap((u) => (u.keyFingerprint ? [u.keyFingerprint] : [])));
    else {
      const summary = await this.summary(caller, userIdentifier);
      requireKeyOpensSome(key, summary.fingerprints);
      if (summary.count > users.length) totalCount = summary.count;
    }
    const groups = await this.groupsOf(users.map((u) => u.id));
    return { users: users.map((u) => toView(u, groups.get(u.id) ?? [], key)), totalCount };
  }

  /** How many users match, and the fingerprints of the keys their PII is sealed with. */
  private async summary(caller: Caller, userIdentifier: string | undefined): Promise<{ count: number; fingerprints: string[] }> {
    const [summary]: { count: string | number; fingerprints: string[] | null }[] = await this.ds.query(
      `SELECT count(*) AS count, array_agg(DISTINCT key_fingerprint) FILTER (WHERE key_fingerprint IS NOT NULL) AS fingerprints
       FROM ${SCHEMA}.users WHERE account_id = $1 AND ($2::varchar IS NULL OR user_identifier = $2)`,
      [caller.accountId, userIdentifier ?? null],
    );
    return { count: Number(summary?.count ?? 0), fingerprints: summary?.fingerprints ?? [] };
  }

  /**
   * One page of getUsers, in id order after the token's user (keyset: LIMIT size + 1 rows), with the
   * number of matching users; the filter, NOT_FOUND and the key check are the whole listing's (one aggregate).
   */
  async pageUsers(caller: Caller, userIdentifier: string | undefined, decryptionKey: string | undefined, page: PageRequest): Promise<{ users: UserView[]; nextPageToken: string; totalCount: number }> {
    checkLength('user_identifier', userIdentifier);
    const size = pageSize(page.size);
    const after = decodePageToken(page.token);
    const key = decryptionKey ? parseEncryptionKey(decryptionKey, 'decryption_key') : undefined;
    const filter = { accountId: caller.accountId, ...(userIdentifier !== undefined ? { userIdentifier } : {}) };
    const summary = await this.summary(caller, userIdentifier);
    const totalCount = summary.count;
    if (userIdentifier !== undefined && totalCount === 0) throw new NotFoundError(MSG.noSuchUser);
    requireKeyOpensSome(key, summary.fingerprints);
    // Ids are int4: a token past the largest one leaves nothing after it.
    const rows = await this.ds.getRepository(UserEntity).find({
      where: { ...filter, ...(after ? { id: MoreThan(Math.min(after.id, 2 ** 31 - 1)) } : {}) },
      order: { id: 'ASC' },
      take: size + 1,
    });
    const { items, nextPageToken } = pageOf(rows, size, after, (u) => u.id);
    const groups = await this.groupsOf(items.map((u) => u.id));
    return { users: items.map((u) => toView(u, groups.get(u.id) ?? [], key)), nextPageToken, totalCount };
  }

  async addUser(caller: Caller, input: AddUserInput): Promise<{ id: number; created: boolean }> {
    checkUserIdentifier(input.userIdentifier);
    checkLength('user_first_name', input.firstName);
    checkLength('user_last_name', input.lastName);
    checkEmail('user_email', input.email);
    const key = input.encryptionKey ? parseEncryptionKey(input.encryptionKey) : undefined;
    return this.ds.transaction(async (m) => {
      const repo = m.getRepository(UserEntity);
      const existing = await repo.findOne({
        where: { accountId: caller.accountId, userIdentifier: input.userIdentifier },
        lock: { mode: 'pessimistic_write' },
      });
      const given: Partial<Record<PiiField, string>> = {};
      for (const f of PII_FIELDS) if (input[f] !== undefined) given[f] = input[f];

      if (!existing) {
        const row = repo.create({
          accountId: caller.accountId,
          userIdentifier: input.userIdentifier,
          role: input.role ?? 'user',
          keyFingerprint: key ? keyFingerprint(key) : null,
          ...sealAll(given, key, input.userIdentifier),
        });
        const saved = await repo.save(row);
        return { id: saved.id, created: true };
      }

      const plain = openExisting(existing, key, Object.keys(given).length);
      const merged = { ...plain, ...given };
      await repo.update(
        { id: existing.id },
        {
          role: input.role ?? existing.role,
          keyFingerprint: key ? keyFingerprint(key) : null,
          ...sealAll(merged, key, input.userIdentifier),
        },
      );
      return { id: existing.id, created: false };
    });
  }

  async removeUser(caller: Caller, userIdentifier: string): Promise<number> {
    checkLength('user_identifier', userIdentifier);
    const user = await this.requireUser(this.ds.manager, caller, userIdentifier);
    await this.ds.getRepository(UserEntity).delete({ id: user.id });
    return user.id;
  }

  async addGroup(caller: Caller, userIdentifier: string, group: string): Promise<number> {
    checkLength('user_identifier', userIdentifier);
    checkLength('group', group);
    return this.ds.transaction(async (m) => {
      const user = await this.requireUser(m, caller, userIdentifier);
      const g = await this.requireGroup(m, group);
      const link = m.getRepository(UserGroupEntity);
      if (await link.existsBy({ userId: user.id, groupId: g.id })) throw new AlreadyExistsError(MSG.groupAlreadyConnected);
      await link.insert({ userId: user.id, groupId: g.id });
      return user.id;
    });
  }

  async removeGroup(caller: Caller, userIdentifier: string, group: string): Promise<number> {
    checkLength('user_identifier', userIdentifier);
    checkLength('group', group);
    return this.ds.transaction(async (m) => {
      const user = await this.requireUser(m, caller, userIdentifier);
      const g = await this.requireGroup(m, group);
      const result = await m.getRepository(UserGroupEntity).delete({ userId: user.id, groupId: g.id });
      if (!result.affected) throw new NotFoundError(MSG.groupNotConnected);
      return user.id;
    });
  }

  /**
   * The investors each user (or the one named) may access, users in id order and at most MAX_LIST_ITEMS
   * of them (`totalCount` set only when cut). A user's own investors are never cut: the gateway narrows
   * getPositions and getPortfolios to them, and a cut there would silently hide positions.
   */
  async investorsOfUsers(
    caller: Caller,
    userIdentifier?: string,
  ): Promise<{ users: { id: number; userIdentifier: string; investorIdentifiers: string[] }[]; totalCount: number | undefined }> {
    checkLength('user_identifier', userIdentifier);
    const users = await this.ds.getRepository(UserEntity).find({
      where: { accountId: caller.accountId, ...(userIdentifier !== undefined ? { userIdentifier } : {}) },
      order: { id: 'ASC' },
      take: this.maxListItems,
    });
    if (userIdentifier !== undefined && users.length === 0) throw new NotFoundError(MSG.noSuchUser);
    const links = users.length
      ? await this.ds.getRepository(UserInvestorEntity).find({
          where: { userId: In(users.map((u) => u.id)) },
          order: { id: 'ASC' },
        })
      : [];
    const listed = users.map((u) => ({
      id: u.id,
      userIdentifier: u.userIdentifier,
      investorIdentifiers: links.filter((l) => l.userId === u.id).map((l) => l.investorIdentifier),
    }));
    const { totalCount } = await cappedListing(users, this.maxListItems, async () => (await this.summary(caller, userIdentifier)).count);
    return { users: listed, totalCount };
  }

  async addInvestor(caller: Caller, userIdentifier: string, investorIdentifier: string): Promise<number> {
    checkLength('user_identifier', userIdentifier);
    checkLength('investor_identifier', investorIdentifier);
    return this.ds.transaction(async (m) => {
      const user = await this.requireUser(m, caller, userIdentifier);
      const repo = m.getRepository(UserInvestorEntity);
      if (await repo.existsBy({ userId: user.id, investorIdentifier })) throw new AlreadyExistsError(MSG.investorAlreadyConnected);
      await repo.insert({ userId: user.id, investorIdentifier });
      return user.id;
    });
  }

  async removeInvestor(caller: Caller, userIdentifier: string, investorIdentifier: string): Promise<number> {
    checkLength('user_identifier', userIdentifier);
    checkLength('investor_identifier', investorIdentifier);
    return this.ds.transaction(async (m) => {
      const user = await this.requireUser(m, caller, userIdentifier);
      const result = await m.getRepository(UserInvestorEntity).delete({ userId: user.id, investorIdentifier });
      if (!result.affected) throw new NotFoundError(MSG.noSuchInvestor);
      return user.id;
    });
  }

  private async requireUser(m: EntityManager, caller: Caller, userIdentifier: string): Promise<UserRow> {
    const user = await m.getRepository(UserEntity).findOneBy({ accountId: caller.accountId, userIdentifier });
    if (!user) throw new NotFoundError(MSG.noSuchUser);
    return user;
  }

  private async requireGroup(m: EntityManager, group: string): Promise<GroupRow> {
    const g = await m.getRepository(GroupEntity).findOneBy({ name: group.trim().toLowerCase() });
    if (!g) {
      const names = (await this.listGroups(m)).map((x) => x.name).join(', ');
      throw new InvalidArgumentError(`No such group. Groups are: ${names}.`);
    }
    return g;
  }

  private async groupsOf(userIds: number[]): Promise<Map<number, GroupRow[]>> {
    const result = new Map<number, GroupRow[]>();
    if (userIds.length === 0) return result;
    const links = await this.ds.getRepository(UserGroupEntity).findBy({ userId: In(userIds) });
    const groups = new Map((await this.listGroups()).map((g) => [g.id, g]));
    for (const l of links.sort((a, b) => a.groupId - b.groupId)) {
      const list = result.get(l.userId) ?? [];
      list.push(groups.get(l.groupId)!);
      result.set(l.userId, list);
    }
    return result;
  }
}

/** A key that opens none of the encrypted records is a mistake worth saying, not a silent mask. */
function requireKeyOpensSome(key: Buffer | undefined, fingerprints: string[]): void {
  if (key && fingerprints.length > 0 && !fingerprints.some((f) => fingerprintMatches(key, f))) {
    throw new InvalidArgumentError(WRONG_KEY_MESSAGE);
  }
}

/** AAD binds each ciphertext to its user and field. */
function aad(userIdentifier: string, field: PiiField): string {
  return `identity.users/${userIdentifier}/${field}`;
}

function sealAll(values: Partial<Record<PiiField, string>>, key: Buffer | undefined, userIdentifier: string): Record<PiiField, string | null> {
  const out = {} as Record<PiiField, string | null>;
  for (const f of PII_FIELDS) {
    const v = values[f];
    out[f] = v === undefined || v === null ? null : key ? encryptField(v, key, aad(userIdentifier, f)) : v;
  }
  return out;
}

/**
 * The existing PII in clear, for an update that keeps some fields. Encrypted data can only be kept with
 * the key it was sealed with; an update that replaces every field needs no key.
 */
function openExisting(row: UserRow, key: Buffer | undefined, givenCount: number): Partial<Record<PiiField, string>> {
  if (!row.keyFingerprint) {
    const plain: Partial<Record<PiiField, string>> = {};
    for (const f of PII_FIELDS) if (row[f] !== null) plain[f] = row[f]!;
    return plain;
  }
  if (givenCount === PII_FIELDS.length) return {};
  if (!key || !fingerprintMatches(key, row.keyFingerprint)) throw new InvalidArgumentError(MSG.encryptedNeedsKey);
  const plain: Partial<Record<PiiField, string>> = {};
  for (const f of PII_FIELDS) if (row[f] !== null) plain[f] = decryptField(row[f]!, key, aad(row.userIdentifier, f));
  return plain;
}

function toView(u: UserRow, groups: GroupRow[], key: Buffer | undefined): UserView {
  const encrypted = u.keyFingerprint !== null;
  const canOpen = encrypted && key !== undefined && fingerprintMatches(key, u.keyFingerprint!);
  const read = (f: PiiField): string => {
    const v = u[f];
    if (v === null) return '';
    if (!encrypted) return v;
    return canOpen ? decryptField(v, key!, aad(u.userIdentifier, f)) : MASKED;
  };
  return {
    id: u.id,
    userIdentifier: u.userIdentifier,
    firstName: read('firstName'),
    lastName: read('lastName'),
    email: read('email'),
    role: u.role,
    groups,
    encrypted,
    masked: encrypted && !canOpen,
  };
}

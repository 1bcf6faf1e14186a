import { randomUUID } from 'node:crypto';
import { In, IsNull, type DataSource, type EntityManager } from 'typeorm';
import { InvalidArgumentError, NotFoundError, ResourceExhaustedError, UnauthenticatedError } from '@green-impact/shared/errors';
import { requireOperator, type Caller } from '@green-impact/shared/caller';
import { decodeTextPageToken, pageOf, pageSize, type PageRequest } from '@green-impact/shared/paging';
import { AccountEntity, ApiKeyEntity, SCHEMA, type AccountRoleName, type AccountRow, type ApiKeyRow } from './entities.js';
import type { IdentityEvent } from '@green-impact/shared/bus/identity-events';
import { apiKeyMatches, generateApiKey, hashApiKey, keyHint } from './api-keys.js';
import { accountName, checkLength } from './validation.js';

const LAST_USED_RESOLUTION_MS = 60_000;
/** Account ids as the service issues them (randomUUID: lower-case). */
const ACCOUNT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Told of every committed change that a cached authentication could still hold (identity-events.ts). */
export type IdentityEventSink = (event: IdentityEvent) => Promise<void>;

export interface IssuedKey {
  apiKey: string;
  key: ApiKeyRow;
}

/** Accounts of the service and their API keys. */
export class AccountStore {
  constructor(
    private readonly ds: DataSource,
    private readonly changed: IdentityEventSink = async () => undefined,
    private readonly maxActiveKeys = 20,
  ) {}

  async authenticate(apiKey: string): Promise<{ account: AccountRow; key: ApiKeyRow }> {
    if (apiKey === '') throw new UnauthenticatedError();
    const key = await this.ds.getRepository(ApiKeyEntity).findOneBy({ keyHash: hashApiKey(apiKey) });
    if (!key || !apiKeyMatches(apiKey, key.keyHash) || key.revokedAt) {
      throw new UnauthenticatedError('The API key is not valid.');
    }
    const account = await this.ds.getRepository(AccountEntity).findOneByOrFail({ id: key.accountId });
    const now = new Date();
    // Recording use on every request would turn each read into a write; minute resolution is enough.
    if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
      await this.ds.getRepository(ApiKeyEntity).update({ id: key.id }, { lastUsedAt: now });
    }
    return { account, key };
  }

  /** Creates the first operator account from BOOTSTRAP_API_KEY, once, when no account exists yet. */
  async bootstrap(apiKey: string): Promise<AccountRow | undefined> {
    return this.ds.transaction(async (m) => {
      // Serialize concurrent starts of several replicas.
      await m.query(`LOCK TABLE identity.accounts IN EXCLUSIVE MODE`);
      if ((await m.getRepository(AccountEntity).count()) > 0) return undefined;
      const account = await this.insertAccount(m, 'bootstrap operator', 'operator');
      await this.insertKey(m, account.id, apiKey);
      return account;
    });
  }

  async createAccount(caller: Caller, name: string, role: AccountRoleName): Promise<{ account: AccountRow } & IssuedKey> {
    requireOperator(caller);
    const trimmed = accountName(name);
    return this.ds.transaction(async (m) => {
      const account = await this.insertAccount(m, trimmed, role);
      const issued = await this.insertKey(m, account.id, generateApiKey());
      return { account, ...issued };
    });
  }

  async listAccounts(caller: Caller): Promise<AccountRow[]> {
    requireOperator(caller);
    return this.ds.getRepository(AccountEntity).find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** One account by id: a primary-key read (a bearer token's account, auth.ts in the gateway). */
  async getAccount(caller: Caller, id: string): Promise<AccountRow> {
    requireOperator(caller);
    // Anything but an id this service issues names no account: not a query.
    const account = ACCOUNT_ID.test(id) ? await this.ds.getRepository(AccountEntity).findOneBy({ id }) : null;
    if (!account) throw new NotFoundError(`No account ${JSON.stringify(id.slice(0, 64))}.`);
    return account;
  }

  /**
   * One page of listAccounts, in its order (created_at, then id) after the token's account: keyset on
   * that pair, compared in SQL at the database's precision, LIMIT size + 1 rows; with the number of accounts.
   */
  async pageAccounts(caller: Caller, page: PageRequest): Promise<{ accounts: AccountRow[]; nextPageToken: string; totalCount: number }> {
    requireOperator(caller);
    const size = pageSize(page.size);
    const after = decodeTextPageToken(page.token, ACCOUNT_ID);
    const repo = this.ds.getRepository(AccountEntity);
    // Accounts are never removed, so a token naming none is not one of this listing's.
    if (after && !(await repo.existsBy({ id: after.id }))) throw new InvalidArgumentError('page_token must be a next_page_token of this listing.');
    const totalCount = await repo.count();
    const query = repo.createQueryBuilder('a').orderBy('a.createdAt', 'ASC').addOrderBy('a.id', 'ASC').limit(size + 1);
    if (after) query.where(`(a.created_at, a.id) > (SELECT s.created_at, s.id FROM ${SCHEMA}.accounts s WHERE s.id = :after)`, { after: after.id });
    const { items, nextPageToken } = pageOf(await query.getMany(), size, after, (a) => a.id);
    return { accounts: items, nextPageToken, totalCount };
  }

  async issueKey(caller: Caller, accountId: string | undefined): Promise<IssuedKey> {
    const target = await this.targetAccount(caller, accountId);
    return this.ds.transaction(async (m) => {
      // The account's row locked: concurrent issues for one account are counted one after the other.
      await m.getRepository(AccountEntity).findOne({ where: { id: target }, lock: { mode: 'pessimistic_write' } });
      const active = await m.getRepository(ApiKeyEntity).countBy({ accountId: target, revokedAt: IsNull() });
      if (active >= this.maxActiveKeys) {
        throw new ResourceExhaustedError(`The account already holds ${active} active API keys, the most it may (MAX_API_KEYS_PER_ACCOUNT); revoke one first.`);
      }
      return this.insertKey(m, target, generateApiKey());
    });
  }

  /** Revokes every active key of the account and issues a new one, atomically. */
  async rotateKey(caller: Caller, accountId: string | undefined): Promise<IssuedKey & { revokedKeyIds: string[] }> {
    const target = await this.targetAccount(caller, accountId);
    const rotated = await this.ds.transaction(async (m) => {
      const repo = m.getRepository(ApiKeyEntity);
      const active = await repo.findBy({ accountId: target, revokedAt: IsNull() });
      const now = new Date();
      if (active.length > 0) await repo.update({ id: In(active.map((k) => k.id)) }, { revokedAt: now });
      const issued = await this.insertKey(m, target, generateApiKey());
      return { ...issued, revokedKeyIds: active.map((k) => k.id) };
    });
    if (rotated.revokedKeyIds.length > 0) await this.changed({ type: 'keys-revoked', accountId: target, keyIds: rotated.revokedKeyIds });
    return rotated;
  }

  async revokeKey(caller: Caller, keyId: string): Promise<ApiKeyRow> {
    checkLength('key_id', keyId);
    const repo = this.ds.getRepository(ApiKeyEntity);
    const key = isUuid(keyId) ? await repo.findOneBy({ id: keyId }) : null;
    if (!key || (caller.role !== 'operator' && key.accountId !== caller.accountId)) {
      throw new NotFoundError('No such API key.');
    }
    if (!key.revokedAt) {
      key.revokedAt = new Date();
      await repo.update({ id: key.id }, { revokedAt: key.revokedAt });
    }
    // Also for a key already revoked: a replica that missed the first event learns it now.
    await this.changed({ type: 'keys-revoked', accountId: key.accountId, keyIds: [key.id] });
    return key;
  }

  async listKeys(caller: Caller, accountId: string | undefined): Promise<ApiKeyRow[]> {
    const target = await this.targetAccount(caller, accountId);
    return this.ds.getRepository(ApiKeyEntity).find({ where: { accountId: target }, order: { createdAt: 'ASC' } });
  }

  private async targetAccount(caller: Caller, accountId: string | undefined): Promise<string> {
    checkLength('account_id', accountId);
    if (accountId === undefined || accountId === '' || accountId === caller.accountId) return caller.accountId;
    requireOperator(caller);
    const exists = isUuid(accountId) && (await this.ds.getRepository(AccountEntity).existsBy({ id: accountId }));
    if (!exists) throw new NotFoundError('No such account.');
    return accountId;
  }

  private async insertAccount(m: EntityManager, name: string, role: AccountRoleName): Promise<AccountRow> {
    const account: AccountRow = { id: randomUUID(), name, role, createdAt: new Date() };
    await m.getRepository(AccountEntity).insert(account);
    return account;
  }

  private async insertKey(m: EntityManager, accountId: string, apiKey: string): Promise<IssuedKey> {
    const key: ApiKeyRow = {
      id: randomUUID(),
      accountId,
      keyHash: hashApiKey(apiKey),
      hint: keyHint(apiKey),
      createdAt: new Date(),
      revokedAt: null,
      lastUsedAt: null,
    };
    await m.getRepository(ApiKeyEntity).insert(key);
    return { apiKey, key };
  }
}


function isUuid(s: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);
}

import type { DataSource, EntityManager } from 'typeorm';
import type { Caller } from '@green-impact/shared/caller';
import { NotFoundError } from '@green-impact/shared/errors';
import { parseEncryptionKey } from '@green-impact/shared/pii';
import { InvestorEntity, type InvestorRow } from '../entities.js';
import { MSG } from '../messages.js';
import { DEFAULT_LISTING_LIMITS } from '@green-impact/shared/config';
import { decodeBeforeToken, decodePageToken, isWholeListing, keysetOf, orderOf, pageBeforeOf, pageOf, pageSize, type ListingOrders } from '@green-impact/shared/paging';
import * as v from '../validation.js';
import { newInvestorIdentifier } from './investor-identifier.js';
import {
  fingerprintOf,
  openForUpdate,
  openPii,
  parseDecryptionKey,
  requireKeyFitsSome,
  sealPii,
  type PiiValues,
} from './investor-pii.js';

export interface InvestorView {
  id: number;
  investorIdentifier: string;
  investorName: string;
  investorEmail?: string;
  currencyCode: string;
  encrypted: boolean;
  masked: boolean;
}

export interface AddInvestorInput {
  investorIdentifier: string;
  investorName: string;
  currencyCode: string;
  encryptionKey?: string | undefined;
  investorEmail?: string | undefined;
}

/** Investors (spec §4.9): always private to their account; PII optionally encrypted at rest. */
export class InvestorStore {
  constructor(
    private readonly ds: DataSource,
    /** MAX_LIST_ITEMS: the most investors an unpaged list answers. */
    private readonly maxListItems = DEFAULT_LISTING_LIMITS.maxListItems,
  ) {}

  /**
   * The account's investors in id order, at most MAX_LIST_ITEMS; `totalCount` is set only when the list
   * was cut, and the key is then checked against every investor of the account, as a page's is.
   */
  async list(caller: Caller, decryptionKey?: string): Promise<{ investors: InvestorView[]; totalCount: number | undefined }> {
    const key = parseDecryptionKey(decryptionKey);
    const cap = this.maxListItems;
    const rows = await this.ds.getRepository(InvestorEntity).find({ where: { accountId: caller.accountId }, order: { id: 'ASC' }, take: cap });
    let totalCount: number | undefined;
    if (rows.length < cap) requireKeyFitsSome(rows, key);
    else {
      const summary = await this.summary(caller);
      requireKeyFitsSome(summary.fingerprints, key);
      if (summary.count > rows.length) totalCount = summary.count;
    }
    return { investors: rows.map((r) => toView(r, key)), totalCount };
  }

  /**
   * One page of the account's investors in the asked order (INVESTOR_ORDERS; default id), after the token's
   * investor or right before page_before's (keyset: LIMIT size + 1 rows), with their number; the key must
   * fit one investor of the account, as for list.
   */
  async page(
    caller: Caller,
    page: { size: number; token?: string | undefined; before?: string | undefined; order?: { field: string; descending: boolean } | undefined },
    decryptionKey?: string,
  ): Promise<{ investors: InvestorView[]; nextPageToken: string; totalCount: number; hasPreviousPage: boolean; itemPageTokens: string[] }> {
    const size = pageSize(page.size);
    const order = orderOf(INVESTOR_ORDERS, page.order);
    const before = decodeBeforeToken(page.token, page.before);
    const after = decodePageToken(page.token);
    const key = parseDecryptionKey(decryptionKey);
    const keyset = keysetOf(order, before ?? after, 2, before !== undefined);
    const rows: InvestorRow[] = await this.ds.query(
      `SELECT ${INVESTOR_COLUMNS}${keyset.select} FROM portfolio.investors i WHERE i.account_id = $1${keyset.where}
         ORDER BY ${keyset.orderBy} LIMIT $${keyset.params.length + 2}`,
      [caller.accountId, ...keyset.params, size + 1],
    );
    if (before) {
      const summary = await this.summary(caller);
      requireKeyFitsSome(summary.fingerprints, key);
      const { items, nextPageToken, hasPreviousPage, itemPageTokens } = pageBeforeOf(rows, size, before, (r) => r.id, order, summary.count);
      return { investors: items.map((r) => toView(r, key)), nextPageToken, totalCount: summary.count, hasPreviousPage, itemPageTokens };
    }
    // A first page that is not full is the whole listing: its rows give the count and the key check.
    let totalCount = rows.length;
    if (isWholeListing(after, rows, size)) requireKeyFitsSome(rows, key);
    else {
      const summary = await this.summary(caller);
      requireKeyFitsSome(summary.fingerprints, key);
      totalCount = summary.count;
    }
    const { items, nextPageToken, itemPageTokens } = pageOf(rows, size, after, (r) => r.id, order);
    return { investors: items.map((r) => toView(r, key)), nextPageToken, totalCount, hasPreviousPage: after !== undefined, itemPageTokens };
  }

  /** How many investors the account has, and the fingerprints of the keys their PII is sealed with. */
  private async summary(caller: Caller): Promise<{ count: number; fingerprints: { keyFingerprint: string }[] }> {
    const [summary]: { count: string | number; fingerprints: string[] | null }[] = await this.ds.query(
      `SELECT count(*) AS count, array_agg(DISTINCT i.key_fingerprint) FILTER (WHERE i.key_fingerprint IS NOT NULL) AS fingerprints
       FROM portfolio.investors i WHERE i.account_id = $1`,
      [caller.accountId],
    );
    return { count: Number(summary?.count ?? 0), fingerprints: (summary?.fingerprints ?? []).map((keyFingerprint) => ({ keyFingerprint })) };
  }

  /** Batch read (one query); unknown identifiers are left out. */
  async byIdentifiers(caller: Caller, identifiers: string[], decryptionKey?: string): Promise<InvestorView[]> {
    const key = parseDecryptionKey(decryptionKey);
    // Blank ones name nothing; any other must be an identifier the service could have stored.
    const wanted = v.batch('investor_identifiers', identifiers.map((i) => i.trim()).filter((i) => i !== '').map((i) => v.text('investor_identifier', i)));
    if (wanted.length === 0) return [];
    const rows: InvestorRow[] = await this.ds.query(
      `SELECT ${INVESTOR_COLUMNS} FROM portfolio.investors i WHERE i.account_id = $1 AND i.investor_identifier = ANY($2) ORDER BY i.id`,
      [caller.accountId, wanted],
    );
    requireKeyFitsSome(rows, key);
    const order = new Map(wanted.map((w, i) => [w, i]));
    return rows.sort((a, b) => order.get(a.investorIdentifier)! - order.get(b.investorIdentifier)!).map((r) => toView(r, key));
  }

  async add(caller: Caller, input: AddInvestorInput): Promise<{ id: number; created: boolean }> {
    const investorIdentifier = v.text('investor_identifier', input.investorIdentifier);
    const given: PiiValues = { investorName: v.name('investor_name', input.investorName) };
    const email = v.optionalEmail('investor_email', input.investorEmail);
    if (email !== undefined) given.investorEmail = email;
    const currencyCode = v.currencyCode('investor_currency_code', input.currencyCode);
    const key = input.encryptionKey ? parseEncryptionKey(input.encryptionKey) : undefined;
    return this.ds.transaction(async (m) => {
      for (let attempt = 0; attempt < 2; attempt++) {
        const existing = await this.findInvestor(m, caller, investorIdentifier, true);
        if (existing) {
          const merged = { ...openForUpdate(existing, key, given), ...given };
          const sealed = sealPii(merged, key, caller.accountId, investorIdentifier);
          await m.query(
            `UPDATE portfolio.investors SET investor_name = $2, investor_email = $3, currency_code = $4, key_fingerprint = $5,
               updated_at = now() WHERE id = $1`,
            [existing.id, sealed.investorName, sealed.investorEmail, currencyCode, fingerprintOf(key)],
          );
          return { id: existing.id, created: false };
        }
        const sealed = sealPii(given, key, caller.accountId, investorIdentifier);
        const inserted: { id: number }[] = await m.query(
          `INSERT INTO portfolio.investors (account_id, investor_identifier, investor_name, investor_email, currency_code, key_fingerprint)
           VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (account_id, investor_identifier) DO NOTHING RETURNING id`,
          [caller.accountId, investorIdentifier, sealed.investorName, sealed.investorEmail, currencyCode, fingerprintOf(key)],
        );
        if (inserted[0]) return { id: inserted[0].id, created: true };
      }
      throw new Error(`investor neither inserted nor found`);
    });
  }

  /** Removes the investor with its positions (and their impacts) and portfolios: one cascading delete. */
  async remove(caller: Caller, investorIdentifier: string): Promise<number> {
    const identifier = v.text('investor_identifier', investorIdentifier);
    const deleted: [{ id: number }[], number] = await this.ds.query(
      `DELETE FROM portfolio.investors WHERE account_id = $1 AND investor_identifier = $2 RETURNING id`,
      [caller.accountId, identifier],
    );
    const id = deleted[0]?.[0]?.id;
    if (id === undefined) throw new NotFoundError(MSG.noSuchInvestor);
    return id;
  }

  /** A fresh random identifier, not yet used in the account. */
  async generateIdentifier(caller: Caller): Promise<string> {
    for (;;) {
      const candidate = newInvestorIdentifier();
      const taken = await this.ds.getRepository(InvestorEntity).existsBy({ accountId: caller.accountId, investorIdentifier: candidate });
      if (!taken) return candidate;
    }
  }

  async requireInvestor(m: EntityManager, caller: Caller, investorIdentifier: string, lock = false): Promise<InvestorRow> {
    const investor = await this.findInvestor(m, caller, v.text('investor_identifier', investorIdentifier), lock);
    if (!investor) throw new NotFoundError(MSG.noSuchInvestor);
    return investor;
  }

  private async findInvestor(m: EntityManager, caller: Caller, identifier: string, lock: boolean): Promise<InvestorRow | undefined> {
    const rows: InvestorRow[] = await m.query(
      `SELECT ${INVESTOR_COLUMNS} FROM portfolio.investors i WHERE i.account_id = $1 AND i.investor_identifier = $2${lock ? ' FOR UPDATE' : ''}`,
      [caller.accountId, identifier],
    );
    return rows[0];
  }
}

/**
 * The orders an investor page can be read in (GraphQL InvestorOrderField), each then by id: only columns
 * stored in clear. Names and e-mails may be sealed (investor-pii.ts), so ordering by them would order
 * ciphertext and leak nothing useful; they are not offered.
 */
const INVESTOR_ORDERS: ListingOrders = {
  id: { sql: 'i.id', type: 'bigint' },
  columns: {
    identifier: { sql: 'i.investor_identifier', type: 'text' },
    currency_code: { sql: 'i.currency_code::text', type: 'text' },
    created_at: { sql: 'i.created_at', type: 'timestamptz' },
    updated_at: { sql: 'i.updated_at', type: 'timestamptz' },
  },
};

const INVESTOR_COLUMNS = `
  i.id, i.account_id AS "accountId", i.investor_identifier AS "investorIdentifier", i.investor_name AS "investorName",
  i.investor_email AS "investorEmail", i.currency_code AS "currencyCode", i.key_fingerprint AS "keyFingerprint",
  i.created_at AS "createdAt", i.updated_at AS "updatedAt"`;

function toView(r: InvestorRow, key: Buffer | undefined): InvestorView {
  return {
    id: r.id,
    investorIdentifier: r.investorIdentifier,
    currencyCode: r.currencyCode,
    ...openPii(r, key),
  };
}

import type { DataSource, EntityManager } from 'typeorm';
import type { ImpactRecord } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import type { Caller } from '@green-impact/shared/caller';
import { NotFoundError } from '@green-impact/shared/errors';
import type { AssetStore } from '../assets/asset-store.js';
import type { ImpactCalculator } from '../impacts/impact-calculator.js';
import type { ImpactStore } from '../impacts/impact-store.js';
import { parseDecryptionKey, requireKeyFitsSome } from '../investors/investor-pii.js';
import type { InvestorStore } from '../investors/investor-store.js';
import { MSG } from '../messages.js';
import { FOREIGN_KEY_VIOLATION, pgErrorCode } from '../pg-errors.js';
import * as v from '../validation.js';
import { positionViews, selectPositions, summarizePositions, type PositionDetail, type PositionView } from './position-reads.js';
import { DEFAULT_LISTING_LIMITS } from '@green-impact/shared/config';
import { decodeBeforeToken, decodePageToken, isWholeListing, orderOf, pageBeforeOf, pageOf, pageSize, type ListingOrders } from '@green-impact/shared/paging';

/**
 * The orders a position page can be read in (GraphQL PositionOrderField), each then by id. The investor is
 * ordered by its identifier, stored in clear (never by its name, which may be sealed); a position without a
 * start date sorts as PostgreSQL puts NULLs: last going up, first going down.
 */
const POSITION_ORDERS: ListingOrders = {
  id: { sql: 'p.id', type: 'bigint' },
  columns: {
    amount: { sql: 'p.amount', type: 'float8' },
    currency_code: { sql: 'p.currency_code::text', type: 'text' },
    days: { sql: 'p.days', type: 'int' },
    start_date: { sql: "COALESCE(p.start_date, 'infinity'::date)", type: 'date' },
    investor_identifier: { sql: 'i.investor_identifier', type: 'text' },
    asset_identifier: { sql: 'a.asset_identifier', type: 'text' },
  },
};

export interface AddPositionInput {
  investorIdentifier: string;
  assetIdentifier: string;
  amount: number;
  currencyCode: string;
  reportingYear?: number | undefined;
  days?: number | undefined;
  startDate?: string | undefined;
}

export interface PositionFilter {
  /** Empty or absent: every investor of the account. */
  investorIdentifier?: string | undefined;
  assetIdentifier?: string | undefined;
  issuerIdentifier?: string | undefined;
  /** Set when the spec's user_identifier filter is active: only these investors. */
  investorsAllowed?: string[] | undefined;
}

/**
 * Positions (spec §4.10): an investor's holding of an asset (the account's own or a public one), always
 * private to the account. An investor may hold several positions in one asset; addPosition always
 * creates one.
 */
export class PositionStore {
  constructor(
    private readonly ds: DataSource,
    private readonly assets: AssetStore,
    private readonly investors: InvestorStore,
    private readonly calculator: ImpactCalculator,
    private readonly impacts: ImpactStore,
    /** MAX_LIST_ITEMS: the most positions an unpaged list answers. */
    private readonly maxListItems = DEFAULT_LISTING_LIMITS.maxListItems,
  ) {}

  /**
   * With a reporting year the impacts are computed first and stored with the position in one
   * transaction: all or nothing, so a missing FX rate leaves no position without the impacts asked for.
   */
  async add(caller: Caller, input: AddPositionInput): Promise<{ id: number; impacts: ImpactRecord[] }> {
    const terms = {
      amount: v.positiveAmount('position_amount', input.amount),
      currencyCode: v.currencyCode('position_currency_code', input.currencyCode),
      days: v.positionDays(input.days),
      startDate: v.optionalIsoDate('position_start_date', input.startDate) ?? null,
    };
    const year = input.reportingYear === undefined ? undefined : v.reportingYear(input.reportingYear);
    const investorIdentifier = v.text('investor_identifier', input.investorIdentifier);
    await this.investors.requireInvestor(this.ds.manager, caller, investorIdentifier);
    const asset = await this.assets.requireVisible(caller, input.assetIdentifier);
    const prepared = year === undefined ? undefined : await this.calculator.prepare(caller, terms, asset, year);

    const id = await this.ds.transaction(async (m) => {
      const investor = await this.investors.requireInvestor(m, caller, investorIdentifier);
      let inserted: { id: number }[];
      try {
        inserted = await m.query(
          `INSERT INTO portfolio.positions (account_id, investor_id, asset_id, amount, currency_code, days, start_date)
           VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
          [caller.accountId, investor.id, asset.id, terms.amount, terms.currencyCode, terms.days, terms.startDate],
        );
      } catch (err) {
        // The asset was removed between the read above and this insert.
        if (pgErrorCode(err) === FOREIGN_KEY_VIOLATION) throw new NotFoundError(MSG.noSuchAsset(asset.assetIdentifier));
        throw err;
      }
      const positionId = inserted[0]!.id;
      if (prepared) await this.impacts.replaceMany(m, [{ positionId, prepared }]);
      return positionId;
    });
    const impacts = year === undefined ? [] : await this.impacts.records(this.ds.manager, caller.accountId, { positionIds: [id], reportingYear: year });
    return { id, impacts };
  }

  /** Removes the position of that investor with its impact records and portfolio memberships. */
  async remove(caller: Caller, investorIdentifier: string, positionId: number): Promise<number> {
    const investor = v.text('investor_identifier', investorIdentifier);
    const pid = v.id('position_id', positionId);
    const [deleted]: [{ id: number }[], number] = await this.ds.query(
      `DELETE FROM portfolio.positions p USING portfolio.investors i
       WHERE p.id = $1 AND p.account_id = $2 AND i.id = p.investor_id AND i.investor_identifier = $3 RETURNING p.id`,
      [pid, caller.accountId, investor],
    );
    if (deleted[0]) return deleted[0].id;
    await this.investors.requireInvestor(this.ds.manager, caller, investor);
    throw new NotFoundError(MSG.noSuchPositionOfInvestor(pid, investor));
  }

  /**
   * The listing in id order, at most MAX_LIST_ITEMS; `totalCount` is set only when it was cut, and the
   * key is then checked against the whole listing, as a page's is.
   */
  async list(caller: Caller, filter: PositionFilter, decryptionKey?: string): Promise<{ positions: PositionView[]; totalCount: number | undefined }> {
    const key = parseDecryptionKey(decryptionKey);
    const criteria = await this.criteria(caller, filter);
    if (!criteria) return { positions: [], totalCount: undefined };
    const cap = this.maxListItems;
    const rows = await selectPositions(this.ds.manager, caller.accountId, { ...criteria, limit: cap });
    if (rows.length < cap) return { positions: positionViews(rows, key), totalCount: undefined };
    const summary = await summarizePositions(this.ds.manager, caller.accountId, criteria);
    requireKeyFitsSome(summary.fingerprints, key);
    return { positions: positionViews(rows, key, true), totalCount: summary.count > rows.length ? summary.count : undefined };
  }

  /**
   * One page of the listing in the asked order (POSITION_ORDERS; default id), after the token's position or
   * right before page_before's (keyset: LIMIT size + 1 rows, never the whole table), with the number of
   * matching positions. The same filters as list; the key must fit one investor of the whole listing, as
   * for list.
   */
  async page(
    caller: Caller,
    filter: PositionFilter,
    page: { size: number; token?: string | undefined; before?: string | undefined; order?: { field: string; descending: boolean } | undefined },
    decryptionKey?: string,
  ): Promise<{ positions: PositionView[]; nextPageToken: string; totalCount: number; hasPreviousPage: boolean; itemPageTokens: string[] }> {
    const size = pageSize(page.size);
    const order = orderOf(POSITION_ORDERS, page.order);
    const before = decodeBeforeToken(page.token, page.before);
    const after = decodePageToken(page.token);
    const key = parseDecryptionKey(decryptionKey);
    const criteria = await this.criteria(caller, filter);
    if (!criteria) return { positions: [], nextPageToken: '', totalCount: 0, hasPreviousPage: false, itemPageTokens: [] };
    const m = this.ds.manager;
    const rows = await selectPositions(m, caller.accountId, { ...criteria, page: { order, from: before ?? after, backward: before !== undefined }, limit: size + 1 });
    // A first page that is not full is the whole listing: its rows give the count and the key check.
    const whole = before === undefined && isWholeListing(after, rows, size);
    let totalCount = rows.length;
    if (!whole) {
      const summary = await summarizePositions(m, caller.accountId, criteria);
      requireKeyFitsSome(summary.fingerprints, key);
      totalCount = summary.count;
    }
    const { items, nextPageToken, itemPageTokens, hasPreviousPage } = before
      ? pageBeforeOf(rows, size, before, (r) => r.id, order, totalCount)
      : { ...pageOf(rows, size, after, (r) => r.id, order), hasPreviousPage: after !== undefined };
    return { positions: positionViews(items, key, !whole), nextPageToken, totalCount, hasPreviousPage, itemPageTokens };
  }

  /** The criteria of a listing; undefined when it is empty whatever is stored (an investor the user may not see). */
  private async criteria(caller: Caller, filter: PositionFilter) {
    const investorIdentifier = v.optionalText('investor_identifier', filter.investorIdentifier);
    if (investorIdentifier !== undefined) {
      // An investor the user may not see is not there for this call; an unknown one is said to be unknown.
      if (filter.investorsAllowed && !filter.investorsAllowed.includes(investorIdentifier)) return undefined;
      await this.investors.requireInvestor(this.ds.manager, caller, investorIdentifier);
    }
    return {
      investorIdentifier,
      assetIdentifier: v.optionalText('asset_identifier', filter.assetIdentifier),
      issuerIdentifier: v.optionalText('issuer_identifier', filter.issuerIdentifier),
      investorsAllowed: filter.investorsAllowed,
    };
  }

  /** Batch read (one query); unknown ids and other accounts' positions are left out. */
  async byIds(caller: Caller, positionIds: number[], decryptionKey?: string): Promise<PositionView[]> {
    const key = parseDecryptionKey(decryptionKey);
    const ids = v.batch('position_ids', positionIds).filter((id) => Number.isSafeInteger(id) && id > 0);
    if (ids.length === 0) return [];
    const details = await selectPositions(this.ds.manager, caller.accountId, { ids });
    const order = new Map(ids.map((id, i) => [id, i]));
    return positionViews(details.sort((a, b) => order.get(a.id)! - order.get(b.id)!), key);
  }

  /** One of the account's positions, or NOT_FOUND. With lock, the row stays locked for m's transaction. */
  async require(caller: Caller, positionId: number, m: EntityManager = this.ds.manager, lock = false): Promise<PositionDetail> {
    const id = v.id('position_id', positionId);
    const [detail] = await selectPositions(m, caller.accountId, { ids: [id], lock });
    if (!detail) throw new NotFoundError(MSG.noSuchPosition(id));
    return detail;
  }
}

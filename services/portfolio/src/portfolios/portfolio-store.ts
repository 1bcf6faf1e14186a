import type { DataSource, EntityManager } from 'typeorm';
import type { Caller } from '@green-impact/shared/caller';
import { AlreadyExistsError, NotFoundError } from '@green-impact/shared/errors';
import { DEFAULT_LISTING_LIMITS } from '@green-impact/shared/config';
import { cappedListing, decodeBeforeToken, decodePageToken, orderOf, pageBeforeOf, pageOf, pageSize, type PageRequest } from '@green-impact/shared/paging';
import { parseDecryptionKey, requireKeyFitsSome } from '../investors/investor-pii.js';
import type { InvestorStore } from '../investors/investor-store.js';
import { MSG } from '../messages.js';
import { UNIQUE_VIOLATION, pgErrorCode } from '../pg-errors.js';
import * as v from '../validation.js';
import { PORTFOLIO_ORDERS, portfolioViews, selectPortfolios, summarizePortfolios, type PortfolioCriteria, type PortfolioView } from './portfolio-listing.js';

export type { PortfolioView } from './portfolio-listing.js';

export interface PortfolioPositionView {
  positionId: number;
  amount: number;
  currencyCode: string;
  days: number;
  startDate: string | null;
  assetIdentifier: string;
  assetName: string;
  issuerIdentifier: string;
  issuerName: string;
}

export interface PortfolioFilter {
  investorIdentifier?: string | undefined;
  assetIdentifier?: string | undefined;
  investorsAllowed?: string[] | undefined;
}

export interface PortfolioRef {
  id: number;
  portfolioIdentifier: string;
  investorId: number;
  investorIdentifier: string;
}

export type AddPortfolioOutcome = 'added' | 'exists' | 'changed';

/**
 * Portfolios (spec §4.10): named groups of one investor's positions. Identifiers are unique per account
 * (getPortfolioPositions takes only portfolio_identifier); removing a portfolio keeps its positions.
 */
export class PortfolioStore {
  constructor(
    private readonly ds: DataSource,
    private readonly investors: InvestorStore,
    /** MAX_LIST_ITEMS: the most portfolios, or positions of one portfolio, an unpaged list answers. */
    private readonly maxListItems = DEFAULT_LISTING_LIMITS.maxListItems,
  ) {}

  /** Adds a portfolio (idempotently), or renames it with portfolioIdentifierChanged. */
  async add(
    caller: Caller,
    investorIdentifier: string,
    portfolioIdentifier: string,
    portfolioIdentifierChanged?: string,
  ): Promise<{ id: number; outcome: AddPortfolioOutcome }> {
    const investorId = v.text('investor_identifier', investorIdentifier);
    const identifier = v.text('portfolio_identifier', portfolioIdentifier);
    const changed = v.optionalText('portfolio_identifier_changed', portfolioIdentifierChanged);
    return this.ds.transaction(async (m) => {
      const investor = await this.investors.requireInvestor(m, caller, investorId);
      if (changed !== undefined) {
        const portfolio = await this.requireOfInvestor(m, caller, identifier, investorId, true);
        if (changed === identifier) return { id: portfolio.id, outcome: 'changed' };
        try {
          await m.query(`UPDATE portfolio.portfolios SET portfolio_identifier = $2, updated_at = now() WHERE id = $1`, [portfolio.id, changed]);
        } catch (err) {
          if (pgErrorCode(err) === UNIQUE_VIOLATION) throw new AlreadyExistsError(MSG.portfolioTaken(changed));
          throw err;
        }
        return { id: portfolio.id, outcome: 'changed' };
      }
      const inserted: { id: number }[] = await m.query(
        `INSERT INTO portfolio.portfolios (account_id, investor_id, portfolio_identifier) VALUES ($1, $2, $3)
         ON CONFLICT (account_id, portfolio_identifier) DO NOTHING RETURNING id`,
        [caller.accountId, investor.id, identifier],
      );
      if (inserted[0]) return { id: inserted[0].id, outcome: 'added' };
      const existing = await this.find(m, caller, identifier);
      if (!existing || existing.investorId !== investor.id) throw new AlreadyExistsError(MSG.portfolioTaken(identifier));
      return { id: existing.id, outcome: 'exists' };
    });
  }

  async remove(caller: Caller, investorIdentifier: string, portfolioIdentifier: string): Promise<number> {
    const investorId = v.text('investor_identifier', investorIdentifier);
    const identifier = v.text('portfolio_identifier', portfolioIdentifier);
    return this.ds.transaction(async (m) => {
      await this.investors.requireInvestor(m, caller, investorId);
      const portfolio = await this.requireOfInvestor(m, caller, identifier, investorId, true);
      await m.query(`DELETE FROM portfolio.portfolios WHERE id = $1`, [portfolio.id]);
      return portfolio.id;
    });
  }

  async addPosition(caller: Caller, investorIdentifier: string, portfolioIdentifier: string, positionId: number): Promise<number> {
    const { portfolio, pid } = await this.membershipArgs(caller, investorIdentifier, portfolioIdentifier, positionId);
    return this.ds.transaction(async (m) => {
      const p = await this.requireOfInvestor(m, caller, portfolio.identifier, portfolio.investor, true);
      await this.requirePositionOfInvestor(m, caller, pid, p.investorId, portfolio.investor);
      const inserted: { portfolio_id: number }[] = await m.query(
        `INSERT INTO portfolio.portfolio_positions (portfolio_id, position_id) VALUES ($1, $2)
         ON CONFLICT DO NOTHING RETURNING portfolio_id`,
        [p.id, pid],
      );
      if (!inserted[0]) throw new AlreadyExistsError(MSG.positionAlreadyInPortfolio(pid, p.portfolioIdentifier));
      return p.id;
    });
  }

  async removePosition(caller: Caller, investorIdentifier: string, portfolioIdentifier: string, positionId: number): Promise<number> {
    const { portfolio, pid } = await this.membershipArgs(caller, investorIdentifier, portfolioIdentifier, positionId);
    return this.ds.transaction(async (m) => {
      const p = await this.requireOfInvestor(m, caller, portfolio.identifier, portfolio.investor, true);
      const [deleted]: [unknown[], number] = await m.query(
        `DELETE FROM portfolio.portfolio_positions WHERE portfolio_id = $1 AND position_id = $2 RETURNING position_id`,
        [p.id, pid],
      );
      if (deleted.length === 0) throw new NotFoundError(MSG.positionNotInPortfolio(pid, p.portfolioIdentifier));
      return p.id;
    });
  }

  /**
   * The listing in id order, at most MAX_LIST_ITEMS; `totalCount` is set only when it was cut, and the
   * key is then checked against the whole listing, as a page's is.
   */
  async list(caller: Caller, filter: PortfolioFilter, decryptionKey?: string): Promise<{ portfolios: PortfolioView[]; totalCount: number | undefined }> {
    const key = parseDecryptionKey(decryptionKey);
    const criteria = await this.criteria(caller, filter);
    if (!criteria) return { portfolios: [], totalCount: undefined };
    const cap = this.maxListItems;
    const rows = await selectPortfolios(this.ds.manager, caller.accountId, criteria, { limit: cap });
    if (rows.length < cap) {
      requireKeyFitsSome(rows, key);
      return { portfolios: portfolioViews(rows, key), totalCount: undefined };
    }
    const summary = await summarizePortfolios(this.ds.manager, caller.accountId, criteria);
    requireKeyFitsSome(summary.fingerprints, key);
    return { portfolios: portfolioViews(rows, key), totalCount: summary.count > rows.length ? summary.count : undefined };
  }

  /**
   * One page of the listing in the asked order (PORTFOLIO_ORDERS; default id), after the token's portfolio
   * or right before page_before's (keyset: LIMIT size + 1 rows, never the whole table), with the number of
   * matching portfolios. The same filters as list; the key must fit one investor of the whole listing, as
   * for list.
   */
  async page(
    caller: Caller,
    filter: PortfolioFilter,
    page: PageRequest & { before?: string | undefined; order?: { field: string; descending: boolean } | undefined },
    decryptionKey?: string,
  ): Promise<{ portfolios: PortfolioView[]; nextPageToken: string; totalCount: number; hasPreviousPage: boolean; itemPageTokens: string[] }> {
    const size = pageSize(page.size);
    const order = orderOf(PORTFOLIO_ORDERS, page.order);
    const before = decodeBeforeToken(page.token, page.before);
    const after = decodePageToken(page.token);
    const key = parseDecryptionKey(decryptionKey);
    const criteria = await this.criteria(caller, filter);
    if (!criteria) return { portfolios: [], nextPageToken: '', totalCount: 0, hasPreviousPage: false, itemPageTokens: [] };
    const summary = await summarizePortfolios(this.ds.manager, caller.accountId, criteria);
    requireKeyFitsSome(summary.fingerprints, key);
    const rows = await selectPortfolios(this.ds.manager, caller.accountId, criteria, { page: { order, from: before ?? after, backward: before !== undefined }, limit: size + 1 });
    const { items, nextPageToken, itemPageTokens, hasPreviousPage } = before
      ? pageBeforeOf(rows, size, before, (r) => r.id, order, summary.count)
      : { ...pageOf(rows, size, after, (r) => r.id, order), hasPreviousPage: after !== undefined };
    return { portfolios: portfolioViews(items, key), nextPageToken, totalCount: summary.count, hasPreviousPage, itemPageTokens };
  }

  /** The criteria of a listing; undefined when it is empty whatever is stored (an investor the user may not see). */
  private async criteria(caller: Caller, filter: PortfolioFilter): Promise<PortfolioCriteria | undefined> {
    const investorIdentifier = v.optionalText('investor_identifier', filter.investorIdentifier);
    if (investorIdentifier !== undefined) {
      if (filter.investorsAllowed && !filter.investorsAllowed.includes(investorIdentifier)) return undefined;
      await this.investors.requireInvestor(this.ds.manager, caller, investorIdentifier);
    }
    return { investorIdentifier, assetIdentifier: v.optionalText('asset_identifier', filter.assetIdentifier), investorsAllowed: filter.investorsAllowed };
  }

  /** The portfolio's positions in id order, at most MAX_LIST_ITEMS; `totalCount` only when cut. */
  async positions(caller: Caller, portfolioIdentifier: string): Promise<{ positions: PortfolioPositionView[]; totalCount: number | undefined }> {
    const portfolio = await this.require(this.ds.manager, caller, portfolioIdentifier);
    const rows: PortfolioPositionView[] = await this.ds.query(
      `SELECT p.id AS "positionId", p.amount, p.currency_code AS "currencyCode", p.days,
         to_char(p.start_date, 'YYYY-MM-DD') AS "startDate", a.asset_identifier AS "assetIdentifier", a.asset_name AS "assetName",
         a.issuer_identifier AS "issuerIdentifier", a.issuer_name AS "issuerName"
       FROM portfolio.portfolio_positions pp
       JOIN portfolio.positions p ON p.id = pp.position_id
       JOIN portfolio.assets a ON a.id = p.asset_id
       WHERE pp.portfolio_id = $1 ORDER BY p.id LIMIT $2`,
      [portfolio.id, this.maxListItems],
    );
    const { items, totalCount } = await cappedListing(rows, this.maxListItems, async () => portfolio.positionIds.length);
    return { positions: items, totalCount };
  }

  /** The account's portfolio of that identifier with its position ids, or NOT_FOUND. */
  async require(m: EntityManager, caller: Caller, portfolioIdentifier: string): Promise<PortfolioRef & { positionIds: number[] }> {
    const portfolio = await this.requireRef(m, caller, portfolioIdentifier);
    const members: { position_id: number }[] = await m.query(
      `SELECT position_id FROM portfolio.portfolio_positions WHERE portfolio_id = $1 ORDER BY position_id`,
      [portfolio.id],
    );
    return { ...portfolio, positionIds: members.map((x) => x.position_id) };
  }

  /** The caller's portfolio without its members (NOT_FOUND in the service's words when there is none). */
  async requireRef(m: EntityManager, caller: Caller, portfolioIdentifier: string): Promise<PortfolioRef> {
    const identifier = v.text('portfolio_identifier', portfolioIdentifier);
    const portfolio = await this.find(m, caller, identifier);
    if (!portfolio) throw new NotFoundError(MSG.noSuchPortfolio(identifier));
    return portfolio;
  }

  private async membershipArgs(caller: Caller, investorIdentifier: string, portfolioIdentifier: string, positionId: number) {
    const investor = v.text('investor_identifier', investorIdentifier);
    const identifier = v.text('portfolio_identifier', portfolioIdentifier);
    const pid = v.id('position_id', positionId);
    await this.investors.requireInvestor(this.ds.manager, caller, investor);
    return { portfolio: { investor, identifier }, pid };
  }

  private async find(m: EntityManager, caller: Caller, identifier: string, lock = false): Promise<PortfolioRef | undefined> {
    const rows: PortfolioRef[] = await m.query(
      `SELECT pf.id, pf.portfolio_identifier AS "portfolioIdentifier", pf.investor_id AS "investorId", i.investor_identifier AS "investorIdentifier"
       FROM portfolio.portfolios pf JOIN portfolio.investors i ON i.id = pf.investor_id
       WHERE pf.account_id = $1 AND pf.portfolio_identifier = $2${lock ? ' FOR UPDATE OF pf' : ''}`,
      [caller.accountId, identifier],
    );
    return rows[0];
  }

  private async requireOfInvestor(m: EntityManager, caller: Caller, identifier: string, investorIdentifier: string, lock: boolean): Promise<PortfolioRef> {
    const portfolio = await this.find(m, caller, identifier, lock);
    if (!portfolio) throw new NotFoundError(MSG.noSuchPortfolio(identifier));
    if (portfolio.investorIdentifier !== investorIdentifier) throw new NotFoundError(MSG.noSuchPortfolioOfInvestor(identifier, investorIdentifier));
    return portfolio;
  }

  private async requirePositionOfInvestor(m: EntityManager, caller: Caller, positionId: number, investorId: number, investorIdentifier: string): Promise<void> {
    const rows: unknown[] = await m.query(
      `SELECT 1 FROM portfolio.positions WHERE id = $1 AND account_id = $2 AND investor_id = $3 FOR KEY SHARE`,
      [positionId, caller.accountId, investorId],
    );
    if (rows.length === 0) throw new NotFoundError(MSG.noSuchPositionOfInvestor(positionId, investorIdentifier));
  }
}

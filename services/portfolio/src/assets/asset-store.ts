import type { DataSource, EntityManager } from 'typeorm';
import type { Caller } from '@green-impact/shared/caller';
import { FailedPreconditionError, InvalidArgumentError, NotAuthorizedError, NotFoundError } from '@green-impact/shared/errors';
import type { Logger } from '@green-impact/shared/logger';
import { DEFAULT_LISTING_LIMITS, type ListingLimits } from '@green-impact/shared/config';
import { cappedListing, decodeBeforeToken, decodePageToken, keysetOf, orderOf, pageBeforeOf, pageOf, pageSize, totalOf, type ListingOrders, type PageRequest } from '@green-impact/shared/paging';
import { checkPublicLimit, REFERENCE_CANDIDATES, resolveReference } from '@green-impact/shared/public-items';
import type { AssetRow, VisibilityName } from '../entities.js';
import type { FrameworkSource } from '../framework-source.js';
import { MSG } from '../messages.js';
import { FOREIGN_KEY_VIOLATION, pgErrorCode } from '../pg-errors.js';
import * as v from '../validation.js';

export interface AssetView extends AssetRow {
  /** True when the caller's account owns the asset. */
  owned: boolean;
}

export interface AddAssetInput {
  assetIdentifier: string;
  assetName: string;
  issuerIdentifier: string;
  frameworkIdentifier: string;
  valueOutstanding?: number | undefined;
  currencyCode: string;
  dateIssued?: string | undefined;
  dateMaturity?: string | undefined;
  visibility?: VisibilityName | undefined;
  issuerName?: string | undefined;
}

export interface AssetFilter {
  visibility?: VisibilityName | undefined;
  issuerIdentifier?: string | undefined;
  frameworkIdentifier?: string | undefined;
}

/** Columns of an asset row, named as AssetRow's fields (dates as YYYY-MM-DD, independent of DateStyle). */
export const ASSET_COLUMNS = `
  a.id, a.account_id AS "accountId", a.asset_identifier AS "assetIdentifier", a.asset_name AS "assetName",
  a.issuer_identifier AS "issuerIdentifier", a.issuer_name AS "issuerName", a.framework_id AS "frameworkId",
  a.framework_identifier AS "frameworkIdentifier", a.framework_name AS "frameworkName",
  a.value_outstanding AS "valueOutstanding", a.currency_code AS "currencyCode",
  to_char(a.date_issued, 'YYYY-MM-DD') AS "dateIssued", to_char(a.date_maturity, 'YYYY-MM-DD') AS "dateMaturity",
  a.visibility, a.created_at AS "createdAt", a.updated_at AS "updatedAt"`;

/**
 * The orders an asset page can be read in (GraphQL AssetOrderField), each then by id. Nullable columns sort
 * as PostgreSQL puts NULLs: last going up, first going down.
 */
const ASSET_ORDERS: ListingOrders = {
  id: { sql: 'a.id', type: 'bigint' },
  columns: {
    identifier: { sql: 'a.asset_identifier', type: 'text' },
    name: { sql: 'a.asset_name', type: 'text' },
    issuer_identifier: { sql: 'a.issuer_identifier', type: 'text' },
    date_maturity: { sql: "COALESCE(a.date_maturity, 'infinity'::date)", type: 'date' },
    value_outstanding: { sql: "COALESCE(a.value_outstanding, 'Infinity'::float8)", type: 'float8' },
  },
};

/**
 * Assets (spec §4.8). An asset belongs to an account and is tied to a framework the caller can see when
 * adding it; others see it only when public, and only the owner changes or removes it. A read by
 * identifier resolves the caller's own asset first, then the public one of another account, but only
 * when exactly one account publishes that identifier (shared/public-items.ts: no squatting). An account
 * publishes at most MAX_PUBLIC_ITEMS_PER_ACCOUNT assets; an unpaged listing answers at most MAX_LIST_ITEMS.
 */
export class AssetStore {
  constructor(
    private readonly ds: DataSource,
    private readonly frameworks: FrameworkSource,
    private readonly log: Logger,
    private readonly limits: ListingLimits = DEFAULT_LISTING_LIMITS,
  ) {}

  async add(caller: Caller, input: AddAssetInput): Promise<{ id: number; created: boolean }> {
    const assetIdentifier = v.text('asset_identifier', input.assetIdentifier);
    const assetName = v.name('asset_name', input.assetName);
    const issuerIdentifier = v.text('issuer_identifier', input.issuerIdentifier);
    const frameworkIdentifier = v.text('framework_identifier', input.frameworkIdentifier);
    const currencyCode = v.currencyCode('asset_currency_code', input.currencyCode);
    const valueOutstanding =
      input.valueOutstanding === undefined ? undefined : v.nonNegativeAmount('asset_value_outstanding', input.valueOutstanding);
    const dateIssued = v.optionalIsoDate('date_issued', input.dateIssued);
    const dateMaturity = v.optionalIsoDate('date_maturity', input.dateMaturity);
    v.datesInOrder(dateIssued, dateMaturity);
    const givenIssuerName = v.optionalName('issuer_name', input.issuerName);

    const framework = await this.frameworks.visibleFramework(caller, frameworkIdentifier);
    if (!framework) throw new NotFoundError(MSG.noSuchFramework(frameworkIdentifier));
    const frameworkId = Number(framework.frameworkId);
    // Another account's framework: the reference is recorded with its publisher's service before the
    // write, so the framework's currency cannot change while this commits (docs/decisions.md "Holders
    // keep a public framework's currency"). Outside the transaction: embedded, the taxonomy service
    // shares PGlite's one session, which an open transaction here would hold.
    const othersFramework = !framework.owned;
    if (othersFramework) await this.frameworks.recordHolder(caller, assetIdentifier, frameworkId, false);
    let previousFrameworkId: number | undefined;
    try {
      return await this.ds.transaction(async (m) => {
        // Two attempts: a concurrent add of the same identifier makes the insert find a row after all.
        for (let attempt = 0; attempt < 2; attempt++) {
          const existing = await this.ownAsset(m, caller, assetIdentifier, true);
          previousFrameworkId = existing ? Number(existing.frameworkId) : undefined;
          const visibility = input.visibility ?? existing?.visibility ?? 'private';
          if (visibility === 'public' && existing?.visibility !== 'public') {
            await checkPublicLimit(m, 'portfolio.assets', caller.accountId, 'asset', this.limits.maxPublicItemsPerAccount);
          }
          const issuerName =
            givenIssuerName ??
            (existing && existing.issuerIdentifier === issuerIdentifier ? existing.issuerName : undefined) ??
            (await this.knownIssuerName(m, caller, issuerIdentifier)) ??
            issuerIdentifier;
          const issued = dateIssued ?? existing?.dateIssued ?? null;
          const maturity = dateMaturity ?? existing?.dateMaturity ?? null;
          if (issued && maturity && maturity < issued) throw new InvalidArgumentError(MSG.datesReversed);
          const values = [
            assetName,
            issuerIdentifier,
            issuerName,
            framework.frameworkId,
            framework.frameworkIdentifier,
            framework.frameworkName,
            valueOutstanding ?? existing?.valueOutstanding ?? null,
            currencyCode,
            issued,
            maturity,
            visibility,
          ];
          if (existing) {
            await this.keepKeyFieldsHeldByOthers(m, caller, existing, framework.frameworkId, currencyCode);
            await m.query(
              `UPDATE portfolio.assets SET asset_name = $2, issuer_identifier = $3, issuer_name = $4, framework_id = $5,
                 framework_identifier = $6, framework_name = $7, value_outstanding = $8, currency_code = $9,
                 date_issued = $10, date_maturity = $11, visibility = $12, updated_at = now()
               WHERE id = $1`,
              [existing.id, ...values],
            );
            return { id: existing.id, created: false };
          }
          const inserted: { id: number }[] = await m.query(
            `INSERT INTO portfolio.assets (account_id, asset_identifier, asset_name, issuer_identifier, issuer_name, framework_id,
               framework_identifier, framework_name, value_outstanding, currency_code, date_issued, date_maturity, visibility)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
             ON CONFLICT (account_id, asset_identifier) DO NOTHING RETURNING id`,
            [caller.accountId, assetIdentifier, ...values],
          );
          if (inserted[0]) return { id: inserted[0].id, created: true };
        }
        throw new Error(`asset ${assetIdentifier} neither inserted nor found`);
      });
    } finally {
      // What the asset refers to now, once committed (or rolled back): a new asset, a changed framework.
      if (previousFrameworkId === undefined ? othersFramework : previousFrameworkId !== frameworkId) await this.restateHolder(caller, assetIdentifier);
    }
  }

  /**
   * Refused while positions (of any account) hold the asset: their impacts are made of it. Once removed,
   * the framework it referred to is no longer held by it (restateHolder).
   */
  async remove(caller: Caller, assetIdentifier: string): Promise<number> {
    const identifier = v.text('asset_identifier', assetIdentifier);
    const id = await this.removeOwn(caller, identifier);
    await this.restateHolder(caller, identifier);
    return id;
  }

  /**
   * Tells the taxonomy service which framework the caller's asset refers to now (none when it is gone),
   * dropping its other references. Read outside any transaction, after the write committed. A failure
   * leaves a reference too many, which only keeps a framework's currency longer than needed; the asset's
   * next write states it again, so it is logged, not answered.
   */
  private async restateHolder(caller: Caller, assetIdentifier: string): Promise<void> {
    try {
      const rows: { frameworkId: number }[] = await this.ds.query(
        `SELECT framework_id AS "frameworkId" FROM portfolio.assets WHERE account_id = $1 AND asset_identifier = $2`,
        [caller.accountId, assetIdentifier],
      );
      await this.frameworks.recordHolder(caller, assetIdentifier, Number(rows[0]?.frameworkId ?? 0), true);
    } catch (err) {
      this.log.warn({ err }, 'framework reference of an asset not restated; its framework keeps its currency until the asset is written again');
    }
  }

  /**
   * Records every asset's framework with the taxonomy service, once: assets written before
   * RecordFrameworkHolder existed have no reference there (docs/decisions.md "Holders keep a public
   * framework's currency"). Adds only, in id order, as each asset's account; taxonomy keeps none for an
   * account's own framework. Then notes it done, so a later start skips it; undefined when it was done
   * already, else how many assets it recorded. A write racing it can leave a reference too many (kept
   * until that asset's next write), never one too few. Several replicas may run it at once: recording is
   * idempotent. An aborted run stops between pages and notes nothing.
   */
  async recordEveryHolder(signal?: AbortSignal): Promise<number | undefined> {
    if ((await this.ds.query(`SELECT 1 FROM portfolio.framework_holder_backfill`)).length) return undefined;
    let recorded = 0;
    for (let after = 0; ; ) {
      if (signal?.aborted) return undefined;
      const rows: { id: number; accountId: string; assetIdentifier: string; frameworkId: number }[] = await this.ds.query(
        `SELECT id, account_id AS "accountId", asset_identifier AS "assetIdentifier", framework_id AS "frameworkId"
         FROM portfolio.assets WHERE id > $1 ORDER BY id LIMIT 500`,
        [after],
      );
      if (rows.length === 0) break;
      for (const r of rows) {
        await this.frameworks.recordHolder({ accountId: r.accountId, role: 'user' }, r.assetIdentifier, Number(r.frameworkId), false);
        recorded++;
      }
      after = Number(rows.at(-1)!.id);
    }
    await this.ds.query(`INSERT INTO portfolio.framework_holder_backfill DEFAULT VALUES ON CONFLICT DO NOTHING`);
    return recorded;
  }

  private removeOwn(caller: Caller, identifier: string): Promise<number> {
    return this.ds.transaction(async (m) => {
      const asset = await this.ownAsset(m, caller, identifier, true);
      if (!asset) {
        const published: unknown[] = await m.query(
          `SELECT 1 FROM portfolio.assets WHERE asset_identifier = $1 AND visibility = 'public' LIMIT 1`,
          [identifier],
        );
        if (published.length) throw new NotAuthorizedError();
        throw new NotFoundError(MSG.noSuchAsset(identifier));
      }
      const holders: { id: number; own: boolean }[] = await m.query(
        `SELECT id, account_id = $2 AS own FROM portfolio.positions WHERE asset_id = $1 ORDER BY id`,
        [asset.id, caller.accountId],
      );
      if (holders.length) {
        const own = holders.filter((h) => h.own).map((h) => h.id);
        throw new FailedPreconditionError(MSG.assetHeld(identifier, own, own.length < holders.length));
      }
      try {
        await m.query(`DELETE FROM portfolio.assets WHERE id = $1`, [asset.id]);
      } catch (err) {
        if (pgErrorCode(err) === FOREIGN_KEY_VIOLATION) throw new FailedPreconditionError(MSG.assetHeldConcurrently(identifier));
        throw err;
      }
      return asset.id;
    });
  }

  /**
   * The caller's assets and the public ones, filtered, in id order: at most MAX_LIST_ITEMS, chosen own
   * first and then others' oldest first, so no flood of public assets pushes the caller's own out of its
   * listing. `totalCount` is set only when the answer was cut (how many match).
   */
  async list(caller: Caller, filter: AssetFilter): Promise<{ assets: AssetView[]; totalCount: number | undefined }> {
    const { where, params } = listingWhere(caller, filter);
    const cap = this.limits.maxListItems;
    const rows: AssetRow[] = await this.ds.query(
      `SELECT * FROM (SELECT ${ASSET_COLUMNS} FROM portfolio.assets a WHERE ${where}
         ORDER BY (a.account_id = $1) DESC, a.id LIMIT $${params.length + 1}) capped ORDER BY capped.id`,
      [...params, cap],
    );
    const { items, totalCount } = await cappedListing(rows, cap, async () => {
      const [summary]: { count: string | number }[] = await this.ds.query(`SELECT count(*) AS count FROM portfolio.assets a WHERE ${where}`, params);
      return Number(summary?.count ?? 0);
    });
    return { assets: await this.withCurrentFrameworkNames(caller, items), totalCount };
  }

  /**
   * One page of the listing in the asked order (ASSET_ORDERS; default id), after the token's asset or
   * right before page_before's (keyset: LIMIT size + 1 rows, never the whole table), with the number of
   * matching assets (one aggregate). The same visibility and filters as list.
   */
  async page(
    caller: Caller,
    filter: AssetFilter,
    page: PageRequest & { before?: string | undefined; order?: { field: string; descending: boolean } | undefined },
  ): Promise<{ assets: AssetView[]; nextPageToken: string; totalCount: number; hasPreviousPage: boolean; itemPageTokens: string[] }> {
    const size = pageSize(page.size);
    const order = orderOf(ASSET_ORDERS, page.order);
    const before = decodeBeforeToken(page.token, page.before);
    const after = decodePageToken(page.token);
    const { where, params } = listingWhere(caller, filter);
    const count = async () => {
      const [summary]: { count: string | number }[] = await this.ds.query(`SELECT count(*) AS count FROM portfolio.assets a WHERE ${where}`, params);
      return Number(summary?.count ?? 0);
    };
    const keyset = keysetOf(order, before ?? after, params.length + 1, before !== undefined);
    const rows: AssetRow[] = await this.ds.query(
      `SELECT ${ASSET_COLUMNS}${keyset.select} FROM portfolio.assets a WHERE ${where}${keyset.where}
         ORDER BY ${keyset.orderBy} LIMIT $${params.length + keyset.params.length + 1}`,
      [...params, ...keyset.params, size + 1],
    );
    if (before) {
      const totalCount = await count();
      const { items, nextPageToken, hasPreviousPage, itemPageTokens } = pageBeforeOf(rows, size, before, (r) => r.id, order, totalCount);
      return { assets: await this.withCurrentFrameworkNames(caller, items), nextPageToken, totalCount, hasPreviousPage, itemPageTokens };
    }
    const totalCount = await totalOf(after, rows, size, count);
    const { items, nextPageToken, itemPageTokens } = pageOf(rows, size, after, (r) => r.id, order);
    return { assets: await this.withCurrentFrameworkNames(caller, items), nextPageToken, totalCount, hasPreviousPage: after !== undefined, itemPageTokens };
  }

  /**
   * Batch read (one query): the asset each identifier means for the caller, as requireVisible resolves
   * it; unknown, invisible and ambiguous ones (published by several accounts, none the caller's) are left out.
   */
  async byIdentifiers(caller: Caller, identifiers: string[]): Promise<AssetView[]> {
    // Blank ones name nothing; any other must be an identifier the service could have stored.
    const wanted = v.batch('asset_identifiers', identifiers.map((i) => i.trim()).filter((i) => i !== '').map((i) => v.text('asset_identifier', i)));
    if (wanted.length === 0) return [];
    const found: (AssetRow & { rn?: unknown; n?: unknown })[] = await this.ds.query(
      `SELECT * FROM (
         SELECT ${ASSET_COLUMNS},
           row_number() OVER (PARTITION BY a.asset_identifier ORDER BY (a.account_id = $1) DESC, a.id) AS rn,
           count(*) OVER (PARTITION BY a.asset_identifier) AS n
         FROM portfolio.assets a
         WHERE a.asset_identifier = ANY($2) AND (a.account_id = $1 OR a.visibility = 'public')) c
       WHERE c.rn = 1 AND (c."accountId" = $1 OR c.n = 1)`,
      [caller.accountId, wanted],
    );
    const rows: AssetRow[] = found.map(({ rn: _rn, n: _n, ...row }) => row);
    const order = new Map(wanted.map((w, i) => [w, i]));
    rows.sort((a, b) => order.get(a.assetIdentifier)! - order.get(b.assetIdentifier)!);
    return this.withCurrentFrameworkNames(caller, rows);
  }

  /**
   * The asset a caller means by an identifier: its own, else the one public asset of that identifier;
   * NOT_FOUND when there is none, FAILED_PRECONDITION when several accounts publish it.
   */
  async requireVisible(caller: Caller, assetIdentifier: string, m: EntityManager = this.ds.manager): Promise<AssetRow> {
    const identifier = v.text('asset_identifier', assetIdentifier);
    const asset = await this.visibleAsset(m, caller, identifier);
    if (!asset) throw new NotFoundError(MSG.noSuchAsset(identifier));
    return asset;
  }

  /**
   * Other accounts' positions hold a public asset on the terms it had: its publisher may correct its name
   * or value outstanding, but not point their impacts at another framework or currency. The asset's row
   * is locked (ownAsset), so no position of another account is added between this check and the change.
   */
  private async keepKeyFieldsHeldByOthers(m: EntityManager, caller: Caller, asset: AssetRow, frameworkId: number, currencyCode: string): Promise<void> {
    if (Number(asset.frameworkId) === Number(frameworkId) && asset.currencyCode === currencyCode) return;
    const others: unknown[] = await m.query(`SELECT 1 FROM portfolio.positions WHERE asset_id = $1 AND account_id <> $2 LIMIT 1`, [asset.id, caller.accountId]);
    if (others.length) {
      throw new FailedPreconditionError(MSG.assetKeyFieldsHeld(asset.assetIdentifier, asset.frameworkIdentifier, asset.currencyCode));
    }
  }

  private async ownAsset(m: EntityManager, caller: Caller, identifier: string, lock: boolean): Promise<AssetRow | undefined> {
    const rows: AssetRow[] = await m.query(
      `SELECT ${ASSET_COLUMNS} FROM portfolio.assets a WHERE a.account_id = $1 AND a.asset_identifier = $2${lock ? ' FOR UPDATE' : ''}`,
      [caller.accountId, identifier],
    );
    return rows[0];
  }

  private async visibleAsset(m: EntityManager, caller: Caller, identifier: string): Promise<AssetRow | undefined> {
    const rows: AssetRow[] = await m.query(
      `SELECT ${ASSET_COLUMNS} FROM portfolio.assets a
       WHERE a.asset_identifier = $2 AND (a.account_id = $1 OR a.visibility = 'public')
       ORDER BY (a.account_id = $1) DESC, a.id LIMIT ${REFERENCE_CANDIDATES}`,
      [caller.accountId, identifier],
    );
    return resolveReference(rows, caller.accountId, 'asset', identifier);
  }

  private async knownIssuerName(m: EntityManager, caller: Caller, issuerIdentifier: string): Promise<string | undefined> {
    const rows: { issuer_name: string }[] = await m.query(
      `SELECT issuer_name FROM portfolio.assets WHERE account_id = $1 AND issuer_identifier = $2 ORDER BY updated_at DESC, id DESC LIMIT 1`,
      [caller.accountId, issuerIdentifier],
    );
    return rows[0]?.issuer_name;
  }

  /**
   * Framework names as the taxonomy service knows them now (a framework may be renamed after the asset
   * was linked). When the taxonomy service cannot answer, the names stored with the assets are shown:
   * a listing of assets should not fail for a label.
   */
  private async withCurrentFrameworkNames(caller: Caller, rows: AssetRow[]): Promise<AssetView[]> {
    let current = new Map<number, { frameworkName: string; frameworkIdentifier: string }>();
    if (rows.length) {
      try {
        current = await this.frameworks.summariesByIds(caller, rows.map((r) => r.frameworkId));
      } catch (err) {
        this.log.warn({ err }, 'framework names unavailable; showing the names stored with the assets');
      }
    }
    return rows.map((r) => {
      const f = current.get(r.frameworkId);
      return {
        ...r,
        ...(f ? { frameworkName: f.frameworkName, frameworkIdentifier: f.frameworkIdentifier } : {}),
        owned: r.accountId === caller.accountId,
      };
    });
  }
}

/** The WHERE clause of a listing: the caller's assets and the public ones, filtered ($1 is the account). */
function listingWhere(caller: Caller, filter: AssetFilter): { where: string; params: unknown[] } {
  const where = [`(a.account_id = $1 OR a.visibility = 'public')`];
  const params: unknown[] = [caller.accountId];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replace('?', `$${params.length}`));
  };
  if (filter.visibility) add(`a.visibility = ?`, filter.visibility);
  if (filter.issuerIdentifier) add(`a.issuer_identifier = ?`, filter.issuerIdentifier.trim());
  if (filter.frameworkIdentifier) add(`a.framework_identifier = ?`, filter.frameworkIdentifier.trim());
  return { where: where.join(' AND '), params };
}

import type { EntityManager } from 'typeorm';
import type { ImpactRecord, ImpactRecordColumns, ImpactRecordPosition, ImpactRecordRowNames } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import { decodeTextPageToken, encodePageToken, type PageToken } from '@green-impact/shared/paging';

/**
 * The stored records of an investor's or a portfolio's positions for a year, a page at a time, in the
 * order of the whole-list read (position, sub category, indicator: unique within a year). Keyset: a page
 * starts after the (position, sub category, indicator) its token names, so each page is a few bounded
 * queries and nothing is held between pages (no cursor, no transaction: PGlite has one session for everyone).
 */

export type RecordScope = { investorId: number } | { portfolioId: number };

/** Records per page when the request gives none, and the most a page may hold. */
export const DEFAULT_RECORD_PAGE = 1_000;
export const MAX_RECORD_PAGE = 5_000;

/** A record's key in a page token: "position.subCategory.indicator". */
const RECORD_KEY = /^[1-9][0-9]{0,14}\.[0-9]{1,15}\.[0-9]{1,15}$/;

export interface RecordKey {
  positionId: number;
  subCategoryId: number;
  indicatorId: number;
}

export function recordPageSize(size: number): number {
  if (size === 0) return DEFAULT_RECORD_PAGE;
  if (!Number.isInteger(size) || size < 1 || size > MAX_RECORD_PAGE) {
    throw new InvalidArgumentError(`page_size must be an integer from 1 to ${MAX_RECORD_PAGE}, got ${size}.`, { field: 'page_size' });
  }
  return size;
}

export function recordLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 0) throw new InvalidArgumentError(`limit must be a whole number, got ${limit}.`, { field: 'limit' });
  return limit;
}

/** The record a token resumes after; absent or empty: the first. Anything else is INVALID_ARGUMENT. */
export function decodeRecordToken(token: string | undefined): PageToken<RecordKey> | undefined {
  const raw = decodeTextPageToken(token, RECORD_KEY);
  if (!raw) return undefined;
  const [positionId, subCategoryId, indicatorId] = raw.id.split('.').map(Number) as [number, number, number];
  if (![positionId, subCategoryId, indicatorId].every(Number.isSafeInteger)) {
    throw new InvalidArgumentError('page_token must be a next_page_token of this listing.', { field: 'page_token' });
  }
  return { offset: raw.offset, id: { positionId, subCategoryId, indicatorId } };
}

/** The key of a record, as a page token and a GraphQL cursor carry it. */
export const recordKeyOf = (r: Pick<ImpactRecord, 'positionId' | 'subCategoryId' | 'indicatorId'>) => `${r.positionId}.${r.subCategoryId}.${r.indicatorId}`;

export const recordToken = (offset: number, last: ImpactRecord) => encodePageToken({ offset, id: recordKeyOf(last) });

/** The scope's positions from id `fromId` on, at most `limit`, in id order (the investor's index, the portfolio's key). */
async function positionsFrom(m: EntityManager, scope: RecordScope, fromId: number, limit: number): Promise<number[]> {
  const rows: { id: number }[] =
    'investorId' in scope
      ? await m.query(`SELECT id FROM portfolio.positions WHERE investor_id = $1 AND id >= $2 ORDER BY id LIMIT $3`, [scope.investorId, fromId, limit])
      : await m.query(
          `SELECT position_id AS id FROM portfolio.portfolio_positions WHERE portfolio_id = $1 AND position_id >= $2 ORDER BY position_id LIMIT $3`,
          [scope.portfolioId, fromId, limit],
        );
  return rows.map((r) => r.id);
}

/** How many records a position has, as last seen: how many positions the next read takes. */
export interface RecordWalk {
  rowsPerPosition: number;
}

export const newRecordWalk = (): RecordWalk => ({ rowsPerPosition: 8 });

/** A position's computation inputs as a page of columns carries them, with the computation's id. */
const POSITION_COLUMNS = `
  c.id AS "computationId", c.position_id AS "positionId", c.reporting_year AS "reportingYear",
  inv.investor_identifier AS "investorIdentifier", a.asset_identifier AS "assetIdentifier",
  c.framework_identifier AS "frameworkIdentifier", c.framework_currency_code AS "frameworkCurrencyCode",
  c.position_amount_framework AS "positionAmountFrameworkCurrency", c.denominator AS "attributionDenominator",
  c.tau, c.fx_rate AS "fxRate", c.position_amount AS "positionAmount", c.position_currency_code AS "positionCurrencyCode",
  c.value_outstanding AS "frameworkValueOutstanding", c.allocated_amount AS "frameworkAllocatedAmount",
  c.value_outstanding_framework AS "valueOutstandingFramework",
  c.holding_days_in_year AS "holdingDaysInYear", c.days_in_year AS "daysInYear", c.computed_at AS "computedAt",
  c.stale_at IS NOT NULL AS stale`;

/** A record's own columns: its framework row's names and figures (the rest is its computation's). */
const ROW_COLUMNS = `
  i.computation_id AS "computationId", i.id,
  i.category_id AS "categoryId", i.category_name AS "categoryName",
  i.sub_category_id AS "subCategoryId", i.sub_category_name AS "subCategoryName",
  i.super_indicator_id AS "superIndicatorId", i.super_indicator_name AS "superIndicatorName",
  i.indicator_id AS "indicatorId", i.indicator_name AS "indicatorName", i.unit_id AS "unitId", i.unit_name AS "unitName",
  i.value, i.attributed_volume AS "attributedVolume", i.indicator_value AS "indicatorValue", i.sub_category_volume AS "subCategoryVolume"`;

type PositionRow = Omit<ImpactRecordPosition, 'computedAt'> & { computationId: number; computedAt: Date };
type RowRow = ImpactRecordRowNames & { computationId: number; id: number; value: number; attributedVolume: number; indicatorValue: number; subCategoryVolume: number };

export const emptyColumns = (): ImpactRecordColumns => ({ positions: [], rowNames: [], id: [], position: [], rowName: [], value: [], attributedVolume: [], indicatorValue: [], subCategoryVolume: [] });

/** The page's first `n` records: the last ones and the position only they had are dropped. */
export function keepRecords(c: ImpactRecordColumns, n: number): void {
  if (c.id.length <= n) return;
  for (const column of [c.id, c.position, c.rowName, c.value, c.attributedVolume, c.indicatorValue, c.subCategoryVolume]) column.length = n;
  c.positions.length = n === 0 ? 0 : c.position[n - 1]! + 1;
}

/**
 * Up to `limit` records of the scope's positions for the year after `after`, in columns. Each read takes
 * the next positions of the scope by id (about as many as `limit` records need, from what `walk` saw so
 * far), their computations, then their records by the (computation, sub category, indicator) index:
 * every query is bounded by the page whatever the planner knows of the tables, and none sorts the scope.
 * A record's row reads only its own 16 columns; its computation's inputs (and their timestamp, the
 * costly column to parse) are read once per position, not once per record.
 */
export async function recordPage(
  m: EntityManager,
  accountId: string,
  scope: RecordScope,
  year: number,
  after: RecordKey | undefined,
  limit: number,
  walk: RecordWalk = newRecordWalk(),
): Promise<ImpactRecordColumns> {
  const out = emptyColumns();
  // The page's row names by indicator id (a few each: the same indicator in other sub categories).
  const nameIndex = new Map<number, number[]>();
  let from = after ?? { positionId: 0, subCategoryId: -1, indicatorId: -1 };
  while (out.id.length < limit) {
    const want = limit - out.id.length;
    const take = Math.min(limit + 1, Math.ceil(want / walk.rowsPerPosition) + 1);
    const ids = await positionsFrom(m, scope, from.positionId, take);
    if (ids.length === 0) break;
    // Each plan below starts from the computations' (position, year) key and goes by primary keys and the
    // records' index, which holds without statistics (the records by computation_id = ANY(…) alone, or the
    // positions joined to their computations, were planned as scans of the whole table on a fresh one).
    const computations: PositionRow[] = await m.query(
      `SELECT ${POSITION_COLUMNS}
       FROM portfolio.impact_computations c
       JOIN portfolio.positions p ON p.id = c.position_id
       JOIN portfolio.investors inv ON inv.id = p.investor_id
       JOIN portfolio.assets a ON a.id = p.asset_id
       WHERE p.account_id = $1 AND c.reporting_year = $2 AND c.position_id = ANY($3::int[])`,
      [accountId, year, ids],
    );
    const rows: RowRow[] =
      computations.length === 0
        ? []
        : await m.query(
            `SELECT ${ROW_COLUMNS}
             FROM portfolio.impact_computations c JOIN portfolio.impacts i ON i.computation_id = c.id
             WHERE c.position_id = ANY($1::int[]) AND c.reporting_year = $2
               AND (c.position_id, i.sub_category_id, i.indicator_id) > ($3, $4, $5)
             ORDER BY c.position_id, i.sub_category_id, i.indicator_id
             LIMIT $6`,
            [computations.map((c) => c.positionId), year, from.positionId, from.subCategoryId, from.indicatorId, want],
          );
    appendRows(out, computations, rows, nameIndex);
    if (rows.length > 0) walk.rowsPerPosition = Math.max(1, rows.length / new Set(rows.map((r) => r.computationId)).size);
    if (ids.length < take) break; // the scope has no positions after these
    from = { positionId: ids.at(-1)! + 1, subCategoryId: -1, indicatorId: -1 };
  }
  return out;
}

/**
 * A framework row's names (ImpactRecordRowNames) as a record's row has them. Written out field by field, as
 * is the comparison below: asked once a record (240 000 for 10 000 positions), a loop over the field names
 * reads them by computed key, several times slower.
 */
const rowNamesOf = (r: RowRow): ImpactRecordRowNames => ({
  categoryId: r.categoryId,
  categoryName: r.categoryName,
  subCategoryId: r.subCategoryId,
  subCategoryName: r.subCategoryName,
  superIndicatorId: r.superIndicatorId,
  superIndicatorName: r.superIndicatorName,
  indicatorId: r.indicatorId,
  indicatorName: r.indicatorName,
  unitId: r.unitId,
  unitName: r.unitName,
});

/** Whether a record's row has names `n` (every field of ImpactRecordRowNames, as rowNamesOf lists them). */
const sameNames = (n: ImpactRecordRowNames, r: RowRow): boolean =>
  n.categoryId === r.categoryId &&
  n.categoryName === r.categoryName &&
  n.subCategoryId === r.subCategoryId &&
  n.subCategoryName === r.subCategoryName &&
  n.superIndicatorId === r.superIndicatorId &&
  n.superIndicatorName === r.superIndicatorName &&
  n.indicatorId === r.indicatorId &&
  n.indicatorName === r.indicatorName &&
  n.unitId === r.unitId &&
  n.unitName === r.unitName;

/** Appends rows (in record order) to a page of columns: their positions and names once each. */
function appendRows(out: ImpactRecordColumns, computations: PositionRow[], rows: RowRow[], nameIndex: Map<number, number[]>): void {
  const byComputation = new Map(computations.map((c) => [c.computationId, c]));
  let computationId = -1;
  for (const r of rows) {
    if (r.computationId !== computationId) {
      computationId = r.computationId;
      const { computationId: _, computedAt, ...position } = byComputation.get(computationId)!;
      out.positions.push({ ...position, computedAt: computedAt.toISOString() });
    }
    const sameIndicator = nameIndex.get(r.indicatorId) ?? [];
    let name = sameIndicator.find((n) => sameNames(out.rowNames[n]!, r));
    if (name === undefined) {
      name = out.rowNames.length;
      nameIndex.set(r.indicatorId, [...sameIndicator, name]);
      out.rowNames.push(rowNamesOf(r));
    }
    out.id.push(r.id);
    out.position.push(out.positions.length - 1);
    out.rowName.push(name);
    out.value.push(r.value);
    out.attributedVolume.push(r.attributedVolume);
    out.indicatorValue.push(r.indicatorValue);
    out.subCategoryVolume.push(r.subCategoryVolume);
  }
}

function scopeWhere(scope: RecordScope, param: number): string {
  return 'investorId' in scope
    ? `p.investor_id = $${param}`
    : `EXISTS (SELECT 1 FROM portfolio.portfolio_positions pp WHERE pp.portfolio_id = $${param} AND pp.position_id = p.id)`;
}

/** How many records the scope's positions have for the year. */
export async function countRecords(m: EntityManager, accountId: string, scope: RecordScope, year: number): Promise<number> {
  const [row] = (await m.query(
    `SELECT count(*)::int AS n
     FROM portfolio.impact_computations c
     JOIN portfolio.positions p ON p.id = c.position_id
     JOIN portfolio.impacts i ON i.computation_id = c.id
     WHERE p.account_id = $1 AND c.reporting_year = $2 AND ${scopeWhere(scope, 3)}`,
    [accountId, year, 'investorId' in scope ? scope.investorId : scope.portfolioId],
  )) as { n: number }[];
  return row?.n ?? 0;
}

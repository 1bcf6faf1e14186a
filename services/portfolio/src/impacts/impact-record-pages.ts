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
  c.stale_at IS NOT NULL AS stale, c.row_set AS "rowSet"`;

/**
 * A record's own columns: its figures. Its framework row's names and figures are its row set's (the same
 * on every computation of the set) and are read once a page from one computation of each set.
 */
const RECORD_COLUMNS = `
  i.computation_id AS "computationId", i.id, i.sub_category_id AS "subCategoryId", i.indicator_id AS "indicatorId",
  i.value, i.attributed_volume AS "attributedVolume"`;

/** A framework row of a row set: its names and figures. */
const SET_ROW_COLUMNS = `
  i.computation_id AS "computationId",
  i.category_id AS "categoryId", i.category_name AS "categoryName",
  i.sub_category_id AS "subCategoryId", i.sub_category_name AS "subCategoryName",
  i.super_indicator_id AS "superIndicatorId", i.super_indicator_name AS "superIndicatorName",
  i.indicator_id AS "indicatorId", i.indicator_name AS "indicatorName", i.unit_id AS "unitId", i.unit_name AS "unitName",
  i.indicator_value AS "indicatorValue", i.sub_category_volume AS "subCategoryVolume"`;

type PositionRow = Omit<ImpactRecordPosition, 'computedAt'> & { computationId: number; computedAt: Date; rowSet: string };
type RecordRow = { computationId: number; id: number; subCategoryId: number; indicatorId: number; value: number; attributedVolume: number };
type SetRowRow = ImpactRecordRowNames & { computationId: number; indicatorValue: number; subCategoryVolume: number };

/** A row set's framework row in a page: its names, figures and, once a record used it, its index in the page's rowNames. */
interface SetRow {
  names: ImpactRecordRowNames;
  indicatorValue: number;
  subCategoryVolume: number;
  name?: number;
}

/** A page's row sets: by row set, its framework rows by "subCategory.indicator". */
type PageRowSets = Map<string, Map<string, SetRow>>;

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
 * A record's row reads only its own 6 columns; its computation's inputs (and their timestamp, the
 * costly column to parse) are read once per position, and its framework row's names and figures once per
 * row set (computations with the same row set have the same rows, as ImpactTotalsReader relies on too),
 * not once per record: PostgreSQL produced, and this process parsed, the same 12 columns on every position.
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
  const rowSets: PageRowSets = new Map();
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
    await readRowSets(m, computations, rowSets);
    const rows: RecordRow[] =
      computations.length === 0
        ? []
        : await m.query(
            `SELECT ${RECORD_COLUMNS}
             FROM portfolio.impact_computations c JOIN portfolio.impacts i ON i.computation_id = c.id
             WHERE c.position_id = ANY($1::int[]) AND c.reporting_year = $2
               AND (c.position_id, i.sub_category_id, i.indicator_id) > ($3, $4, $5)
             ORDER BY c.position_id, i.sub_category_id, i.indicator_id
             LIMIT $6`,
            [computations.map((c) => c.positionId), year, from.positionId, from.subCategoryId, from.indicatorId, want],
          );
    appendRows(out, computations, rows, rowSets, nameIndex);
    if (rows.length > 0) walk.rowsPerPosition = Math.max(1, rows.length / new Set(rows.map((r) => r.computationId)).size);
    if (ids.length < take) break; // the scope has no positions after these
    from = { positionId: ids.at(-1)! + 1, subCategoryId: -1, indicatorId: -1 };
  }
  return out;
}

/** Reads the framework rows of the row sets of `computations` that the page has not read yet, from one computation each. */
async function readRowSets(m: EntityManager, computations: PositionRow[], rowSets: PageRowSets): Promise<void> {
  const samples = new Map<string, number>();
  for (const c of computations) if (!rowSets.has(c.rowSet) && !samples.has(c.rowSet)) samples.set(c.rowSet, c.computationId);
  if (samples.size === 0) return;
  const rows: SetRowRow[] = await m.query(`SELECT ${SET_ROW_COLUMNS} FROM portfolio.impacts i WHERE i.computation_id = ANY($1::int[])`, [[...samples.values()]]);
  const setOf = new Map([...samples].map(([rowSet, computationId]) => [computationId, rowSet]));
  for (const rowSet of samples.keys()) rowSets.set(rowSet, new Map());
  for (const { computationId, indicatorValue, subCategoryVolume, ...names } of rows) {
    rowSets.get(setOf.get(computationId)!)!.set(`${names.subCategoryId}.${names.indicatorId}`, { names, indicatorValue, subCategoryVolume });
  }
}

/** Whether two framework rows have the same names (every field of ImpactRecordRowNames). */
const sameNames = (n: ImpactRecordRowNames, r: ImpactRecordRowNames): boolean =>
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

/** The index in the page's rowNames of a row set's framework row, added when no record of the page had its names yet. */
function nameOf(out: ImpactRecordColumns, row: SetRow, nameIndex: Map<number, number[]>): number {
  if (row.name !== undefined) return row.name;
  const sameIndicator = nameIndex.get(row.names.indicatorId) ?? [];
  row.name = sameIndicator.find((n) => sameNames(out.rowNames[n]!, row.names));
  if (row.name === undefined) {
    row.name = out.rowNames.length;
    nameIndex.set(row.names.indicatorId, [...sameIndicator, row.name]);
    out.rowNames.push({ ...row.names });
  }
  return row.name;
}

/** Appends records (in record order) to a page of columns: their positions and names once each. */
function appendRows(out: ImpactRecordColumns, computations: PositionRow[], rows: RecordRow[], rowSets: PageRowSets, nameIndex: Map<number, number[]>): void {
  const byComputation = new Map(computations.map((c) => [c.computationId, c]));
  let computationId = -1;
  let setRows = new Map<string, SetRow>();
  for (const r of rows) {
    if (r.computationId !== computationId) {
      computationId = r.computationId;
      const { computationId: _, computedAt, rowSet, ...position } = byComputation.get(computationId)!;
      out.positions.push({ ...position, computedAt: computedAt.toISOString() });
      setRows = rowSets.get(rowSet)!;
    }
    const row = setRows.get(`${r.subCategoryId}.${r.indicatorId}`);
    if (!row) throw new Error(`impact ${r.id}: its computation's row set has no row of sub category ${r.subCategoryId}, indicator ${r.indicatorId}`);
    out.id.push(r.id);
    out.position.push(out.positions.length - 1);
    out.rowName.push(nameOf(out, row, nameIndex));
    out.value.push(r.value);
    out.attributedVolume.push(r.attributedVolume);
    out.indicatorValue.push(row.indicatorValue);
    out.subCategoryVolume.push(row.subCategoryVolume);
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

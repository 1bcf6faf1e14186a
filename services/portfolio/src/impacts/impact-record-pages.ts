import type { EntityManager } from 'typeorm';
import type { ImpactRecord } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import { decodeTextPageToken, encodePageToken, type PageToken } from '@green-impact/shared/paging';
import { RECORD_COLUMNS, RECORD_SOURCE } from './impact-store.js';

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

/**
 * Up to `limit` records of the scope's positions for the year after `after`. Each read takes the next
 * positions of the scope by id (about as many as `limit` records need, from what `walk` saw so far) and
 * their records by the (computation, sub category, indicator) index: every query is bounded by the page,
 * whatever the planner knows of the tables, and none sorts the scope.
 */
export async function recordPage(
  m: EntityManager,
  accountId: string,
  scope: RecordScope,
  year: number,
  after: RecordKey | undefined,
  limit: number,
  walk: RecordWalk = newRecordWalk(),
): Promise<ImpactRecord[]> {
  const out: ImpactRecord[] = [];
  let from = after ?? { positionId: 0, subCategoryId: -1, indicatorId: -1 };
  while (out.length < limit) {
    const want = limit - out.length;
    const take = Math.min(limit + 1, Math.ceil(want / walk.rowsPerPosition) + 1);
    const ids = await positionsFrom(m, scope, from.positionId, take);
    if (ids.length === 0) break;
    const rows: (Omit<ImpactRecord, 'computedAt'> & { computedAt: Date })[] = await m.query(
      `SELECT ${RECORD_COLUMNS}
       FROM ${RECORD_SOURCE}
       WHERE p.account_id = $1 AND c.reporting_year = $2 AND c.position_id = ANY($3::int[])
         AND (c.position_id, i.sub_category_id, i.indicator_id) > ($4, $5, $6)
       ORDER BY c.position_id, i.sub_category_id, i.indicator_id
       LIMIT $7`,
      [accountId, year, ids, from.positionId, from.subCategoryId, from.indicatorId, want],
    );
    for (const r of rows) out.push({ ...r, computedAt: r.computedAt.toISOString() });
    if (rows.length > 0) walk.rowsPerPosition = Math.max(1, rows.length / new Set(rows.map((r) => r.positionId)).size);
    if (ids.length < take) break; // the scope has no positions after these
    from = { positionId: ids.at(-1)! + 1, subCategoryId: -1, indicatorId: -1 };
  }
  return out;
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

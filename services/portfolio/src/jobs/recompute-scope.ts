import type { EntityManager } from 'typeorm';
import type { RecomputeJobRow } from './recompute-job-store.js';

/** One (position, year) a job recomputes. */
export interface ScopeItem {
  positionId: number;
  year: number;
}

export interface ScopeBatch {
  items: ScopeItem[];
  /** What the job's cursor becomes once the batch committed. */
  cursor: number;
}

type Job = Pick<RecomputeJobRow, 'accountId' | 'scope' | 'scopeId' | 'reportingYear'>;

/**
 * The rows a job walks, in id order after its cursor: positions of the investor, portfolio or account
 * (stale scope: the account's stale computations, keyed by computation id). Positions added or removed
 * while a job runs are simply found or not when its cursor gets there.
 */
function scopeQuery(job: Job): { from: string; key: string; select: string; params: unknown[] } {
  const params: unknown[] = [job.accountId];
  switch (job.scope) {
    case 'investor':
      params.push(job.scopeId);
      return { from: `portfolio.positions p WHERE p.account_id = $1 AND p.investor_id = $2`, key: 'p.id', select: 'p.id AS "positionId"', params };
    case 'portfolio':
      params.push(job.scopeId);
      return {
        from: `portfolio.portfolio_positions pp JOIN portfolio.positions p ON p.id = pp.position_id
               WHERE p.account_id = $1 AND pp.portfolio_id = $2`,
        key: 'p.id',
        select: 'p.id AS "positionId"',
        params,
      };
    case 'account':
      params.push(0);
      return { from: `portfolio.positions p WHERE p.account_id = $1 AND $2::int = 0`, key: 'p.id', select: 'p.id AS "positionId"', params };
    case 'stale':
      params.push(0);
      return {
        from: `portfolio.impact_computations c JOIN portfolio.positions p ON p.id = c.position_id
               WHERE p.account_id = $1 AND $2::int = 0 AND c.stale_at IS NOT NULL`,
        key: 'c.id',
        select: 'c.position_id AS "positionId", c.reporting_year AS year',
        params,
      };
  }
}

export async function countScope(m: EntityManager, job: Job): Promise<number> {
  const q = scopeQuery(job);
  const [row] = (await m.query(`SELECT count(*)::int AS n FROM ${q.from}`, q.params)) as { n: number }[];
  return row?.n ?? 0;
}

export async function nextBatch(m: EntityManager, job: Job, cursor: number, limit: number): Promise<ScopeBatch> {
  const q = scopeQuery(job);
  const rows: (ScopeItem & { key: number })[] = await m.query(
    `SELECT ${q.key} AS key, ${q.select} FROM ${q.from} AND ${q.key} > $3 ORDER BY ${q.key} LIMIT $4`,
    [...q.params, cursor, limit],
  );
  return {
    items: rows.map((r) => ({ positionId: r.positionId, year: r.year ?? job.reportingYear! })),
    cursor: rows.length > 0 ? rows[rows.length - 1]!.key : cursor,
  };
}

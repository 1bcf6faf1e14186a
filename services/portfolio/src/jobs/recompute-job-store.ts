import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';

export type RecomputeScopeName = 'investor' | 'portfolio' | 'account' | 'stale';
export type RecomputeStatusName = 'queued' | 'running' | 'completed' | 'failed';
/** requested: a client started it; taxonomy-change: a framework or FX change made impacts stale. */
export type RecomputeReason = 'requested' | 'taxonomy-change';

export interface RecomputeJobRow {
  id: string;
  accountId: string;
  accountRole: 'operator' | 'user';
  scope: RecomputeScopeName;
  scopeIdentifier: string;
  /** The investor's or portfolio's row id. */
  scopeId: number | null;
  reportingYear: number | null;
  reason: RecomputeReason;
  status: RecomputeStatusName;
  total: number;
  done: number;
  /** Last position id (stale scope: computation id) whose batch committed. */
  cursor: number;
  error: string;
  attempts: number;
  owner: string | null;
  /** The person who asked for it (an OpenID Connect subject and issuer); null for an API key or the service itself. */
  actedBySubject: string | null;
  actedByIssuer: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export type NewRecomputeJob = Pick<RecomputeJobRow, 'accountId' | 'accountRole' | 'scope' | 'scopeIdentifier' | 'scopeId' | 'reportingYear' | 'reason'>
  & Partial<Pick<RecomputeJobRow, 'actedBySubject' | 'actedByIssuer'>>;

const COLUMNS = `id, account_id AS "accountId", account_role AS "accountRole", scope, scope_identifier AS "scopeIdentifier",
  scope_id AS "scopeId", reporting_year AS "reportingYear", reason, status, total, done, cursor, error, attempts, owner,
  acted_by_subject AS "actedBySubject", acted_by_issuer AS "actedByIssuer", created_at AS "createdAt", started_at AS "startedAt", finished_at AS "finishedAt"`;

/** UPDATE … RETURNING answers [rows, count] through TypeORM on PostgreSQL. */
const returned = <T>(result: unknown): T[] => (Array.isArray(result) && Array.isArray(result[0]) ? (result[0] as T[]) : []);

/**
 * The recompute jobs table (migration 1766275200000): every state a job goes through is a row update, so
 * any replica answers a job's progress and any replica can take a job over.
 */
export class RecomputeJobStore {
  constructor(private readonly ds: DataSource) {}

  /**
   * Queues a job, unless the same recompute is queued or running (a stale job: unless one is queued), in
   * which case that job is answered with created = false.
   */
  async enqueue(job: NewRecomputeJob): Promise<{ job: RecomputeJobRow; created: boolean }> {
    for (let attempt = 0; ; attempt++) {
      const inserted: RecomputeJobRow[] = await this.ds.query(
        `INSERT INTO portfolio.recompute_jobs (id, account_id, account_role, scope, scope_identifier, scope_id, reporting_year, reason, status,
           acted_by_subject, acted_by_issuer)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'queued', $9, $10) ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
        [randomUUID(), job.accountId, job.accountRole, job.scope, job.scopeIdentifier, job.scopeId, job.reportingYear, job.reason,
          job.actedBySubject ?? null, job.actedByIssuer ?? null],
      );
      if (inserted[0]) return { job: inserted[0], created: true };
      const open: RecomputeJobRow[] = await this.ds.query(
        `SELECT ${COLUMNS} FROM portfolio.recompute_jobs
         WHERE account_id = $1 AND scope = $2 AND scope_identifier = $3 AND reporting_year IS NOT DISTINCT FROM $4
           AND (status = 'queued' OR (status = 'running' AND scope <> 'stale'))
         ORDER BY created_at LIMIT 1`,
        [job.accountId, job.scope, job.scopeIdentifier, job.reportingYear],
      );
      // The job in the way finished between the two statements: try again.
      if (open[0]) return { job: open[0], created: false };
      if (attempt >= 3) throw new Error('recompute job could not be queued');
    }
  }

  async get(accountId: string, id: string): Promise<RecomputeJobRow | undefined> {
    const rows: RecomputeJobRow[] = await this.ds.query(`SELECT ${COLUMNS} FROM portfolio.recompute_jobs WHERE id = $1 AND account_id = $2`, [id, accountId]);
    return rows[0];
  }

  async list(accountId: string, limit: number, statuses: RecomputeStatusName[]): Promise<RecomputeJobRow[]> {
    return this.ds.query(
      `SELECT ${COLUMNS} FROM portfolio.recompute_jobs
       WHERE account_id = $1 AND (cardinality($2::text[]) = 0 OR status = ANY($2::text[]))
       ORDER BY created_at DESC, id LIMIT $3`,
      [accountId, statuses, limit],
    );
  }

  /**
   * A page of the account's jobs in the list's order (newest first, then id) after the job afterId
   * (keyset on its created_at and id: LIMIT limit rows, never the whole table), with the number of
   * matching jobs; undefined when afterId names no job of the account. The anchor is looked up whatever
   * its status now, so a job that changed state between pages still marks where the next page starts.
   */
  async page(accountId: string, statuses: RecomputeStatusName[], afterId: string | undefined, limit: number): Promise<{ rows: RecomputeJobRow[]; count: number } | undefined> {
    const filter = `account_id = $1 AND (cardinality($2::text[]) = 0 OR status = ANY($2::text[]))`;
    if (afterId !== undefined) {
      const anchor: unknown[] = await this.ds.query(`SELECT 1 FROM portfolio.recompute_jobs WHERE id = $1 AND account_id = $2`, [afterId, accountId]);
      if (anchor.length === 0) return undefined;
    }
    const [summary]: { count: string | number }[] = await this.ds.query(`SELECT count(*) AS count FROM portfolio.recompute_jobs WHERE ${filter}`, [accountId, statuses]);
    const rows: RecomputeJobRow[] = await this.ds.query(
      afterId === undefined
        ? `SELECT ${COLUMNS} FROM portfolio.recompute_jobs WHERE ${filter} ORDER BY created_at DESC, id LIMIT $3`
        : `WITH t AS (SELECT created_at AS at FROM portfolio.recompute_jobs WHERE id = $4)
           SELECT ${COLUMNS} FROM portfolio.recompute_jobs, t
           WHERE ${filter} AND (created_at < t.at OR (created_at = t.at AND id > $4))
           ORDER BY created_at DESC, id LIMIT $3`,
      afterId === undefined ? [accountId, statuses, limit] : [accountId, statuses, limit, afterId],
    );
    return { rows, count: Number(summary?.count ?? 0) };
  }

  /**
   * Takes the oldest queued job, or a running one whose owner stopped renewing its lease, for owner.
   * SKIP LOCKED: replicas claiming at once take different jobs.
   */
  async claim(owner: string, leaseMs: number): Promise<RecomputeJobRow | undefined> {
    const result = await this.ds.query(
      `UPDATE portfolio.recompute_jobs j SET status = 'running', owner = $1, heartbeat_at = now(), attempts = attempts + 1,
         started_at = coalesce(started_at, now())
       WHERE j.id = (
         SELECT id FROM portfolio.recompute_jobs
         WHERE status = 'queued' OR (status = 'running' AND heartbeat_at < now() - $2 * interval '1 millisecond')
         ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING ${COLUMNS}`,
      [owner, leaseMs],
    );
    return returned<RecomputeJobRow>(result)[0];
  }

  /** Renews the lease; false when another replica took the job over (or it ended). */
  async heartbeat(id: string, owner: string): Promise<boolean> {
    const result = await this.ds.query(
      `UPDATE portfolio.recompute_jobs SET heartbeat_at = now() WHERE id = $1 AND owner = $2 AND status = 'running' RETURNING id`,
      [id, owner],
    );
    return returned(result).length > 0;
  }

  /** Sets the total when the job starts running for the first time. */
  async setTotal(id: string, owner: string, total: number): Promise<void> {
    await this.ds.query(`UPDATE portfolio.recompute_jobs SET total = $3 WHERE id = $1 AND owner = $2`, [id, owner, total]);
  }

  /**
   * In the batch's transaction: records the batch as done. Throws when the job is no longer this owner's
   * (taken over after a stall), which rolls the batch back: the new owner does it.
   */
  async advance(m: EntityManager, id: string, owner: string, done: number, cursor: number): Promise<void> {
    const result = await m.query(
      `UPDATE portfolio.recompute_jobs SET done = done + $3, cursor = $4, heartbeat_at = now(),
         total = greatest(total, done + $3)
       WHERE id = $1 AND owner = $2 AND status = 'running' RETURNING id`,
      [id, owner, done, cursor],
    );
    if (returned(result).length === 0) throw new LostJobError(id);
  }

  /** Back to the queue (this replica stops): another replica resumes it from its cursor. */
  async release(id: string, owner: string): Promise<void> {
    await this.ds.query(`UPDATE portfolio.recompute_jobs SET status = 'queued', owner = NULL WHERE id = $1 AND owner = $2 AND status = 'running'`, [id, owner]);
  }

  async finish(id: string, owner: string, status: 'completed' | 'failed', error = ''): Promise<void> {
    await this.ds.query(
      `UPDATE portfolio.recompute_jobs SET status = $3, error = $4, finished_at = now(), heartbeat_at = now()
       WHERE id = $1 AND owner = $2 AND status = 'running'`,
      [id, owner, status, error],
    );
  }
}

/** The job was taken over by another replica while this one worked on it. */
export class LostJobError extends Error {
  constructor(id: string) {
    super(`recompute job ${id} is no longer owned by this replica`);
    this.name = 'LostJobError';
  }
}

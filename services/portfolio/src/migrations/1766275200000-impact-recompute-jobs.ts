import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Large recomputes run as tracked jobs whose progress any replica reads (recompute_jobs), and a framework
 * or FX change marks the computations made of the old figures stale (stale_at) until a job recomputes them.
 *
 * A job walks its positions (stale scope: computations) in id order; each batch's transaction writes the
 * records and advances `cursor` and `done`, so a job resumed after a crash starts after the last batch that
 * committed. A running job keeps `heartbeat_at` fresh; one whose heartbeat is older than the lease is taken
 * over by another replica. One queued-or-running job per requested recompute (the same start answers it),
 * and one queued stale job per account.
 */
export class ImpactRecomputeJobs1766275200000 implements MigrationInterface {
  name = 'ImpactRecomputeJobs1766275200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE portfolio.impact_computations ADD COLUMN stale_at timestamptz`);
    await q.query(`CREATE INDEX impact_computations_stale_idx ON portfolio.impact_computations (position_id) WHERE stale_at IS NOT NULL`);
    await q.query(`CREATE INDEX impact_computations_framework_idx ON portfolio.impact_computations (framework_id, reporting_year)`);
    await q.query(`
      CREATE TABLE portfolio.recompute_jobs (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        account_role varchar(16) NOT NULL,
        scope varchar(16) NOT NULL CHECK (scope IN ('investor', 'portfolio', 'account', 'stale')),
        scope_identifier text NOT NULL DEFAULT '',
        scope_id int,
        reporting_year int,
        reason varchar(32) NOT NULL,
        status varchar(16) NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed')),
        total int NOT NULL DEFAULT 0,
        done int NOT NULL DEFAULT 0,
        cursor int NOT NULL DEFAULT 0,
        error text NOT NULL DEFAULT '',
        attempts int NOT NULL DEFAULT 0,
        owner text,
        heartbeat_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        finished_at timestamptz
      )`);
    await q.query(`CREATE INDEX recompute_jobs_account_idx ON portfolio.recompute_jobs (account_id, created_at DESC)`);
    await q.query(`CREATE INDEX recompute_jobs_open_idx ON portfolio.recompute_jobs (created_at) WHERE status IN ('queued', 'running')`);
    await q.query(`
      CREATE UNIQUE INDEX recompute_jobs_requested_uq ON portfolio.recompute_jobs
        (account_id, scope, scope_identifier, coalesce(reporting_year, 0))
        WHERE status IN ('queued', 'running') AND scope <> 'stale'`);
    await q.query(`CREATE UNIQUE INDEX recompute_jobs_stale_uq ON portfolio.recompute_jobs (account_id) WHERE status = 'queued' AND scope = 'stale'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE portfolio.recompute_jobs`);
    await q.query(`DROP INDEX portfolio.impact_computations_framework_idx`);
    await q.query(`ALTER TABLE portfolio.impact_computations DROP COLUMN stale_at`);
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Whether every asset's framework has been recorded with the taxonomy service once (issue 46; AssetStore
 * recordEveryHolder): assets written before RecordFrameworkHolder existed had no reference there, so the
 * service records them all at its first start after this migration and then notes it here. One row at most.
 */
export class FrameworkHolderBackfill1767484800000 implements MigrationInterface {
  name = 'FrameworkHolderBackfill1767484800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS portfolio.framework_holder_backfill (
        single boolean PRIMARY KEY DEFAULT true CHECK (single),
        done_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS portfolio.framework_holder_backfill`);
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which assets of other accounts refer to a framework (issue 46; services/taxonomy/src/frameworks/holders.ts):
 * the portfolio service records them (RecordFrameworkHolder), and the framework's publisher may not change
 * its currency while any is left. One row per (framework, holding account, asset identifier), so recording
 * the same reference twice keeps one row; a removed framework takes its rows with it. Idempotent, like
 * every migration that may meet a schema an earlier run half made.
 */
export class FrameworkHolders1763856000008 implements MigrationInterface {
  name = 'FrameworkHolders1763856000008';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS taxonomy.framework_holders (
        framework_id int NOT NULL REFERENCES taxonomy.frameworks(id) ON DELETE CASCADE,
        account_id uuid NOT NULL,
        asset_identifier varchar(255) NOT NULL CHECK (btrim(asset_identifier) <> ''),
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (framework_id, account_id, asset_identifier)
      )`);
    await q.query(`CREATE INDEX IF NOT EXISTS framework_holders_asset_idx ON taxonomy.framework_holders (account_id, asset_identifier)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS taxonomy.framework_holders`);
  }
}

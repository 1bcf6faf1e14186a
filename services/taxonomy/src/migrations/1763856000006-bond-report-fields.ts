import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The EU Green Bond Standard's report fields (issue 37; services/taxonomy/src/frameworks/bond-report.ts):
 * on the framework the issuer's LEI, the external reviewer and the approving authority; per year the
 * reporting period and where unallocated proceeds are placed. Nullable: frameworks stay as they were.
 */
export class BondReportFields1763856000006 implements MigrationInterface {
  name = 'BondReportFields1763856000006';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE taxonomy.frameworks
        ADD COLUMN issuer_lei varchar(20) CHECK (issuer_lei ~ '^[A-Z0-9]{18}[0-9]{2}$'),
        ADD COLUMN external_reviewer varchar(255) CHECK (btrim(external_reviewer) <> ''),
        ADD COLUMN approving_authority varchar(255) CHECK (btrim(approving_authority) <> '')`);
    await q.query(`
      ALTER TABLE taxonomy.framework_year_specifics
        ADD COLUMN reporting_period_start date,
        ADD COLUMN reporting_period_end date,
        ADD COLUMN unallocated_proceeds_placement varchar(1000) CHECK (btrim(unallocated_proceeds_placement) <> ''),
        ADD CONSTRAINT framework_year_specifics_period_check CHECK (
          (reporting_period_start IS NULL) = (reporting_period_end IS NULL) AND reporting_period_end >= reporting_period_start)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE taxonomy.framework_year_specifics
        DROP CONSTRAINT framework_year_specifics_period_check,
        DROP COLUMN unallocated_proceeds_placement, DROP COLUMN reporting_period_end, DROP COLUMN reporting_period_start`);
    await q.query(`ALTER TABLE taxonomy.frameworks DROP COLUMN approving_authority, DROP COLUMN external_reviewer, DROP COLUMN issuer_lei`);
  }
}

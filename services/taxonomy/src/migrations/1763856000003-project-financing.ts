import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A project's financing as ICMA's impact table reports it (issue 37): where it is (ISO 3166-1 alpha-2), its
 * lifetime, new financing or refinancing; and per year its total cost and the issuer's signed amount, whose
 * ratio is the issuer's share of the project's financing. All nullable: projects added before stay as they
 * were, and buildFrameworkFromProjects keeps the spec's plain sum for them. The checks repeat the service's
 * rules (services/taxonomy/src/projects/financing.ts) so no other writer can store what it refuses.
 */
export class ProjectFinancing1763856000003 implements MigrationInterface {
  name = 'ProjectFinancing1763856000003';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE taxonomy.projects
        ADD COLUMN country_code varchar(2) CHECK (country_code ~ '^[A-Z]{2}$'),
        ADD COLUMN lifetime_years int CHECK (lifetime_years BETWEEN 1 AND 200),
        ADD COLUMN financing_type varchar(11) CHECK (financing_type IN ('financing', 'refinancing'))`);
    await q.query(`
      ALTER TABLE taxonomy.project_year_specifics
        ADD COLUMN total_project_cost double precision
          CHECK (total_project_cost > 0 AND total_project_cost < 'Infinity'::double precision),
        ADD COLUMN signed_amount double precision
          CHECK (signed_amount >= 0 AND signed_amount < 'Infinity'::double precision),
        ADD CONSTRAINT project_year_specifics_signed_within_cost
          CHECK (signed_amount IS NULL OR total_project_cost IS NULL OR signed_amount <= total_project_cost)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE taxonomy.project_year_specifics
        DROP CONSTRAINT project_year_specifics_signed_within_cost,
        DROP COLUMN signed_amount,
        DROP COLUMN total_project_cost`);
    await q.query(`ALTER TABLE taxonomy.projects DROP COLUMN financing_type, DROP COLUMN lifetime_years, DROP COLUMN country_code`);
  }
}

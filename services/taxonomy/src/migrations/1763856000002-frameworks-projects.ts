import type { MigrationInterface, QueryRunner } from 'typeorm';

const YEAR = `reporting_year int NOT NULL CHECK (reporting_year BETWEEN 1900 AND 2200)`;
const AMOUNT = (column: string) =>
  `${column} double precision NOT NULL CHECK (${column} >= 0 AND ${column} < 'Infinity'::double precision)`;
const STAMPS = `
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()`;
/** Columns of an item an account owns (frameworks, projects): identifier unique per account, a visibility. */
const OWNED = `
  id serial PRIMARY KEY,
  account_id uuid NOT NULL,
  identifier varchar(255) NOT NULL CHECK (btrim(identifier) <> ''),
  name varchar(255) NOT NULL CHECK (btrim(name) <> ''),
  currency_code varchar(3) NOT NULL REFERENCES taxonomy.currencies(code) ON DELETE RESTRICT,
  visibility varchar(8) NOT NULL DEFAULT 'private' CHECK (visibility IN ('private', 'public')),
  ${STAMPS}`;

/** Per (owner, sub category, indicator) figures of a year; the taxonomy items are held with RESTRICT. */
function rowTable(owner: 'framework' | 'project'): string {
  return `
    CREATE TABLE taxonomy.${owner}_rows (
      ${owner}_id int NOT NULL REFERENCES taxonomy.${owner}s(id) ON DELETE CASCADE,
      ${YEAR},
      sub_category_id int NOT NULL,
      indicator_id int NOT NULL,
      ${AMOUNT('sub_category_volume')},
      ${AMOUNT('indicator_value')},
      ${STAMPS},
      PRIMARY KEY (${owner}_id, sub_category_id, indicator_id),
      CONSTRAINT ${owner}_rows_sub_category_fk FOREIGN KEY (sub_category_id, reporting_year)
        REFERENCES taxonomy.sub_categories(id, reporting_year) ON DELETE RESTRICT,
      CONSTRAINT ${owner}_rows_indicator_fk FOREIGN KEY (indicator_id, reporting_year)
        REFERENCES taxonomy.indicators(id, reporting_year) ON DELETE RESTRICT
    )`;
}

/**
 * Frameworks and projects (spec §4.6–§4.7). Both belong to an account (the gateway's caller; no foreign
 * key: accounts live in the identity service) and are unique by identifier within it. Year specifics
 * and rows go with their framework / project (CASCADE); a project holds its framework with RESTRICT.
 * Rows hold their sub category and indicator with composite (id, year) keys, so a row of 2024 can only
 * name items of 2024, and the taxonomy removals are refused while rows use an item.
 */
export class FrameworksProjects1763856000002 implements MigrationInterface {
  name = 'FrameworksProjects1763856000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE taxonomy.frameworks (
        ${OWNED},
        CONSTRAINT frameworks_account_identifier_uq UNIQUE (account_id, identifier)
      )`);
    await q.query(`CREATE INDEX frameworks_public_identifier_idx ON taxonomy.frameworks (identifier) WHERE visibility = 'public'`);
    await q.query(`CREATE INDEX frameworks_currency_idx ON taxonomy.frameworks (currency_code)`);
    await q.query(`
      CREATE TABLE taxonomy.framework_year_specifics (
        framework_id int NOT NULL REFERENCES taxonomy.frameworks(id) ON DELETE CASCADE,
        ${YEAR},
        ${AMOUNT('value_outstanding')},
        ${AMOUNT('allocated_amount')},
        value_outstanding_framework boolean NOT NULL,
        ${STAMPS},
        PRIMARY KEY (framework_id, reporting_year)
      )`);
    await q.query(rowTable('framework'));

    await q.query(`
      CREATE TABLE taxonomy.projects (
        ${OWNED},
        framework_id int NOT NULL REFERENCES taxonomy.frameworks(id) ON DELETE RESTRICT,
        CONSTRAINT projects_account_identifier_uq UNIQUE (account_id, identifier)
      )`);
    await q.query(`CREATE INDEX projects_public_identifier_idx ON taxonomy.projects (identifier) WHERE visibility = 'public'`);
    await q.query(`CREATE INDEX projects_currency_idx ON taxonomy.projects (currency_code)`);
    await q.query(`CREATE INDEX projects_framework_idx ON taxonomy.projects (framework_id)`);
    await q.query(`
      CREATE TABLE taxonomy.project_year_specifics (
        project_id int NOT NULL REFERENCES taxonomy.projects(id) ON DELETE CASCADE,
        ${YEAR},
        ${AMOUNT('allocated_amount')},
        ${STAMPS},
        PRIMARY KEY (project_id, reporting_year)
      )`);
    await q.query(rowTable('project'));

    for (const owner of ['framework', 'project']) {
      await q.query(`CREATE INDEX ${owner}_rows_year_idx ON taxonomy.${owner}_rows (${owner}_id, reporting_year)`);
      await q.query(`CREATE INDEX ${owner}_rows_sub_category_idx ON taxonomy.${owner}_rows (sub_category_id)`);
      await q.query(`CREATE INDEX ${owner}_rows_indicator_idx ON taxonomy.${owner}_rows (indicator_id)`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['project_rows', 'project_year_specifics', 'projects', 'framework_rows', 'framework_year_specifics', 'frameworks']) {
      await q.query(`DROP TABLE taxonomy.${table}`);
    }
  }
}

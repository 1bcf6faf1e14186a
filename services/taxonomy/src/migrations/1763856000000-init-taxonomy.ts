import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Translation table of one taxonomy item table: one row per (item, language); goes with the item. */
function translationTable(itemTable: string, fk: string): string {
  return `
    CREATE TABLE taxonomy.${fk.replace(/_id$/, '')}_translations (
      ${fk} int NOT NULL REFERENCES taxonomy.${itemTable}(id) ON DELETE CASCADE,
      language_code varchar(8) NOT NULL REFERENCES taxonomy.languages(code),
      name varchar(255) NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (${fk}, language_code)
    )`;
}

const YEAR = `reporting_year int NOT NULL CHECK (reporting_year BETWEEN 1900 AND 2200)`;
const NAMED = `
  name varchar(255) NOT NULL CHECK (btrim(name) <> ''),
  language_code varchar(8) NOT NULL REFERENCES taxonomy.languages(code),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()`;

/**
 * Tables of the taxonomy schema. Names are unique case-insensitively within their scope (the year for
 * categories, units and super indicators; the parent for sub categories and indicators). Every link
 * carries the reporting year in a composite foreign key, so the database itself refuses a link across
 * years. Children hold their parents with ON DELETE RESTRICT (the service explains the refusal first);
 * translations and goal links go with their item (ON DELETE CASCADE).
 */
export class InitTaxonomy1763856000000 implements MigrationInterface {
  name = 'InitTaxonomy1763856000000';

  async up(q: QueryRunner): Promise<void> {
    // ---- reference data shared by every year ----
    await q.query(`
      CREATE TABLE taxonomy.languages (
        id int PRIMARY KEY,
        code varchar(8) NOT NULL UNIQUE,
        name varchar(64) NOT NULL
      )`);
    for (const goal of ['sdg', 'eu_objective']) {
      await q.query(`
        CREATE TABLE taxonomy.${goal}s (
          id int PRIMARY KEY,
          goal_no int NOT NULL UNIQUE,
          name varchar(255) NOT NULL,
          language_code varchar(8) NOT NULL REFERENCES taxonomy.languages(code)
        )`);
      await q.query(translationTable(`${goal}s`, `${goal}_id`));
    }

    // ---- taxonomy items, per reporting year ----
    await q.query(`
      CREATE TABLE taxonomy.categories (
        id serial PRIMARY KEY,
        ${YEAR},
        ${NAMED},
        CONSTRAINT categories_id_year_uq UNIQUE (id, reporting_year)
      )`);
    await q.query(`CREATE UNIQUE INDEX categories_name_uq ON taxonomy.categories (reporting_year, lower(name))`);
    await q.query(translationTable('categories', 'category_id'));

    await q.query(`
      CREATE TABLE taxonomy.sub_categories (
        id serial PRIMARY KEY,
        ${YEAR},
        category_id int NOT NULL,
        ${NAMED},
        CONSTRAINT sub_categories_id_year_uq UNIQUE (id, reporting_year),
        CONSTRAINT sub_categories_category_fk FOREIGN KEY (category_id, reporting_year)
          REFERENCES taxonomy.categories(id, reporting_year) ON DELETE RESTRICT
      )`);
    await q.query(`CREATE UNIQUE INDEX sub_categories_name_uq ON taxonomy.sub_categories (category_id, lower(name))`);
    await q.query(`CREATE INDEX sub_categories_year_idx ON taxonomy.sub_categories (reporting_year)`);
    await q.query(translationTable('sub_categories', 'sub_category_id'));
    await q.query(`
      CREATE TABLE taxonomy.sub_category_sdgs (
        sub_category_id int NOT NULL REFERENCES taxonomy.sub_categories(id) ON DELETE CASCADE,
        sdg_id int NOT NULL REFERENCES taxonomy.sdgs(id),
        PRIMARY KEY (sub_category_id, sdg_id)
      )`);
    await q.query(`
      CREATE TABLE taxonomy.sub_category_eu_objectives (
        sub_category_id int NOT NULL REFERENCES taxonomy.sub_categories(id) ON DELETE CASCADE,
        eu_objective_id int NOT NULL REFERENCES taxonomy.eu_objectives(id),
        PRIMARY KEY (sub_category_id, eu_objective_id)
      )`);

    await q.query(`
      CREATE TABLE taxonomy.units (
        id serial PRIMARY KEY,
        ${YEAR},
        ${NAMED},
        CONSTRAINT units_id_year_uq UNIQUE (id, reporting_year)
      )`);
    await q.query(`CREATE UNIQUE INDEX units_name_uq ON taxonomy.units (reporting_year, lower(name))`);
    await q.query(translationTable('units', 'unit_id'));

    await q.query(`
      CREATE TABLE taxonomy.super_indicators (
        id serial PRIMARY KEY,
        ${YEAR},
        ${NAMED},
        CONSTRAINT super_indicators_id_year_uq UNIQUE (id, reporting_year)
      )`);
    await q.query(`CREATE UNIQUE INDEX super_indicators_name_uq ON taxonomy.super_indicators (reporting_year, lower(name))`);
    await q.query(translationTable('super_indicators', 'super_indicator_id'));
    await q.query(`
      CREATE TABLE taxonomy.super_indicator_categories (
        super_indicator_id int NOT NULL,
        category_id int NOT NULL,
        ${YEAR},
        PRIMARY KEY (super_indicator_id, category_id),
        CONSTRAINT super_indicator_categories_si_fk FOREIGN KEY (super_indicator_id, reporting_year)
          REFERENCES taxonomy.super_indicators(id, reporting_year) ON DELETE CASCADE,
        CONSTRAINT super_indicator_categories_category_fk FOREIGN KEY (category_id, reporting_year)
          REFERENCES taxonomy.categories(id, reporting_year) ON DELETE RESTRICT
      )`);
    await q.query(`CREATE INDEX super_indicator_categories_category_idx ON taxonomy.super_indicator_categories (category_id)`);

    await q.query(`
      CREATE TABLE taxonomy.indicators (
        id serial PRIMARY KEY,
        ${YEAR},
        super_indicator_id int NOT NULL,
        unit_id int NOT NULL,
        ${NAMED},
        CONSTRAINT indicators_id_year_uq UNIQUE (id, reporting_year),
        CONSTRAINT indicators_super_indicator_fk FOREIGN KEY (super_indicator_id, reporting_year)
          REFERENCES taxonomy.super_indicators(id, reporting_year) ON DELETE RESTRICT,
        CONSTRAINT indicators_unit_fk FOREIGN KEY (unit_id, reporting_year)
          REFERENCES taxonomy.units(id, reporting_year) ON DELETE RESTRICT
      )`);
    await q.query(`CREATE UNIQUE INDEX indicators_name_uq ON taxonomy.indicators (super_indicator_id, lower(name))`);
    await q.query(`CREATE INDEX indicators_unit_idx ON taxonomy.indicators (unit_id)`);
    await q.query(`CREATE INDEX indicators_year_idx ON taxonomy.indicators (reporting_year)`);
    await q.query(translationTable('indicators', 'indicator_id'));

    // ---- currencies and FX rates ----
    await q.query(`
      CREATE TABLE taxonomy.currencies (
        id serial PRIMARY KEY,
        code varchar(3) NOT NULL UNIQUE CHECK (code ~ '^[A-Z]{3}$'),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    // One stored row per unordered pair and year; the reciprocal and identity pairs are derived on read.
    await q.query(`
      CREATE TABLE taxonomy.fx_rates (
        id serial PRIMARY KEY,
        ${YEAR},
        numerator_code varchar(3) NOT NULL REFERENCES taxonomy.currencies(code) ON DELETE RESTRICT,
        denominator_code varchar(3) NOT NULL REFERENCES taxonomy.currencies(code) ON DELETE RESTRICT,
        rate double precision NOT NULL CHECK (rate > 0 AND rate < 'Infinity'::double precision),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT fx_rates_distinct_ck CHECK (numerator_code <> denominator_code)
      )`);
    await q.query(`
      CREATE UNIQUE INDEX fx_rates_pair_uq ON taxonomy.fx_rates
        (reporting_year, LEAST(numerator_code, denominator_code), GREATEST(numerator_code, denominator_code))`);
    await q.query(`CREATE INDEX fx_rates_denominator_idx ON taxonomy.fx_rates (denominator_code)`);
    await q.query(`CREATE INDEX fx_rates_numerator_idx ON taxonomy.fx_rates (numerator_code)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'fx_rates', 'currencies',
      'indicator_translations', 'indicators',
      'super_indicator_categories', 'super_indicator_translations', 'super_indicators',
      'unit_translations', 'units',
      'sub_category_eu_objectives', 'sub_category_sdgs', 'sub_category_translations', 'sub_categories',
      'category_translations', 'categories',
      'eu_objective_translations', 'eu_objectives', 'sdg_translations', 'sdgs', 'languages',
    ]) {
      await q.query(`DROP TABLE taxonomy.${table}`);
    }
  }
}

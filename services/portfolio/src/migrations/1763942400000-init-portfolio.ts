import type { MigrationInterface, QueryRunner } from 'typeorm';

const ACCOUNT = `account_id uuid NOT NULL`;
const TIMES = `
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()`;

/**
 * Tables of the portfolio schema. Assets, investors and portfolios are unique per account by identifier.
 * A position holds its asset with ON DELETE RESTRICT (removeAsset is refused while positions hold it; the
 * service explains the refusal first) and goes with its investor (ON DELETE CASCADE); impact records go
 * with their position; portfolio memberships go with either side. Framework ids refer to the taxonomy
 * service's frameworks: another service's data, so no foreign key.
 */
export class InitPortfolio1763942400000 implements MigrationInterface {
  name = 'InitPortfolio1763942400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE portfolio.assets (
        id serial PRIMARY KEY,
        ${ACCOUNT},
        asset_identifier varchar(255) NOT NULL,
        asset_name varchar(255) NOT NULL,
        issuer_identifier varchar(255) NOT NULL,
        issuer_name varchar(255) NOT NULL,
        framework_id int NOT NULL,
        framework_identifier varchar(255) NOT NULL,
        framework_name varchar(255) NOT NULL,
        value_outstanding double precision CHECK (value_outstanding >= 0),
        currency_code char(3) NOT NULL,
        date_issued date,
        date_maturity date,
        visibility varchar(8) NOT NULL DEFAULT 'private' CHECK (visibility IN ('private', 'public')),
        ${TIMES},
        CONSTRAINT assets_account_identifier_uq UNIQUE (account_id, asset_identifier),
        CONSTRAINT assets_dates_ck CHECK (date_maturity IS NULL OR date_issued IS NULL OR date_maturity >= date_issued)
      )`);
    await q.query(`CREATE INDEX assets_public_identifier_idx ON portfolio.assets (asset_identifier) WHERE visibility = 'public'`);

    await q.query(`
      CREATE TABLE portfolio.investors (
        id serial PRIMARY KEY,
        ${ACCOUNT},
        investor_identifier varchar(255) NOT NULL,
        investor_name text NOT NULL,
        investor_email text,
        currency_code char(3) NOT NULL,
        key_fingerprint char(64),
        ${TIMES},
        CONSTRAINT investors_account_identifier_uq UNIQUE (account_id, investor_identifier)
      )`);

    await q.query(`
      CREATE TABLE portfolio.positions (
        id serial PRIMARY KEY,
        ${ACCOUNT},
        investor_id int NOT NULL REFERENCES portfolio.investors(id) ON DELETE CASCADE,
        asset_id int NOT NULL REFERENCES portfolio.assets(id) ON DELETE RESTRICT,
        amount double precision NOT NULL CHECK (amount > 0),
        currency_code char(3) NOT NULL,
        days int NOT NULL CHECK (days > 0),
        start_date date,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX positions_account_idx ON portfolio.positions (account_id)`);
    await q.query(`CREATE INDEX positions_investor_idx ON portfolio.positions (investor_id)`);
    await q.query(`CREATE INDEX positions_asset_idx ON portfolio.positions (asset_id)`);

    await q.query(`
      CREATE TABLE portfolio.portfolios (
        id serial PRIMARY KEY,
        ${ACCOUNT},
        investor_id int NOT NULL REFERENCES portfolio.investors(id) ON DELETE CASCADE,
        portfolio_identifier varchar(255) NOT NULL,
        ${TIMES},
        CONSTRAINT portfolios_account_identifier_uq UNIQUE (account_id, portfolio_identifier)
      )`);
    await q.query(`CREATE INDEX portfolios_investor_idx ON portfolio.portfolios (investor_id)`);
    await q.query(`
      CREATE TABLE portfolio.portfolio_positions (
        portfolio_id int NOT NULL REFERENCES portfolio.portfolios(id) ON DELETE CASCADE,
        position_id int NOT NULL REFERENCES portfolio.positions(id) ON DELETE CASCADE,
        added_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (portfolio_id, position_id)
      )`);
    await q.query(`CREATE INDEX portfolio_positions_position_idx ON portfolio.portfolio_positions (position_id)`);

    // One computation per (position, year) with the scalar inputs of the formula; one impact row per
    // (sub category, indicator) of the framework's rows that year.
    await q.query(`
      CREATE TABLE portfolio.impact_computations (
        id serial PRIMARY KEY,
        position_id int NOT NULL REFERENCES portfolio.positions(id) ON DELETE CASCADE,
        reporting_year int NOT NULL CHECK (reporting_year BETWEEN 1900 AND 2200),
        framework_id int NOT NULL,
        framework_identifier varchar(255) NOT NULL,
        framework_name varchar(255) NOT NULL,
        framework_currency_code char(3) NOT NULL,
        position_amount double precision NOT NULL,
        position_currency_code char(3) NOT NULL,
        fx_rate double precision NOT NULL,
        position_amount_framework double precision NOT NULL,
        value_outstanding double precision NOT NULL,
        allocated_amount double precision NOT NULL,
        value_outstanding_framework boolean NOT NULL,
        denominator double precision NOT NULL CHECK (denominator > 0),
        holding_start date NOT NULL,
        position_days int NOT NULL,
        holding_days_in_year int NOT NULL,
        days_in_year int NOT NULL,
        tau double precision NOT NULL CHECK (tau >= 0 AND tau <= 1),
        computed_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT impact_computations_position_year_uq UNIQUE (position_id, reporting_year)
      )`);
    await q.query(`
      CREATE TABLE portfolio.impacts (
        id serial PRIMARY KEY,
        computation_id int NOT NULL REFERENCES portfolio.impact_computations(id) ON DELETE CASCADE,
        category_id int NOT NULL,
        category_name text NOT NULL,
        sub_category_id int NOT NULL,
        sub_category_name text NOT NULL,
        super_indicator_id int NOT NULL,
        super_indicator_name text NOT NULL,
        indicator_id int NOT NULL,
        indicator_name text NOT NULL,
        unit_id int NOT NULL,
        unit_name text NOT NULL,
        indicator_value double precision NOT NULL,
        sub_category_volume double precision NOT NULL,
        value double precision NOT NULL,
        attributed_volume double precision NOT NULL,
        CONSTRAINT impacts_row_uq UNIQUE (computation_id, sub_category_id, indicator_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['impacts', 'impact_computations', 'portfolio_positions', 'portfolios', 'positions', 'investors', 'assets']) {
      await q.query(`DROP TABLE portfolio.${t}`);
    }
  }
}

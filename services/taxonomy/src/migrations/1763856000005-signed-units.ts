import type { MigrationInterface, QueryRunner } from 'typeorm';

const TABLES = ['framework_rows', 'project_rows'] as const;

/**
 * Negative impacts (issue 37): a unit may say its values are signed (e.g. net tCO2e/year, where an increase
 * of emissions is negative); only values in such units may be below 0. The rows' `>= 0` checks become a
 * trigger that reads the unit of the row's indicator, so no writer can store a negative value in an unsigned
 * unit; the service refuses it first with its own text (frameworks/owned-rows.ts), and refuses to un-sign a
 * unit or move an indicator to an unsigned unit while negative values use it (taxonomy/unit-signs.ts).
 */
export class SignedUnits1763856000005 implements MigrationInterface {
  name = 'SignedUnits1763856000005';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE taxonomy.units ADD COLUMN signed boolean NOT NULL DEFAULT false`);
    await q.query(`
      CREATE FUNCTION taxonomy.row_values_fit_unit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF (NEW.indicator_value < 0 OR NEW.baseline_value < 0) AND NOT EXISTS (
          SELECT 1 FROM taxonomy.indicators i JOIN taxonomy.units u ON u.id = i.unit_id
          WHERE i.id = NEW.indicator_id AND u.signed
        ) THEN
          RAISE EXCEPTION 'negative value in an unsigned unit (indicator %)', NEW.indicator_id
            USING ERRCODE = 'check_violation', CONSTRAINT = TG_TABLE_NAME || '_values_fit_unit';
        END IF;
        RETURN NEW;
      END $$`);
    for (const table of TABLES) {
      await q.query(`
        ALTER TABLE taxonomy.${table}
          DROP CONSTRAINT ${table}_indicator_value_check,
          DROP CONSTRAINT ${table}_baseline_value_check,
          ADD CONSTRAINT ${table}_indicator_value_finite
            CHECK (indicator_value > '-Infinity'::double precision AND indicator_value < 'Infinity'::double precision),
          ADD CONSTRAINT ${table}_baseline_value_finite
            CHECK (baseline_value > '-Infinity'::double precision AND baseline_value < 'Infinity'::double precision)`);
      await q.query(`
        CREATE TRIGGER ${table}_values_fit_unit BEFORE INSERT OR UPDATE OF indicator_value, baseline_value, indicator_id
        ON taxonomy.${table} FOR EACH ROW EXECUTE FUNCTION taxonomy.row_values_fit_unit()`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of TABLES) {
      await q.query(`DROP TRIGGER ${table}_values_fit_unit ON taxonomy.${table}`);
      await q.query(`
        ALTER TABLE taxonomy.${table}
          DROP CONSTRAINT ${table}_baseline_value_finite,
          DROP CONSTRAINT ${table}_indicator_value_finite,
          ADD CONSTRAINT ${table}_indicator_value_check
            CHECK (indicator_value >= 0 AND indicator_value < 'Infinity'::double precision),
          ADD CONSTRAINT ${table}_baseline_value_check
            CHECK (baseline_value >= 0 AND baseline_value < 'Infinity'::double precision)`);
    }
    await q.query(`DROP FUNCTION taxonomy.row_values_fit_unit()`);
    await q.query(`ALTER TABLE taxonomy.units DROP COLUMN signed`);
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

const TABLES = ['framework_rows', 'project_rows'] as const;

/**
 * How each indicator value of a framework or project row was obtained (issue 37): expected or measured,
 * gross or net, its baseline, and a methodology reference (emission factor, source, version). All nullable:
 * rows written before say nothing of it. The checks repeat the service's rules
 * (services/taxonomy/src/frameworks/value-metadata.ts).
 */
export class IndicatorValueMetadata1763856000004 implements MigrationInterface {
  name = 'IndicatorValueMetadata1763856000004';

  async up(q: QueryRunner): Promise<void> {
    for (const table of TABLES) {
      await q.query(`
        ALTER TABLE taxonomy.${table}
          ADD COLUMN value_type varchar(8) CHECK (value_type IN ('expected', 'measured')),
          ADD COLUMN value_basis varchar(5) CHECK (value_basis IN ('gross', 'net')),
          ADD COLUMN baseline_value double precision
            CHECK (baseline_value >= 0 AND baseline_value < 'Infinity'::double precision),
          ADD COLUMN emission_factor double precision
            CHECK (emission_factor >= 0 AND emission_factor < 'Infinity'::double precision),
          ADD COLUMN methodology_source varchar(255) CHECK (btrim(methodology_source) <> ''),
          ADD COLUMN methodology_version varchar(255) CHECK (btrim(methodology_version) <> '')`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of TABLES) {
      await q.query(`
        ALTER TABLE taxonomy.${table}
          DROP COLUMN methodology_version, DROP COLUMN methodology_source, DROP COLUMN emission_factor,
          DROP COLUMN baseline_value, DROP COLUMN value_basis, DROP COLUMN value_type`);
    }
  }
}

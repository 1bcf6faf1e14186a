import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Totals over many positions without reading every impact row: a computation keeps its factor
 * τ · P_f ÷ D and the digest of the framework rows its impact rows were made of (the row set). Every
 * impact row is factor · x(k,i) and factor · s(k), so the total of a scope is, per row set, its rows'
 * x and s times the sum of its computations' factors: 10 000 computations are read, not 240 000 rows.
 * Existing computations get their factor recomputed the way impact-math.ts computes it and a digest of
 * their stored rows.
 */
export class ImpactRowSets1766102400000 implements MigrationInterface {
  name = 'ImpactRowSets1766102400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE portfolio.impact_computations ADD COLUMN factor double precision, ADD COLUMN row_set varchar(64)`);
    await q.query(`
      UPDATE portfolio.impact_computations c SET
        factor = c.tau * (c.position_amount_framework / c.denominator),
        row_set = 'sql:' || coalesce((
          SELECT md5(string_agg(concat_ws('|', i.category_id, i.category_name, i.sub_category_id, i.sub_category_name,
                   i.super_indicator_id, i.super_indicator_name, i.indicator_id, i.indicator_name, i.unit_id, i.unit_name,
                   i.indicator_value, i.sub_category_volume), E'\\n' ORDER BY i.sub_category_id, i.indicator_id))
          FROM portfolio.impacts i WHERE i.computation_id = c.id), md5(''))`);
    await q.query(`ALTER TABLE portfolio.impact_computations ALTER COLUMN factor SET NOT NULL, ALTER COLUMN row_set SET NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE portfolio.impact_computations DROP COLUMN factor, DROP COLUMN row_set`);
  }
}

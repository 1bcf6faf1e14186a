import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Impact rows go with their computation through one statement-level trigger instead of a foreign key
 * (issue 34). The key's check runs once per inserted row (a lookup of the computation FOR KEY SHARE): EXPLAIN
 * ANALYZE of a recompute batch's insert (24 000 rows) spent about half of its time in it, and that insert
 * bounds a 100 000-position recompute. Impact rows are only written by ImpactStore.replaceMany, for the
 * computations it upserted just before in the same transaction with their positions locked, so the check
 * never had anything to refuse. What the key did besides, remove a computation's rows with it (its position's
 * removal cascades to it), the trigger does: after each DELETE on impact_computations, one DELETE of the rows
 * of every computation the statement removed (its transition table, through the (computation, sub category,
 * indicator) index). PostgreSQL and PGlite alike.
 */
export class ImpactsCascadeByStatement1767398400000 implements MigrationInterface {
  name = 'ImpactsCascadeByStatement1767398400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION portfolio.delete_impacts_of_removed_computations() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM portfolio.impacts i USING removed r WHERE i.computation_id = r.id;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER impact_computations_removed AFTER DELETE ON portfolio.impact_computations
        REFERENCING OLD TABLE AS removed FOR EACH STATEMENT
        EXECUTE FUNCTION portfolio.delete_impacts_of_removed_computations()`);
    await q.query(`ALTER TABLE portfolio.impacts DROP CONSTRAINT impacts_computation_id_fkey`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM portfolio.impacts i WHERE NOT EXISTS (SELECT 1 FROM portfolio.impact_computations c WHERE c.id = i.computation_id)`);
    await q.query(
      `ALTER TABLE portfolio.impacts ADD CONSTRAINT impacts_computation_id_fkey
         FOREIGN KEY (computation_id) REFERENCES portfolio.impact_computations(id) ON DELETE CASCADE`,
    );
    await q.query(`DROP TRIGGER impact_computations_removed ON portfolio.impact_computations`);
    await q.query(`DROP FUNCTION portfolio.delete_impacts_of_removed_computations()`);
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';
import { LANGUAGES, DEFAULT_LANGUAGE } from '../reference/languages.js';
import { EU_OBJECTIVES, SDGS, type ReferenceGoal } from '../reference/goals.js';
import { ISO_4217_CODES } from '../currencies/iso-4217.js';

/**
 * Reference data every year shares: the 41 languages of spec §2.2 (ids 1–41 in the spec's order), the 17
 * SDGs and 6 EU environmental objectives (id = number) with Swedish names, and the ISO 4217 currencies
 * (ids in alphabetical order; later additions continue the sequence).
 */
export class SeedReferenceData1763856000001 implements MigrationInterface {
  name = 'SeedReferenceData1763856000001';

  async up(q: QueryRunner): Promise<void> {
    for (const [i, l] of LANGUAGES.entries()) {
      await q.query(`INSERT INTO taxonomy.languages (id, code, name) VALUES ($1, $2, $3)`, [i + 1, l.code, l.name]);
    }
    await seedGoals(q, 'sdg', SDGS);
    await seedGoals(q, 'eu_objective', EU_OBJECTIVES);
    await q.query(
      `INSERT INTO taxonomy.currencies (code) SELECT unnest($1::varchar[]) ORDER BY 1`,
      [ISO_4217_CODES],
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM taxonomy.currencies`);
    await q.query(`DELETE FROM taxonomy.eu_objective_translations`);
    await q.query(`DELETE FROM taxonomy.eu_objectives`);
    await q.query(`DELETE FROM taxonomy.sdg_translations`);
    await q.query(`DELETE FROM taxonomy.sdgs`);
    await q.query(`DELETE FROM taxonomy.languages`);
  }
}

async function seedGoals(q: QueryRunner, goal: 'sdg' | 'eu_objective', goals: readonly ReferenceGoal[]): Promise<void> {
  for (const g of goals) {
    await q.query(`INSERT INTO taxonomy.${goal}s (id, goal_no, name, language_code) VALUES ($1, $1, $2, $3)`, [
      g.no,
      g.name,
      DEFAULT_LANGUAGE,
    ]);
    for (const [language, name] of Object.entries(g.translations)) {
      await q.query(`INSERT INTO taxonomy.${goal}_translations (${goal}_id, language_code, name) VALUES ($1, $2, $3)`, [
        g.no,
        language,
        name,
      ]);
    }
  }
}

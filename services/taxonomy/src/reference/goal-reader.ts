import type { DataSource } from 'typeorm';
import type { EuObjective, Sdg } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import type { LanguageCatalog } from './language-catalog.js';

interface GoalView {
  id: number;
  goalNo: string;
  name: string;
  language: string;
  languageCode: string;
}

/** SDGs and EU environmental objectives (the same for every year), in the requested language or English. */
export class GoalReader {
  constructor(
    private readonly ds: DataSource,
    private readonly languages: LanguageCatalog,
  ) {}

  async sdgs(languageCode?: string): Promise<Sdg[]> {
    const goals = await this.read('sdgs', 'sdg_translations', 'sdg_id', languageCode);
    return goals.map((g) => ({ sdgId: g.id, goalNo: g.goalNo, sdg: g.name, language: g.language, languageCode: g.languageCode }));
  }

  async euObjectives(languageCode?: string): Promise<EuObjective[]> {
    const goals = await this.read('eu_objectives', 'eu_objective_translations', 'eu_objective_id', languageCode);
    return goals.map((g) => ({
      euObjectivId: g.id,
      objectiveNo: g.goalNo,
      objective: g.name,
      language: g.language,
      languageCode: g.languageCode,
    }));
  }

  private async read(table: string, translations: string, fk: string, languageCode: string | undefined): Promise<GoalView[]> {
    const lang = this.languages.optional(languageCode)?.code ?? null;
    const rows: { id: number; goal_no: number; name: string; lang: string }[] = await this.ds.query(
      `SELECT g.id, g.goal_no, COALESCE(t.name, g.name) AS name, COALESCE(t.language_code, g.language_code) AS lang
       FROM taxonomy.${table} g LEFT JOIN taxonomy.${translations} t ON t.${fk} = g.id AND t.language_code = $1
       ORDER BY g.goal_no`,
      [lang],
    );
    return rows.map((r) => ({
      id: r.id,
      goalNo: String(r.goal_no),
      name: r.name,
      language: this.languages.nameOf(r.lang),
      languageCode: r.lang,
    }));
  }
}

import type { DataSource, EntityManager } from 'typeorm';

/** Per sub category id: linked goal number → goal name (the spec's `sdg` / `eu_objective` objects). */
export interface GoalMaps {
  sdg: Map<number, Record<string, string>>;
  euObjective: Map<number, Record<string, string>>;
}

const GOALS = [
  { key: 'sdg', links: 'sub_category_sdgs', column: 'sdg_id', table: 'sdgs', translations: 'sdg_translations' },
  { key: 'euObjective', links: 'sub_category_eu_objectives', column: 'eu_objective_id', table: 'eu_objectives', translations: 'eu_objective_translations' },
] as const;

/** The SDG and EU objective links of every sub category of a year, names in `languageCode` or English. */
export async function goalMapsOfYear(db: DataSource | EntityManager, year: number, languageCode: string | null): Promise<GoalMaps> {
  const maps: GoalMaps = { sdg: new Map(), euObjective: new Map() };
  for (const g of GOALS) {
    const rows: { sub_category_id: number; goal_no: number; name: string }[] = await db.query(
      `SELECT l.sub_category_id, g.goal_no, COALESCE(t.name, g.name) AS name
       FROM taxonomy.${g.links} l
       JOIN taxonomy.sub_categories s ON s.id = l.sub_category_id
       JOIN taxonomy.${g.table} g ON g.id = l.${g.column}
       LEFT JOIN taxonomy.${g.translations} t ON t.${g.column} = g.id AND t.language_code = $2
       WHERE s.reporting_year = $1 ORDER BY l.sub_category_id, g.goal_no`,
      [year, languageCode],
    );
    for (const r of rows) {
      const map = maps[g.key].get(r.sub_category_id) ?? {};
      map[String(r.goal_no)] = r.name;
      maps[g.key].set(r.sub_category_id, map);
    }
  }
  return maps;
}

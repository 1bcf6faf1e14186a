/**
 * The arithmetic of buildFrameworkFromProjects (pure, unit-tested). Input: the year's rows of the
 * projects consolidated, volumes already in the framework currency. Output: one framework row per
 * (sub category, indicator) that some project has, where
 * - indicator_value = Σ the projects' values of that (sub category, indicator);
 * - sub_category_volume = Σ the projects' volumes of that sub category, each project counted once per
 *   sub category (a project's volume is one figure per sub category, repeated in each of its rows), so
 *   every row of a sub category shows the same volume, as in rows added one by one.
 * Sums run in a fixed order (project, sub category, indicator), so the same data gives the same bits.
 */
export interface ProjectFigures {
  projectId: number;
  subCategoryId: number;
  indicatorId: number;
  /** In the framework currency. */
  volume: number;
  value: number;
}

export interface ConsolidatedRow {
  subCategoryId: number;
  indicatorId: number;
  volume: number;
  value: number;
}

export function consolidate(rows: readonly ProjectFigures[]): ConsolidatedRow[] {
  const sorted = [...rows].sort(
    (a, b) => a.projectId - b.projectId || a.subCategoryId - b.subCategoryId || a.indicatorId - b.indicatorId,
  );
  const volumes = new Map<number, number>();
  const counted = new Set<string>();
  const values = new Map<string, ConsolidatedRow>();
  for (const r of sorted) {
    const projectSub = `${r.projectId}:${r.subCategoryId}`;
    if (!counted.has(projectSub)) {
      counted.add(projectSub);
      volumes.set(r.subCategoryId, (volumes.get(r.subCategoryId) ?? 0) + r.volume);
    }
    const key = `${r.subCategoryId}:${r.indicatorId}`;
    const row = values.get(key) ?? { subCategoryId: r.subCategoryId, indicatorId: r.indicatorId, volume: 0, value: 0 };
    row.value += r.value;
    values.set(key, row);
  }
  return [...values.values()]
    .map((row) => ({ ...row, volume: volumes.get(row.subCategoryId)! }))
    .sort((a, b) => a.subCategoryId - b.subCategoryId || a.indicatorId - b.indicatorId);
}

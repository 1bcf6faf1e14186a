/**
 * Totals over several positions' impact records (GetPortfolioImpacts, GetInvestorImpacts), pure.
 * Values are summed per (indicator, unit): only figures of one indicator in one unit add up. Attributed
 * volumes are summed per (sub category, framework currency), counting each position's sub category once:
 * every (k, i) row of sub category k repeats attributed_volume(k).
 */
export interface TotalInput {
  positionId: number;
  subCategoryId: number;
  subCategoryName: string;
  superIndicatorId: number;
  superIndicatorName: string;
  indicatorId: number;
  indicatorName: string;
  unitId: number;
  unitName: string;
  value: number;
  attributedVolume: number;
  frameworkCurrencyCode: string;
}

export interface IndicatorTotal {
  indicatorId: number;
  indicatorName: string;
  unitId: number;
  unitName: string;
  superIndicatorId: number;
  superIndicatorName: string;
  value: number;
  positionCount: number;
}

export interface SubCategoryVolumeTotal {
  subCategoryId: number;
  subCategoryName: string;
  currencyCode: string;
  attributedVolume: number;
}

export function indicatorTotals(records: readonly TotalInput[]): IndicatorTotal[] {
  const totals = new Map<string, IndicatorTotal & { positions: Set<number> }>();
  for (const r of records) {
    const key = `${r.indicatorId}/${r.unitId}`;
    let t = totals.get(key);
    if (!t) {
      t = {
        indicatorId: r.indicatorId,
        indicatorName: r.indicatorName,
        unitId: r.unitId,
        unitName: r.unitName,
        superIndicatorId: r.superIndicatorId,
        superIndicatorName: r.superIndicatorName,
        value: 0,
        positionCount: 0,
        positions: new Set(),
      };
      totals.set(key, t);
    }
    t.value += r.value;
    t.positions.add(r.positionId);
  }
  return [...totals.values()]
    .map(({ positions, ...t }) => ({ ...t, positionCount: positions.size }))
    .sort((a, b) => a.indicatorId - b.indicatorId || a.unitId - b.unitId);
}

export function subCategoryVolumeTotals(records: readonly TotalInput[]): SubCategoryVolumeTotal[] {
  const counted = new Set<string>();
  const totals = new Map<string, SubCategoryVolumeTotal>();
  // Rows come sorted by indicator id within a position; the first row of each (position, sub category) counts.
  for (const r of records) {
    const once = `${r.positionId}/${r.subCategoryId}/${r.frameworkCurrencyCode}`;
    if (counted.has(once)) continue;
    counted.add(once);
    const key = `${r.subCategoryId}/${r.frameworkCurrencyCode}`;
    const t = totals.get(key) ?? {
      subCategoryId: r.subCategoryId,
      subCategoryName: r.subCategoryName,
      currencyCode: r.frameworkCurrencyCode,
      attributedVolume: 0,
    };
    t.attributedVolume += r.attributedVolume;
    totals.set(key, t);
  }
  return [...totals.values()].sort((a, b) => a.subCategoryId - b.subCategoryId || a.currencyCode.localeCompare(b.currencyCode));
}

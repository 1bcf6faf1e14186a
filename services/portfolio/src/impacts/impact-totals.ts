import type { EntityManager } from 'typeorm';
import type { ImpactRow } from '../entities.js';
import type { IndicatorTotal, SubCategoryVolumeTotal } from './totals.js';

/**
 * Which positions a summary covers: an investor's (by the investor's row id) or a list (a portfolio's
 * members). Always within one account.
 */
export type ImpactScope = { investorId: number } | { positionIds: number[] };

function scopeWhere(accountId: string, scope: ImpactScope, params: unknown[]): string {
  params.push(accountId);
  const account = `p.account_id = $${params.length}`;
  if ('investorId' in scope) {
    params.push(scope.investorId);
    return `${account} AND p.investor_id = $${params.length}`;
  }
  params.push(scope.positionIds);
  return `${account} AND p.id = ANY($${params.length}::int[])`;
}

interface RowSetGroup {
  rowSet: string;
  currencyCode: string;
  /** Σ factor over the group's computations. */
  factor: number;
  positions: number;
  stale: number;
  sampleId: number;
}

type SampleRow = Pick<
  ImpactRow,
  'computationId' | 'subCategoryId' | 'subCategoryName' | 'superIndicatorId' | 'superIndicatorName' | 'indicatorId' | 'indicatorName' | 'unitId' | 'unitName' | 'indicatorValue' | 'subCategoryVolume'
>;

export interface ScopeTotals {
  totals: IndicatorTotal[];
  volumeTotals: SubCategoryVolumeTotal[];
  /** Positions whose computation of the year is stale (a framework or FX change awaits its recompute). */
  stalePositions: number;
}

/**
 * Totals of a scope's stored records for a year without reading the records: every record is
 * factor · x(k,i) (and factor · s(k)), and computations with the same row set have the same rows, so a
 * total is Σ over row sets of x(k,i) · Σ factor. Two queries whatever the number of positions: the
 * computations grouped by row set and framework currency, then the rows of one computation per group.
 * The figures equal the sums of the records up to floating-point rounding (x · Σ f instead of Σ x · f).
 */
export class ImpactTotalsReader {
  async totals(m: EntityManager, accountId: string, scope: ImpactScope, year: number): Promise<ScopeTotals> {
    const params: unknown[] = [year];
    const groups: RowSetGroup[] = await m.query(
      `SELECT c.row_set AS "rowSet", c.framework_currency_code AS "currencyCode", sum(c.factor) AS factor,
         count(*)::int AS positions, count(c.stale_at)::int AS stale, min(c.id) AS "sampleId"
       FROM portfolio.impact_computations c
       JOIN portfolio.positions p ON p.id = c.position_id
       WHERE c.reporting_year = $1 AND ${scopeWhere(accountId, scope, params)}
       GROUP BY c.row_set, c.framework_currency_code
       ORDER BY min(c.id)`,
      params,
    );
    if (groups.length === 0) return { totals: [], volumeTotals: [], stalePositions: 0 };
    const rows: SampleRow[] = await m.query(
      `SELECT computation_id AS "computationId", sub_category_id AS "subCategoryId", sub_category_name AS "subCategoryName",
         super_indicator_id AS "superIndicatorId", super_indicator_name AS "superIndicatorName", indicator_id AS "indicatorId",
         indicator_name AS "indicatorName", unit_id AS "unitId", unit_name AS "unitName", indicator_value AS "indicatorValue",
         sub_category_volume AS "subCategoryVolume"
       FROM portfolio.impacts WHERE computation_id = ANY($1::int[]) ORDER BY computation_id, sub_category_id, indicator_id`,
      [groups.map((g) => g.sampleId)],
    );
    const rowsOf = new Map<number, SampleRow[]>();
    for (const r of rows) rowsOf.set(r.computationId, [...(rowsOf.get(r.computationId) ?? []), r]);
    const totals = new Map<string, IndicatorTotal>();
    const volumes = new Map<string, SubCategoryVolumeTotal>();
    for (const g of groups) {
      const counted = new Set<string>();
      for (const r of rowsOf.get(g.sampleId) ?? []) {
        const key = `${r.indicatorId}/${r.unitId}`;
        const t = totals.get(key) ?? {
          indicatorId: r.indicatorId, indicatorName: r.indicatorName, unitId: r.unitId, unitName: r.unitName,
          superIndicatorId: r.superIndicatorId, superIndicatorName: r.superIndicatorName, value: 0, positionCount: 0,
        };
        t.value += r.indicatorValue * g.factor;
        // A position counts once per indicator, even when two of its sub categories report it.
        if (!counted.has(key)) t.positionCount += g.positions;
        counted.add(key);
        totals.set(key, t);
        const volumeKey = `${r.subCategoryId}/${g.currencyCode}`;
        if (counted.has(`k${volumeKey}`)) continue; // s(k) repeats on every row of sub category k
        counted.add(`k${volumeKey}`);
        const v = volumes.get(volumeKey) ?? { subCategoryId: r.subCategoryId, subCategoryName: r.subCategoryName, currencyCode: g.currencyCode, attributedVolume: 0 };
        v.attributedVolume += r.subCategoryVolume * g.factor;
        volumes.set(volumeKey, v);
      }
    }
    return {
      totals: [...totals.values()].sort((a, b) => a.indicatorId - b.indicatorId || a.unitId - b.unitId),
      volumeTotals: [...volumes.values()].sort((a, b) => a.subCategoryId - b.subCategoryId || a.currencyCode.localeCompare(b.currencyCode)),
      stalePositions: groups.reduce((n, g) => n + g.stale, 0),
    };
  }

  /** The scope's positions without records for the year, by id. */
  async positionsWithout(m: EntityManager, accountId: string, scope: ImpactScope, year: number): Promise<number[]> {
    const params: unknown[] = [year];
    const rows: { id: number }[] = await m.query(
      `SELECT p.id FROM portfolio.positions p
       WHERE ${scopeWhere(accountId, scope, params)}
         AND NOT EXISTS (SELECT 1 FROM portfolio.impact_computations c WHERE c.position_id = p.id AND c.reporting_year = $1)
       ORDER BY p.id`,
      params,
    );
    return rows.map((r) => r.id);
  }
}

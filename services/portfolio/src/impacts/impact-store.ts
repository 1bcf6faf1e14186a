import type { EntityManager } from 'typeorm';
import type { ImpactRecord } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import type { ImpactComputationRow } from '../entities.js';
import type { PreparedImpacts } from './impact-calculator.js';

const RECORD_COLUMNS = `
  i.id, c.position_id AS "positionId", c.reporting_year AS "reportingYear",
  inv.investor_identifier AS "investorIdentifier", a.asset_identifier AS "assetIdentifier",
  c.framework_identifier AS "frameworkIdentifier",
  i.category_id AS "categoryId", i.category_name AS "categoryName",
  i.sub_category_id AS "subCategoryId", i.sub_category_name AS "subCategoryName",
  i.super_indicator_id AS "superIndicatorId", i.super_indicator_name AS "superIndicatorName",
  i.indicator_id AS "indicatorId", i.indicator_name AS "indicatorName", i.unit_id AS "unitId", i.unit_name AS "unitName",
  i.value, i.attributed_volume AS "attributedVolume", c.framework_currency_code AS "frameworkCurrencyCode",
  c.position_amount_framework AS "positionAmountFrameworkCurrency", c.denominator AS "attributionDenominator",
  c.tau, c.fx_rate AS "fxRate", c.position_amount AS "positionAmount", c.position_currency_code AS "positionCurrencyCode",
  i.indicator_value AS "indicatorValue", i.sub_category_volume AS "subCategoryVolume",
  c.value_outstanding AS "frameworkValueOutstanding", c.allocated_amount AS "frameworkAllocatedAmount",
  c.value_outstanding_framework AS "valueOutstandingFramework",
  c.holding_days_in_year AS "holdingDaysInYear", c.days_in_year AS "daysInYear", c.computed_at AS "computedAt"`;

const COMPUTATION_COLUMNS = `
  c.id, c.position_id AS "positionId", c.reporting_year AS "reportingYear", c.framework_id AS "frameworkId",
  c.framework_identifier AS "frameworkIdentifier", c.framework_name AS "frameworkName",
  c.framework_currency_code AS "frameworkCurrencyCode", c.position_amount AS "positionAmount",
  c.position_currency_code AS "positionCurrencyCode", c.fx_rate AS "fxRate",
  c.position_amount_framework AS "positionAmountFramework", c.value_outstanding AS "valueOutstanding",
  c.allocated_amount AS "allocatedAmount", c.value_outstanding_framework AS "valueOutstandingFramework",
  c.denominator, to_char(c.holding_start, 'YYYY-MM-DD') AS "holdingStart", c.position_days AS "positionDays",
  c.holding_days_in_year AS "holdingDaysInYear", c.days_in_year AS "daysInYear", c.tau, c.computed_at AS "computedAt"`;

const ROW_COLUMNS = [
  'computation_id', 'category_id', 'category_name', 'sub_category_id', 'sub_category_name', 'super_indicator_id',
  'super_indicator_name', 'indicator_id', 'indicator_name', 'unit_id', 'unit_name', 'indicator_value',
  'sub_category_volume', 'value', 'attributed_volume',
];
const ROWS_PER_INSERT = 500;

export interface ImpactSelection {
  positionIds: number[];
  reportingYear?: number | undefined;
}

/**
 * Stored impact records: one computation per (position, year) carrying the formula's scalar inputs, and
 * its (k, i) rows. Methods take the manager to run on, so they work inside a caller's transaction.
 */
export class ImpactStore {
  /**
   * Replaces the position's records of the year. The caller holds the position row locked (two
   * computations of one position run one after the other instead of colliding on the unique key).
   */
  async replace(m: EntityManager, positionId: number, prepared: PreparedImpacts): Promise<void> {
    const c = prepared.computation;
    await m.query(`DELETE FROM portfolio.impact_computations WHERE position_id = $1 AND reporting_year = $2`, [positionId, c.reportingYear]);
    const [inserted] = (await m.query(
      `INSERT INTO portfolio.impact_computations (position_id, reporting_year, framework_id, framework_identifier, framework_name,
         framework_currency_code, position_amount, position_currency_code, fx_rate, position_amount_framework, value_outstanding,
         allocated_amount, value_outstanding_framework, denominator, holding_start, position_days, holding_days_in_year, days_in_year, tau)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19) RETURNING id`,
      [
        positionId, c.reportingYear, c.frameworkId, c.frameworkIdentifier, c.frameworkName, c.frameworkCurrencyCode,
        c.positionAmount, c.positionCurrencyCode, c.fxRate, c.positionAmountFramework, c.valueOutstanding, c.allocatedAmount,
        c.valueOutstandingFramework, c.denominator, c.holdingStart, c.positionDays, c.holdingDaysInYear, c.daysInYear, c.tau,
      ],
    )) as { id: number }[];
    for (let start = 0; start < prepared.rows.length; start += ROWS_PER_INSERT) {
      const chunk = prepared.rows.slice(start, start + ROWS_PER_INSERT);
      const params: unknown[] = [];
      const tuples = chunk.map((r) => {
        const values = [
          inserted!.id, r.categoryId, r.categoryName, r.subCategoryId, r.subCategoryName, r.superIndicatorId, r.superIndicatorName,
          r.indicatorId, r.indicatorName, r.unitId, r.unitName, r.indicatorValue, r.subCategoryVolume, r.value, r.attributedVolume,
        ];
        const placeholders = values.map((value) => (params.push(value), `$${params.length}`));
        return `(${placeholders.join(', ')})`;
      });
      await m.query(`INSERT INTO portfolio.impacts (${ROW_COLUMNS.join(', ')}) VALUES ${tuples.join(', ')}`, params);
    }
  }

  /** Records of the account's positions among positionIds (of one year, or all), in a stable order. */
  async records(m: EntityManager, accountId: string, selection: ImpactSelection): Promise<ImpactRecord[]> {
    if (selection.positionIds.length === 0) return [];
    const params: unknown[] = [accountId, selection.positionIds];
    let year = '';
    if (selection.reportingYear !== undefined) {
      params.push(selection.reportingYear);
      year = ` AND c.reporting_year = $3`;
    }
    const rows: (Omit<ImpactRecord, 'computedAt'> & { computedAt: Date })[] = await m.query(
      `SELECT ${RECORD_COLUMNS}
       FROM portfolio.impacts i
       JOIN portfolio.impact_computations c ON c.id = i.computation_id
       JOIN portfolio.positions p ON p.id = c.position_id
       JOIN portfolio.investors inv ON inv.id = p.investor_id
       JOIN portfolio.assets a ON a.id = p.asset_id
       WHERE p.account_id = $1 AND p.id = ANY($2)${year}
       ORDER BY c.position_id, c.reporting_year, i.sub_category_id, i.indicator_id`,
      params,
    );
    return rows.map((r) => ({ ...r, computedAt: r.computedAt.toISOString() }));
  }

  /** The computations (scalar inputs) of positions for a year. */
  async computations(m: EntityManager, positionIds: number[], reportingYear: number): Promise<ImpactComputationRow[]> {
    if (positionIds.length === 0) return [];
    return m.query(
      `SELECT ${COMPUTATION_COLUMNS} FROM portfolio.impact_computations c
       WHERE c.position_id = ANY($1) AND c.reporting_year = $2 ORDER BY c.position_id`,
      [positionIds, reportingYear],
    );
  }
}

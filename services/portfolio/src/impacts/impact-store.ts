import type { EntityManager } from 'typeorm';
import type { ImpactRecord } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import type { ImpactComputationRow } from '../entities.js';
import type { ImpactRowFigures, PreparedImpacts } from './impact-calculator.js';

export const RECORD_COLUMNS = `
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
  c.holding_days_in_year AS "holdingDaysInYear", c.days_in_year AS "daysInYear", c.computed_at AS "computedAt",
  c.stale_at IS NOT NULL AS stale`;

/** The tables RECORD_COLUMNS reads, as i, c, p, inv and a. */
export const RECORD_SOURCE = `portfolio.impacts i
  JOIN portfolio.impact_computations c ON c.id = i.computation_id
  JOIN portfolio.positions p ON p.id = c.position_id
  JOIN portfolio.investors inv ON inv.id = p.investor_id
  JOIN portfolio.assets a ON a.id = p.asset_id`;

const COMPUTATION_COLUMNS = `
  c.id, c.position_id AS "positionId", c.reporting_year AS "reportingYear", c.framework_id AS "frameworkId",
  c.framework_identifier AS "frameworkIdentifier", c.framework_name AS "frameworkName",
  c.framework_currency_code AS "frameworkCurrencyCode", c.position_amount AS "positionAmount",
  c.position_currency_code AS "positionCurrencyCode", c.fx_rate AS "fxRate",
  c.position_amount_framework AS "positionAmountFramework", c.value_outstanding AS "valueOutstanding",
  c.allocated_amount AS "allocatedAmount", c.value_outstanding_framework AS "valueOutstandingFramework",
  c.denominator, to_char(c.holding_start, 'YYYY-MM-DD') AS "holdingStart", c.position_days AS "positionDays",
  c.holding_days_in_year AS "holdingDaysInYear", c.days_in_year AS "daysInYear", c.tau, c.factor, c.row_set AS "rowSet",
  c.computed_at AS "computedAt", c.stale_at AS "staleAt"`;

/** Scalar inputs of a computation, in the order of the unnest() arrays of {@link ImpactStore.replaceMany}. */
const COMPUTATION_INPUTS: [column: string, sqlType: string, of: (c: PreparedImpacts['computation']) => unknown][] = [
  ['reporting_year', 'int', (c) => c.reportingYear],
  ['framework_id', 'int', (c) => c.frameworkId],
  ['framework_identifier', 'text', (c) => c.frameworkIdentifier],
  ['framework_name', 'text', (c) => c.frameworkName],
  ['framework_currency_code', 'text', (c) => c.frameworkCurrencyCode],
  ['position_amount', 'float8', (c) => c.positionAmount],
  ['position_currency_code', 'text', (c) => c.positionCurrencyCode],
  ['fx_rate', 'float8', (c) => c.fxRate],
  ['position_amount_framework', 'float8', (c) => c.positionAmountFramework],
  ['value_outstanding', 'float8', (c) => c.valueOutstanding],
  ['allocated_amount', 'float8', (c) => c.allocatedAmount],
  ['value_outstanding_framework', 'bool', (c) => c.valueOutstandingFramework],
  ['denominator', 'float8', (c) => c.denominator],
  ['holding_start', 'date', (c) => c.holdingStart],
  ['position_days', 'int', (c) => c.positionDays],
  ['holding_days_in_year', 'int', (c) => c.holdingDaysInYear],
  ['days_in_year', 'int', (c) => c.daysInYear],
  ['tau', 'float8', (c) => c.tau],
  ['factor', 'float8', (c) => c.factor],
  ['row_set', 'text', (c) => c.rowSet],
];

/** Framework row figures, in the order of the unnest() arrays of the impact insert. */
const ROW_INPUTS: [column: string, sqlType: string, of: (r: ImpactRowFigures) => unknown][] = [
  ['category_id', 'int', (r) => r.categoryId],
  ['category_name', 'text', (r) => r.categoryName],
  ['sub_category_id', 'int', (r) => r.subCategoryId],
  ['sub_category_name', 'text', (r) => r.subCategoryName],
  ['super_indicator_id', 'int', (r) => r.superIndicatorId],
  ['super_indicator_name', 'text', (r) => r.superIndicatorName],
  ['indicator_id', 'int', (r) => r.indicatorId],
  ['indicator_name', 'text', (r) => r.indicatorName],
  ['unit_id', 'int', (r) => r.unitId],
  ['unit_name', 'text', (r) => r.unitName],
  ['indicator_value', 'float8', (r) => r.indicatorValue],
  ['sub_category_volume', 'float8', (r) => r.subCategoryVolume],
];

/** `unnest($first::t1[], $first+1::t2[], …)` over the given inputs. */
const unnestOf = (types: string[], first: number) => `unnest(${types.map((t, i) => `$${first + i}::${t}[]`).join(', ')})`;

export interface PositionImpacts {
  positionId: number;
  prepared: PreparedImpacts;
}

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
   * Replaces the records of each position for its year, in three set-based statements whatever the number
   * of positions (every array is one parameter: no parameter limit, and the same SQL on PostgreSQL and
   * PGlite). The computation row is upserted, so its id stays; values are factor · x(k,i) and
   * factor · s(k), multiplied by PostgreSQL (see impact-math.ts positionFactor). Idempotent. The caller
   * holds the positions locked (see {@link lockPositions}) and passes positions of one year at most once.
   * inputsReadAt is the database time before the inputs were read: the computation stays stale when it
   * was marked stale after that (its figures changed again meanwhile); without it the mark is cleared.
   */
  async replaceMany(m: EntityManager, items: readonly PositionImpacts[], inputsReadAt?: Date): Promise<void> {
    if (items.length === 0) return;
    const years = [...new Set(items.map((i) => i.prepared.computation.reportingYear))];
    for (const year of years) {
      const ofYear = items.filter((i) => i.prepared.computation.reportingYear === year);
      await m.query(
        `DELETE FROM portfolio.impacts i USING portfolio.impact_computations c
         WHERE i.computation_id = c.id AND c.position_id = ANY($1::int[]) AND c.reporting_year = $2`,
        [ofYear.map((i) => i.positionId), year],
      );
    }
    const columns = COMPUTATION_INPUTS.map(([column]) => column);
    const upserted: { id: number; positionId: number }[] = await m.query(
      `INSERT INTO portfolio.impact_computations (position_id, ${columns.join(', ')}, computed_at)
       SELECT t.*, now() FROM ${unnestOf(['int', ...COMPUTATION_INPUTS.map(([, type]) => type)], 1)} AS t
       ON CONFLICT ON CONSTRAINT impact_computations_position_year_uq DO UPDATE SET
         ${[...columns.slice(1), 'computed_at'].map((c) => `${c} = EXCLUDED.${c}`).join(', ')},
         stale_at = CASE WHEN impact_computations.stale_at > $${COMPUTATION_INPUTS.length + 2}::timestamptz
                         THEN impact_computations.stale_at END
       RETURNING id, position_id AS "positionId"`,
      [
        items.map((i) => i.positionId),
        ...COMPUTATION_INPUTS.map(([, , of]) => items.map((i) => of(i.prepared.computation))),
        inputsReadAt ?? null,
      ],
    );
    const idOf = new Map(upserted.map((u) => [u.positionId, u.id]));
    // Positions of one framework and year share one rows array: each distinct array is sent once.
    const rowSets = new Map<readonly ImpactRowFigures[], number>();
    for (const i of items) if (!rowSets.has(i.prepared.rows)) rowSets.set(i.prepared.rows, rowSets.size);
    const rowsOf = [...rowSets].flatMap(([rows, set]) => rows.map((r) => ({ set, r })));
    if (rowsOf.length === 0) return;
    const rowColumns = ROW_INPUTS.map(([column]) => column);
    await m.query(
      `INSERT INTO portfolio.impacts (computation_id, ${rowColumns.join(', ')}, value, attributed_volume)
       SELECT c.id, ${rowColumns.map((col) => `r.${col}`).join(', ')},
              c.factor * r.indicator_value, c.factor * r.sub_category_volume
       FROM unnest($1::int[], $2::float8[], $3::int[]) AS c(id, factor, row_set)
       JOIN ${unnestOf(['int', ...ROW_INPUTS.map(([, type]) => type)], 4)} AS r(row_set, ${rowColumns.join(', ')}) USING (row_set)`,
      [
        items.map((i) => idOf.get(i.positionId)),
        items.map((i) => i.prepared.computation.factor),
        items.map((i) => rowSets.get(i.prepared.rows)),
        rowsOf.map((x) => x.set),
        ...ROW_INPUTS.map(([, , of]) => rowsOf.map((x) => of(x.r))),
      ],
    );
  }

  /**
   * Locks the account's positions among ids (in id order, so concurrent batches cannot deadlock) for m's
   * transaction and answers those that still exist: a position removed meanwhile is left out.
   */
  async lockPositions(m: EntityManager, accountId: string, ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows: { id: number }[] = await m.query(
      `SELECT id FROM portfolio.positions WHERE account_id = $1 AND id = ANY($2::int[]) ORDER BY id FOR UPDATE`,
      [accountId, ids],
    );
    return new Set(rows.map((r) => r.id));
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
       FROM ${RECORD_SOURCE}
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

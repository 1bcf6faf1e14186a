import { FailedPreconditionError } from '@green-impact/shared/errors';
import { holdingInYear, type HoldingInYear } from './holding-period.js';

/**
 * THE IMPACT FORMULA (ARCHITECTURE §3), pure. For reporting year Y and framework currency f:
 *
 *   impact(k,i)          = τ · (P_f / D) · x(k,i)
 *   attributed_volume(k) = τ · (P_f / D) · s(k)
 *
 * P_f: the position amount in f with Y's FX rate; D = V when value_outstanding_framework, else max(L, V)
 * (so the holders together are never credited with more than 100 % of the framework); τ: the part of Y
 * the position is held (holding-period.ts); x(k,i) and s(k): the framework's indicator value and sub
 * category volume of row (k,i).
 */

/** The framework figures of year Y that D is made of. */
export interface FrameworkYearFigures {
  frameworkIdentifier: string;
  reportingYear: number;
  /** V: value outstanding. */
  valueOutstanding: number;
  /** L: allocated amount. */
  allocatedAmount: number;
  /** true: D = V; false: D = max(L, V). */
  valueOutstandingFramework: boolean;
}

/** D, or FAILED_PRECONDITION when it is not positive (no share of nothing can be attributed). */
export function attributionDenominator(f: FrameworkYearFigures): number {
  const d = f.valueOutstandingFramework ? f.valueOutstanding : Math.max(f.allocatedAmount, f.valueOutstanding);
  if (!Number.isFinite(d) || d <= 0) {
    const which = f.valueOutstandingFramework ? 'value outstanding' : 'value outstanding nor allocated amount';
    throw new FailedPreconditionError(
      `Framework "${f.frameworkIdentifier}" has no ${which} above 0 for ${f.reportingYear} (D = ${d}); impacts cannot be attributed.`,
    );
  }
  return d;
}

/** One (sub category k, indicator i) row of the framework: s(k) and x(k,i), plus whatever describes it. */
export interface FrameworkRowFigures {
  subCategoryVolume: number;
  indicatorValue: number;
}

export interface PositionImpactInput<R extends FrameworkRowFigures> {
  reportingYear: number;
  position: {
    amount: number;
    currencyCode: string;
    positionDays: number;
    /** null: 1 January of the reporting year. */
    startDate: string | null;
  };
  /** Framework currency per unit of the position currency in Y (1 when they are the same). */
  fxRate: number;
  framework: FrameworkYearFigures & { currencyCode: string };
  rows: readonly R[];
}

/** The scalar part of the formula, shared by every (k, i) row of one position and year. */
export interface PositionFactor {
  holding: HoldingInYear;
  /** P_f. */
  positionAmountFramework: number;
  /** D. */
  denominator: number;
  /** P_f ÷ D. */
  share: number;
  /** τ · P_f ÷ D, the factor every row is scaled by. */
  factor: number;
}

export interface PositionImpacts<R extends FrameworkRowFigures> extends PositionFactor {
  rows: (R & { value: number; attributedVolume: number })[];
}

/**
 * τ · P_f ÷ D of one position and year. The bulk recompute stores value = factor · x(k,i) and
 * attributed_volume = factor · s(k) row by row in SQL: a float8 product there is the same IEEE-754
 * product as {@link computePositionImpacts}'s, so both paths store the same figures, bit for bit.
 */
export function positionFactor(input: Omit<PositionImpactInput<FrameworkRowFigures>, 'rows'>): PositionFactor {
  const holding = holdingInYear({
    startDate: input.position.startDate,
    positionDays: input.position.positionDays,
    year: input.reportingYear,
  });
  const denominator = attributionDenominator(input.framework);
  const positionAmountFramework = input.position.amount * input.fxRate;
  const share = positionAmountFramework / denominator;
  return { holding, positionAmountFramework, denominator, share, factor: holding.tau * share };
}

export function computePositionImpacts<R extends FrameworkRowFigures>(input: PositionImpactInput<R>): PositionImpacts<R> {
  const f = positionFactor(input);
  return {
    ...f,
    rows: input.rows.map((row) => ({
      ...row,
      value: f.factor * row.indicatorValue,
      attributedVolume: f.factor * row.subCategoryVolume,
    })),
  };
}

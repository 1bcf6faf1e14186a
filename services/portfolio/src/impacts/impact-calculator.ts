import { createHash } from 'node:crypto';
import type { FrameworkRow, GetFrameworkYearSpecificsResponse } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import type { Caller } from '@green-impact/shared/caller';
import { FailedPreconditionError } from '@green-impact/shared/errors';
import type { ImpactComputationRow, ImpactRow } from '../entities.js';
import { frameworkRead, type FrameworkSource } from '../framework-source.js';
import { MSG } from '../messages.js';
import { positionFactor } from './impact-math.js';

/** A framework row as stored with each impact: what describes (k, i), s(k) and x(k,i). */
export type ImpactRowFigures = Omit<ImpactRow, 'id' | 'computationId' | 'value' | 'attributedVolume'>;

/**
 * Everything stored for one (position, year): the formula's scalar inputs with the factor τ · P_f ÷ D
 * and the digest of the rows, and the framework's rows of the year (one array shared by every position
 * of that framework). The store writes value = factor · x(k,i) and attributed_volume = factor · s(k) per
 * row (impact-math.ts).
 */
export interface PreparedImpacts {
  computation: Omit<ImpactComputationRow, 'id' | 'positionId' | 'computedAt'>;
  rows: readonly ImpactRowFigures[];
}

export interface PositionTerms {
  amount: number;
  currencyCode: string;
  days: number;
  startDate: string | null;
}

export interface AssetLink {
  assetIdentifier: string;
  frameworkId: number;
  frameworkIdentifier: string;
}

export interface ImpactSubject {
  position: PositionTerms;
  asset: AssetLink;
}

export interface FrameworkYear {
  specifics: GetFrameworkYearSpecificsResponse;
  rows: ImpactRowFigures[];
  rowSet: string;
}

/** Framework reads at once: a portfolio rarely spans more than a handful of frameworks. */
const FRAMEWORK_READS_IN_FLIGHT = 8;

/**
 * Gathers the inputs of the impact formula from the taxonomy service and applies it (impact-math.ts).
 * Set-based: for any number of positions, each framework's year figures and rows are read once, and the
 * FX rates of every (position currency → framework currency) pair in one call. Reads only: the caller
 * stores the result, so no database transaction is held open across these calls.
 */
export class ImpactCalculator {
  constructor(private readonly frameworks: FrameworkSource) {}

  async prepare(caller: Caller, position: PositionTerms, asset: AssetLink, reportingYear: number): Promise<PreparedImpacts> {
    const [prepared] = await this.prepareMany(caller, [{ position, asset }], reportingYear);
    return prepared!;
  }

  /** One PreparedImpacts per subject, in order; any failure (framework gone, missing rate, D ≤ 0) throws. */
  async prepareMany(caller: Caller, subjects: readonly ImpactSubject[], reportingYear: number): Promise<PreparedImpacts[]> {
    if (subjects.length === 0) return [];
    const firstAsset = new Map<number, AssetLink>();
    for (const s of subjects) if (!firstAsset.has(s.asset.frameworkId)) firstAsset.set(s.asset.frameworkId, s.asset);
    const years = await this.frameworkYears(caller, [...firstAsset.values()], reportingYear);
    const rates = await this.fxRates(caller, reportingYear, subjects.map((s) => [s.position.currencyCode, years.get(s.asset.frameworkId)!.specifics.frameworkCurrencyCode]));
    return subjects.map(({ position, asset }) => {
      const { specifics, rows, rowSet } = years.get(asset.frameworkId)!;
      const fxRate = rates.get(pairKey(position.currencyCode, specifics.frameworkCurrencyCode))!;
      const f = positionFactor({
        reportingYear,
        position: { amount: position.amount, currencyCode: position.currencyCode, positionDays: position.days, startDate: position.startDate },
        fxRate,
        framework: {
          frameworkIdentifier: specifics.frameworkIdentifier,
          reportingYear,
          currencyCode: specifics.frameworkCurrencyCode,
          valueOutstanding: specifics.valueOutstanding,
          allocatedAmount: specifics.allocatedAmount,
          valueOutstandingFramework: specifics.valueOutstandingFramework,
        },
      });
      return {
        computation: {
          reportingYear,
          frameworkId: specifics.frameworkId,
          frameworkIdentifier: specifics.frameworkIdentifier,
          frameworkName: specifics.frameworkName,
          frameworkCurrencyCode: specifics.frameworkCurrencyCode,
          positionAmount: position.amount,
          positionCurrencyCode: position.currencyCode,
          fxRate,
          positionAmountFramework: f.positionAmountFramework,
          valueOutstanding: specifics.valueOutstanding,
          allocatedAmount: specifics.allocatedAmount,
          valueOutstandingFramework: specifics.valueOutstandingFramework,
          denominator: f.denominator,
          holdingStart: f.holding.start,
          positionDays: position.days,
          holdingDaysInYear: f.holding.holdingDaysInYear,
          daysInYear: f.holding.daysInYear,
          tau: f.holding.tau,
          factor: f.factor,
          rowSet,
        },
        rows,
      };
    });
  }

  private async frameworkYears(caller: Caller, assets: AssetLink[], year: number): Promise<Map<number, FrameworkYear>> {
    const out = new Map<number, FrameworkYear>();
    for (let start = 0; start < assets.length; start += FRAMEWORK_READS_IN_FLIGHT) {
      await Promise.all(
        assets.slice(start, start + FRAMEWORK_READS_IN_FLIGHT).map(async (asset) => {
          out.set(asset.frameworkId, await this.frameworkYear(caller, asset, year));
        }),
      );
    }
    return out;
  }

  /** The framework's current figures and rows of the year with their digest (row_set), as a computation stores them. */
  async frameworkYear(caller: Caller, asset: AssetLink, year: number): Promise<FrameworkYear> {
    const gone = () => MSG.frameworkGone(asset.frameworkIdentifier, asset.assetIdentifier);
    const [specifics, detail] = await Promise.all([
      frameworkRead(gone, () => this.frameworks.yearSpecifics(caller, asset.frameworkId, year)),
      frameworkRead(gone, () => this.frameworks.details(caller, asset.frameworkId, year)),
    ]);
    if (!detail) throw new FailedPreconditionError(gone());
    const rows = rowFigures(detail.framework);
    return { specifics, rows, rowSet: createHash('sha256').update(JSON.stringify(rows)).digest('hex') };
  }

  /** The year's rate (framework currency per unit) of one pair; FAILED_PRECONDITION when there is none. */
  async fxRate(caller: Caller, year: number, from: string, to: string): Promise<number> {
    return (await this.fxRates(caller, year, [[from, to]])).get(pairKey(from, to))!;
  }

  /** The year's rate of each distinct pair, asked in one call (the rate does not depend on the amount). */
  private async fxRates(caller: Caller, year: number, pairs: [string, string][]): Promise<Map<string, number>> {
    const distinct = new Map(pairs.map(([from, to]) => [pairKey(from, to), { from, to }]));
    const conversions = [...distinct.values()].map(({ from, to }) => ({ amount: 1, fromCurrencyCode: from, toCurrencyCode: to }));
    const converted = await this.frameworks.convert(caller, year, conversions);
    return new Map(converted.map((c, i) => [pairKey(conversions[i]!.fromCurrencyCode, conversions[i]!.toCurrencyCode), c.fxRate]));
  }
}

const pairKey = (from: string, to: string) => `${from}>${to}`;

function rowFigures(rows: readonly FrameworkRow[]): ImpactRowFigures[] {
  return [...rows]
    .sort((a, b) => a.subCategoryId - b.subCategoryId || a.indicatorId - b.indicatorId)
    .map((r) => ({
      categoryId: r.categoryId,
      categoryName: r.categoryName,
      subCategoryId: r.subCategoryId,
      subCategoryName: r.subCategoryName,
      superIndicatorId: r.superIndicatorId,
      superIndicatorName: r.superIndicatorName,
      indicatorId: r.indicatorId,
      indicatorName: r.indicatorName,
      unitId: r.unitId,
      unitName: r.unitName,
      indicatorValue: r.indicatorValue,
      subCategoryVolume: r.subCategoryVolume,
    }));
}

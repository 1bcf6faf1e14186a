import type { Caller } from '@green-impact/shared/caller';
import { FailedPreconditionError } from '@green-impact/shared/errors';
import type { ImpactComputationRow, ImpactRow } from '../entities.js';
import { frameworkRead, type FrameworkSource } from '../framework-source.js';
import { MSG } from '../messages.js';
import { computePositionImpacts } from './impact-math.js';

/** Everything stored for one (position, year): the formula's scalar inputs and one row per (k, i). */
export interface PreparedImpacts {
  computation: Omit<ImpactComputationRow, 'id' | 'positionId' | 'computedAt'>;
  rows: Omit<ImpactRow, 'id' | 'computationId'>[];
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

/**
 * Gathers the inputs of the impact formula from the taxonomy service (year figures, the framework's
 * rows, the year's FX rate) and applies it (impact-math.ts). Reads only: the caller stores the result,
 * so no database transaction is held open across these calls.
 */
export class ImpactCalculator {
  constructor(private readonly frameworks: FrameworkSource) {}

  async prepare(caller: Caller, position: PositionTerms, asset: AssetLink, reportingYear: number): Promise<PreparedImpacts> {
    const gone = () => MSG.frameworkGone(asset.frameworkIdentifier, asset.assetIdentifier);
    const [specifics, detail] = await Promise.all([
      frameworkRead(gone, () => this.frameworks.yearSpecifics(caller, asset.frameworkId, reportingYear)),
      frameworkRead(gone, () => this.frameworks.details(caller, asset.frameworkId, reportingYear)),
    ]);
    if (!detail) throw new FailedPreconditionError(gone());
    const [conversion] = await this.frameworks.convert(caller, reportingYear, [
      { amount: position.amount, fromCurrencyCode: position.currencyCode, toCurrencyCode: specifics.frameworkCurrencyCode },
    ]);
    const rows = [...detail.framework].sort((a, b) => a.subCategoryId - b.subCategoryId || a.indicatorId - b.indicatorId);
    const result = computePositionImpacts({
      reportingYear,
      position: { amount: position.amount, currencyCode: position.currencyCode, positionDays: position.days, startDate: position.startDate },
      fxRate: conversion!.fxRate,
      framework: {
        frameworkIdentifier: specifics.frameworkIdentifier,
        reportingYear,
        currencyCode: specifics.frameworkCurrencyCode,
        valueOutstanding: specifics.valueOutstanding,
        allocatedAmount: specifics.allocatedAmount,
        valueOutstandingFramework: specifics.valueOutstandingFramework,
      },
      rows,
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
        fxRate: conversion!.fxRate,
        positionAmountFramework: result.positionAmountFramework,
        valueOutstanding: specifics.valueOutstanding,
        allocatedAmount: specifics.allocatedAmount,
        valueOutstandingFramework: specifics.valueOutstandingFramework,
        denominator: result.denominator,
        holdingStart: result.holding.start,
        positionDays: position.days,
        holdingDaysInYear: result.holding.holdingDaysInYear,
        daysInYear: result.holding.daysInYear,
        tau: result.holding.tau,
      },
      rows: result.rows.map((r) => ({
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
        value: r.value,
        attributedVolume: r.attributedVolume,
      })),
    };
  }
}

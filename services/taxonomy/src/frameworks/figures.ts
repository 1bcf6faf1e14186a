import type { FrameworkSummary } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import type { OwnedRecord } from './entities.js';
import { toVisibility } from './inputs.js';

/** A framework's year specifics as read (absent columns when it has none for the year). */
export interface YearFigures {
  valueOutstanding: number | null;
  allocatedAmount: number | null;
  valueOutstandingFramework: boolean | null;
  /** The EU GBS report fields (issue 37); null when not given. */
  issuerLei?: string | null;
  externalReviewer?: string | null;
  approvingAuthority?: string | null;
  reportingPeriodStart?: string | null;
  reportingPeriodEnd?: string | null;
  unallocatedProceedsPlacement?: string | null;
}

/**
 * framework_active_percentage: allocated ÷ value outstanding × 100, computed (never stored), 0 when
 * nothing is outstanding. It may exceed 100 when more than the value outstanding was allocated.
 */
export function activePercentage(valueOutstanding: number, allocatedAmount: number): number {
  return valueOutstanding === 0 ? 0 : (allocatedAmount / valueOutstanding) * 100;
}

/** The §2.3 summary; the year fields are absent when the framework has no year specifics for `year`. */
export function frameworkSummary(f: OwnedRecord & YearFigures, account: string, year: number): FrameworkSummary {
  const summary: FrameworkSummary = {
    frameworkId: f.id,
    frameworkIdentifier: f.identifier,
    frameworkName: f.name,
    frameworkCurrencyCode: f.currencyCode,
    frameworkVisibility: toVisibility(f.visibility),
    reportingYear: year,
    owned: f.accountId === account,
  };
  if (f.valueOutstanding !== null && f.allocatedAmount !== null && f.valueOutstandingFramework !== null) {
    summary.frameworkValueOutstanding = f.valueOutstanding;
    summary.frameworkAllocatedAmount = f.allocatedAmount;
    summary.frameworkActivePercentage = activePercentage(f.valueOutstanding, f.allocatedAmount);
    summary.valueOutstandingFramework = f.valueOutstandingFramework;
  }
  const report = {
    issuerLei: f.issuerLei,
    externalReviewer: f.externalReviewer,
    approvingAuthority: f.approvingAuthority,
    reportingPeriodStart: f.reportingPeriodStart,
    reportingPeriodEnd: f.reportingPeriodEnd,
    unallocatedProceedsPlacement: f.unallocatedProceedsPlacement,
  };
  for (const [key, value] of Object.entries(report) as [keyof typeof report, string | null | undefined][]) {
    if (value !== null && value !== undefined) summary[key] = value;
  }
  return summary;
}

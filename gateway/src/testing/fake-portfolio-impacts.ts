import type { ImpactRecord, ImpactTotal, VolumeTotal } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import type { FrameworkDetail } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import { FailedPreconditionError } from '@green-impact/shared/errors';

/**
 * The impact formula of the fake PortfolioService (fake-portfolio.ts), from a framework detail of the fake
 * TaxonomyService: impact = tau · (P_f / D) · x, attributed volume = tau · (P_f / D) · s. No FX: a position
 * in another currency than the framework's fails as the service does without a rate. Only as faithful as
 * the gateway's tests need; the real formula is tested in services/portfolio.
 */

export interface FakeHolding {
  positionId: number;
  investorIdentifier: string;
  assetIdentifier: string;
  amount: number;
  currencyCode: string;
  days: number;
  startDate: string | undefined;
}

const DAY = 86_400_000;
const utc = (date: string) => Date.parse(`${date}T00:00:00Z`);

/** Days of [start, start + days) inside the year, and the days of the year. */
export function holdingDays(h: FakeHolding, year: number): { held: number; inYear: number } {
  const start = utc(h.startDate ?? `${year}-01-01`);
  const end = start + h.days * DAY;
  const from = utc(`${year}-01-01`);
  const to = utc(`${year + 1}-01-01`);
  return { held: Math.max(0, Math.round((Math.min(end, to) - Math.max(start, from)) / DAY)), inYear: Math.round((to - from) / DAY) };
}

export function computeRecords(h: FakeHolding, detail: FrameworkDetail, year: number, nextId: () => number): ImpactRecord[] {
  const s = detail.frameworkSummary!;
  const v = s.frameworkValueOutstanding;
  const l = s.frameworkAllocatedAmount;
  const flag = s.valueOutstandingFramework;
  if (v === undefined || l === undefined || flag === undefined) {
    throw new FailedPreconditionError(`Framework "${s.frameworkIdentifier}" has no year specifics for ${year}.`);
  }
  if (h.currencyCode !== s.frameworkCurrencyCode) {
    throw new FailedPreconditionError(`No FX rate between ${h.currencyCode} and ${s.frameworkCurrencyCode} for ${year}.`);
  }
  const d = flag ? v : Math.max(l, v);
  const { held, inYear } = holdingDays(h, year);
  const tau = held / inYear;
  const factor = (tau * h.amount) / d;
  return detail.framework.map((r) => ({
    id: nextId(),
    positionId: h.positionId,
    reportingYear: year,
    investorIdentifier: h.investorIdentifier,
    assetIdentifier: h.assetIdentifier,
    frameworkIdentifier: s.frameworkIdentifier,
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
    value: factor * r.indicatorValue,
    attributedVolume: factor * r.subCategoryVolume,
    frameworkCurrencyCode: s.frameworkCurrencyCode,
    positionAmountFrameworkCurrency: h.amount,
    attributionDenominator: d,
    tau,
    fxRate: 1,
    positionAmount: h.amount,
    positionCurrencyCode: h.currencyCode,
    indicatorValue: r.indicatorValue,
    subCategoryVolume: r.subCategoryVolume,
    frameworkValueOutstanding: v,
    frameworkAllocatedAmount: l,
    valueOutstandingFramework: flag,
    holdingDaysInYear: held,
    daysInYear: inYear,
    computedAt: '2024-06-30T12:00:00.000Z',
    stale: false,
  }));
}

/** Totals per (indicator, unit) and per (sub category, currency), each position's sub category once. */
export function totalsOf(records: readonly ImpactRecord[]): { totals: ImpactTotal[]; volumeTotals: VolumeTotal[] } {
  const totals = new Map<string, ImpactTotal & { positions: Set<number> }>();
  const volumes = new Map<string, VolumeTotal & { seen: Set<number> }>();
  for (const r of records) {
    const t = totals.get(`${r.indicatorId}/${r.unitId}`) ?? {
      indicatorId: r.indicatorId,
      indicatorName: r.indicatorName,
      unitId: r.unitId,
      unitName: r.unitName,
      superIndicatorId: r.superIndicatorId,
      superIndicatorName: r.superIndicatorName,
      value: 0,
      positionCount: 0,
      positions: new Set<number>(),
    };
    t.value += r.value;
    t.positions.add(r.positionId);
    t.positionCount = t.positions.size;
    totals.set(`${r.indicatorId}/${r.unitId}`, t);
    const v = volumes.get(`${r.subCategoryId}/${r.frameworkCurrencyCode}`) ?? {
      subCategoryId: r.subCategoryId,
      subCategoryName: r.subCategoryName,
      currencyCode: r.frameworkCurrencyCode,
      attributedVolume: 0,
      seen: new Set<number>(),
    };
    if (!v.seen.has(r.positionId)) {
      v.seen.add(r.positionId);
      v.attributedVolume += r.attributedVolume;
    }
    volumes.set(`${r.subCategoryId}/${r.frameworkCurrencyCode}`, v);
  }
  return {
    totals: [...totals.values()].map(({ positions: _p, ...t }) => t),
    volumeTotals: [...volumes.values()].map(({ seen: _s, ...v }) => v),
  };
}

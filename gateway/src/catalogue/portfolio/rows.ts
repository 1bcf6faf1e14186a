import {
  RecomputeScope,
  RecomputeStatus,
  type ImpactRecomputeJob,
  type AssetFrameworkDetail,
  type ImpactRecord,
  type ImpactTotal,
  type VolumeTotal,
} from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { assetFrameworkRow } from '../../generated/portfolio.js';
import { frameworkSummaryRow } from '../../generated/taxonomy.js';

/**
 * The /v1/call answers of the portfolio domain: proto messages → the spec's JSON of assets (§2.5),
 * investors (§2.6), positions and portfolios (§2.7), key for key and in the spec's order (assets', investors',
 * positions', portfolios' and portfolio positions' rows are generated from portfolio.proto:
 * gateway/src/generated/portfolio.ts); optional values the service leaves out are `null` (the key is
 * always there). The proto's extras (`owned`, `framework_id`, `masked`, `encrypted`, `impact_years`,
 * `position_ids`) stay out of /v1/call answers. Impacts are not spec resources: their JSON is the proto's
 * fields in snake_case.
 */

const yesNo = (flag: boolean): 'yes' | 'no' => (flag ? 'yes' : 'no');

/**
 * The asset's framework detail: the framework summary of the year plus `framework`, its rows attributed to
 * the asset. The detail carries every summary field under the summary's names, so the framework's shaper
 * serves it; the attribution inputs (share, D, FX rate) are GraphQL's.
 */
export function assetFrameworkDetail(d: AssetFrameworkDetail) {
  return { ...frameworkSummaryRow({ ...d, reportingYear: 0, owned: false }), framework: d.framework.map(assetFrameworkRow) };
}

/** One stored impact with every input of the formula, so a report can be audited. */
export function impactRecordRow(r: ImpactRecord) {
  return {
    impact_id: r.id,
    position_id: r.positionId,
    reporting_year: r.reportingYear,
    investor_identifier: r.investorIdentifier,
    asset_identifier: r.assetIdentifier,
    framework_identifier: r.frameworkIdentifier,
    category_id: r.categoryId,
    category_name: r.categoryName,
    sub_category_id: r.subCategoryId,
    sub_category_name: r.subCategoryName,
    super_indicator_id: r.superIndicatorId,
    super_indicator_name: r.superIndicatorName,
    indicator_id: r.indicatorId,
    indicator_name: r.indicatorName,
    unit_id: r.unitId,
    unit_name: r.unitName,
    value: r.value,
    attributed_volume: r.attributedVolume,
    framework_currency_code: r.frameworkCurrencyCode,
    position_amount: r.positionAmount,
    position_currency_code: r.positionCurrencyCode,
    fx_rate: r.fxRate,
    position_amount_framework_currency: r.positionAmountFrameworkCurrency,
    framework_value_outstanding: r.frameworkValueOutstanding,
    framework_allocated_amount: r.frameworkAllocatedAmount,
    value_outstanding_framework: yesNo(r.valueOutstandingFramework),
    attribution_denominator: r.attributionDenominator,
    holding_days_in_year: r.holdingDaysInYear,
    days_in_year: r.daysInYear,
    tau: r.tau,
    indicator_value: r.indicatorValue,
    sub_category_volume: r.subCategoryVolume,
    computed_at: r.computedAt,
    // yes: a framework or FX change made it stale; a recompute job is on its way.
    stale: yesNo(r.stale),
  };
}

export function impactTotalRow(t: ImpactTotal) {
  return {
    indicator_id: t.indicatorId,
    indicator_name: t.indicatorName,
    super_indicator_id: t.superIndicatorId,
    super_indicator_name: t.superIndicatorName,
    unit_id: t.unitId,
    unit_name: t.unitName,
    value: t.value,
    position_count: t.positionCount,
  };
}

export function volumeTotalRow(t: VolumeTotal) {
  return {
    sub_category_id: t.subCategoryId,
    sub_category_name: t.subCategoryName,
    currency_code: t.currencyCode,
    attributed_volume: t.attributedVolume,
  };
}

/** Totals of a portfolio's or an investor's positions for a year, with the records they are made of. */
export function impactSummary(s: {
  reportingYear: number;
  totals: ImpactTotal[];
  volumeTotals: VolumeTotal[];
  impacts: ImpactRecord[];
  positionIdsWithoutImpacts: number[];
  stalePositions: number;
}, recordsOmitted = false) {
  return {
    reporting_year: s.reportingYear,
    totals: s.totals.map(impactTotalRow),
    volume_totals: s.volumeTotals.map(volumeTotalRow),
    // Left out, not empty, when include_records is no: an empty list would say there are none.
    ...(recordsOmitted ? {} : { impacts: s.impacts.map(impactRecordRow) }),
    position_ids_without_impacts: s.positionIdsWithoutImpacts,
    stale_positions: s.stalePositions,
  };
}

// ---- impact recompute jobs (not spec resources) ----

export const RECOMPUTE_SCOPES = ['investor', 'portfolio', 'account', 'stale'] as const;
export const RECOMPUTE_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type RecomputeScopeName = (typeof RECOMPUTE_SCOPES)[number];
export type RecomputeStatusName = (typeof RECOMPUTE_STATUSES)[number];

export const SCOPE_ENUMS: Record<RecomputeScopeName, RecomputeScope> = {
  investor: RecomputeScope.RECOMPUTE_SCOPE_INVESTOR,
  portfolio: RecomputeScope.RECOMPUTE_SCOPE_PORTFOLIO,
  account: RecomputeScope.RECOMPUTE_SCOPE_ACCOUNT,
  stale: RecomputeScope.RECOMPUTE_SCOPE_STALE,
};
export const STATUS_ENUMS: Record<RecomputeStatusName, RecomputeStatus> = {
  queued: RecomputeStatus.RECOMPUTE_STATUS_QUEUED,
  running: RecomputeStatus.RECOMPUTE_STATUS_RUNNING,
  completed: RecomputeStatus.RECOMPUTE_STATUS_COMPLETED,
  failed: RecomputeStatus.RECOMPUTE_STATUS_FAILED,
};
const scopeNames = new Map(Object.entries(SCOPE_ENUMS).map(([n, e]) => [e, n as RecomputeScopeName]));
const statusNames = new Map(Object.entries(STATUS_ENUMS).map(([n, e]) => [e, n as RecomputeStatusName]));

export const scopeNameOf = (scope: RecomputeScope): RecomputeScopeName | undefined => scopeNames.get(scope);
export const statusNameOf = (status: RecomputeStatus): RecomputeStatusName | undefined => statusNames.get(status);

/** A job in snake_case: absent times and year left out. */
export function recomputeJobRow(j: ImpactRecomputeJob) {
  return {
    job_id: j.jobId,
    scope: scopeNameOf(j.scope) ?? 'unknown',
    scope_identifier: j.scopeIdentifier,
    ...(j.reportingYear !== undefined ? { reporting_year: j.reportingYear } : {}),
    status: statusNameOf(j.status) ?? 'unknown',
    done: j.done,
    total: j.total,
    error: j.error,
    reason: j.reason,
    attempts: j.attempts,
    created_at: j.createdAt,
    ...(j.startedAt ? { started_at: j.startedAt } : {}),
    ...(j.finishedAt ? { finished_at: j.finishedAt } : {}),
  };
}

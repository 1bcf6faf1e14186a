import { epochDay, isoDateOfEpochDay } from '../impacts/holding-period.js';
import { indicatorTotals } from '../impacts/totals.js';
import type { JsonValue } from '@green-impact/shared/canonical-json';
import { roundTo } from '@green-impact/shared/figures';

/**
 * The position impacts document (writeJson/HtmlPositionImpactsToBlockchain), pure: the position, its
 * asset and framework, the impact figures and every input of the formula, so a reader can redo the
 * arithmetic. Field names follow the spec's. `decimals` rounds amounts, volumes and impact values;
 * ratios (FX rate, P_f ÷ D, τ) keep full precision, since rounding them would change what they explain.
 * The document holds no time of rendering: the same data renders to the same bytes.
 */
export const DOCUMENT_KIND = 'position_impacts';
export const DOCUMENT_VERSION = 1;
export const FORMULA = 'impact(k,i) = τ · (P_f / D) · x(k,i); attributed_volume(k) = τ · (P_f / D) · s(k)';

export interface DocumentImpactRow {
  categoryId: number;
  categoryName: string;
  subCategoryId: number;
  subCategoryName: string;
  superIndicatorId: number;
  superIndicatorName: string;
  indicatorId: number;
  indicatorName: string;
  unitId: number;
  unitName: string;
  /** x(k,i). */
  indicatorValue: number;
  /** s(k). */
  subCategoryVolume: number;
  value: number;
  attributedVolume: number;
  /** Present only when SDGs are included. */
  sdg?: Record<string, string>;
  /** Present only when EU objectives are included. */
  euObjective?: Record<string, string>;
}

export interface PositionDocumentInput {
  reportingYear: number;
  languageCode?: string | undefined;
  decimals: number;
  sdgGoalsIncluded: boolean;
  euObjectivesIncluded: boolean;
  position: { id: number; amount: number; currencyCode: string; days: number; startDate: string | null };
  /**
   * Only when the investor is to be written (write_investor_to_blockchain=yes): without it the document
   * carries no investor-identifying field at all, since stored documents outlive the caller's intent.
   */
  investor?: { identifier: string; name?: string | undefined; email?: string | undefined } | undefined;
  asset: {
    identifier: string;
    name: string;
    issuerIdentifier: string;
    issuerName: string;
    currencyCode: string;
    valueOutstanding: number | null;
    dateIssued: string | null;
    dateMaturity: string | null;
  };
  computation: {
    frameworkIdentifier: string;
    frameworkName: string;
    frameworkCurrencyCode: string;
    valueOutstanding: number;
    allocatedAmount: number;
    valueOutstandingFramework: boolean;
    denominator: number;
    fxRate: number;
    positionAmountFramework: number;
    holdingStart: string;
    positionDays: number;
    holdingDaysInYear: number;
    daysInYear: number;
    tau: number;
    computedAt: string;
  };
  rows: DocumentImpactRow[];
}

type Goals = { [goalNumber: string]: string };

/** The document as written (snake_case, the spec's field names); absent PII fields are left out. */
export type PositionDocument = {
  document: string;
  document_version: number;
  reporting_year: number;
  language_code: string | undefined;
  decimals: number;
  position: {
    position_id: number;
    position_amount: number;
    position_currency_code: string;
    position_days: number;
    position_start_date: string | null;
  };
  investor: { investor_identifier: string; investor_name: string | undefined; investor_email: string | undefined } | undefined;
  asset: {
    asset_identifier: string;
    asset_name: string;
    issuer_identifier: string;
    issuer_name: string;
    asset_currency_code: string;
    asset_value_outstanding: number | null;
    asset_date_issued: string | null;
    asset_date_maturity: string | null;
  };
  framework: {
    framework_identifier: string;
    framework_name: string;
    framework_currency_code: string;
    framework_value_outstanding: number;
    framework_allocated_amount: number;
    value_outstanding_framework: 'yes' | 'no';
  };
  attribution: {
    formula: string;
    fx_rate: number;
    position_amount_framework_currency: number;
    attribution_denominator: number;
    attribution_share: number;
    holding_start: string;
    holding_last_day: string;
    holding_days_in_year: number;
    days_in_year: number;
    tau: number;
    computed_at: string;
  };
  impacts: {
    category_id: number;
    category_name: string;
    sub_category_id: number;
    sub_category_name: string;
    super_indicator_id: number;
    super_indicator_name: string;
    indicator_id: number;
    indicator_name: string;
    unit_id: number;
    unit_name: string;
    indicator_value: number;
    sub_category_volume: number;
    impact: number;
    attributed_volume: number;
    sdg: Goals | undefined;
    eu_objective: Goals | undefined;
  }[];
  totals: { indicator_id: number; indicator_name: string; unit_id: number; unit_name: string; impact: number }[];
};

/** The document as a JSON value (for canonicalJson). */
export function documentJson(doc: PositionDocument): JsonValue {
  return doc;
}

export function buildPositionDocument(input: PositionDocumentInput): PositionDocument {
  const r = (x: number) => roundTo(x, input.decimals);
  const c = input.computation;
  const lastDay = isoDateOfEpochDay(epochDay(c.holdingStart) + c.positionDays - 1);
  return {
    document: DOCUMENT_KIND,
    document_version: DOCUMENT_VERSION,
    reporting_year: input.reportingYear,
    language_code: input.languageCode,
    decimals: input.decimals,
    position: {
      position_id: input.position.id,
      position_amount: r(input.position.amount),
      position_currency_code: input.position.currencyCode,
      position_days: input.position.days,
      position_start_date: input.position.startDate,
    },
    investor: input.investor && {
      investor_identifier: input.investor.identifier,
      investor_name: input.investor.name,
      investor_email: input.investor.email,
    },
    asset: {
      asset_identifier: input.asset.identifier,
      asset_name: input.asset.name,
      issuer_identifier: input.asset.issuerIdentifier,
      issuer_name: input.asset.issuerName,
      asset_currency_code: input.asset.currencyCode,
      asset_value_outstanding: input.asset.valueOutstanding === null ? null : r(input.asset.valueOutstanding),
      asset_date_issued: input.asset.dateIssued,
      asset_date_maturity: input.asset.dateMaturity,
    },
    framework: {
      framework_identifier: c.frameworkIdentifier,
      framework_name: c.frameworkName,
      framework_currency_code: c.frameworkCurrencyCode,
      framework_value_outstanding: r(c.valueOutstanding),
      framework_allocated_amount: r(c.allocatedAmount),
      value_outstanding_framework: c.valueOutstandingFramework ? 'yes' : 'no',
    },
    attribution: {
      formula: FORMULA,
      fx_rate: c.fxRate,
      position_amount_framework_currency: r(c.positionAmountFramework),
      attribution_denominator: r(c.denominator),
      attribution_share: c.positionAmountFramework / c.denominator,
      holding_start: c.holdingStart,
      holding_last_day: lastDay,
      holding_days_in_year: c.holdingDaysInYear,
      days_in_year: c.daysInYear,
      tau: c.tau,
      computed_at: c.computedAt,
    },
    impacts: input.rows.map((row) => ({
      category_id: row.categoryId,
      category_name: row.categoryName,
      sub_category_id: row.subCategoryId,
      sub_category_name: row.subCategoryName,
      super_indicator_id: row.superIndicatorId,
      super_indicator_name: row.superIndicatorName,
      indicator_id: row.indicatorId,
      indicator_name: row.indicatorName,
      unit_id: row.unitId,
      unit_name: row.unitName,
      indicator_value: r(row.indicatorValue),
      sub_category_volume: r(row.subCategoryVolume),
      impact: r(row.value),
      attributed_volume: r(row.attributedVolume),
      sdg: input.sdgGoalsIncluded ? sortedMap(row.sdg) : undefined,
      eu_objective: input.euObjectivesIncluded ? sortedMap(row.euObjective) : undefined,
    })),
    totals: indicatorTotals(
      input.rows.map((row) => ({ ...row, positionId: input.position.id, frameworkCurrencyCode: c.frameworkCurrencyCode })),
    ).map((t) => ({
      indicator_id: t.indicatorId,
      indicator_name: t.indicatorName,
      unit_id: t.unitId,
      unit_name: t.unitName,
      impact: r(t.value),
    })),
  };
}

function sortedMap(map: Record<string, string> | undefined): Goals {
  const out: Goals = {};
  for (const k of Object.keys(map ?? {}).sort((a, b) => Number(a) - Number(b) || a.localeCompare(b))) out[k] = map![k]!;
  return out;
}

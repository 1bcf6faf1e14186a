import type { FrameworkDetail } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import { canonicalJson, type JsonValue } from '@green-impact/shared/canonical-json';
import { yesNo, type FrameworkRenderOptions } from './framework-options.js';
import { roundTo } from '@green-impact/shared/figures';

export const FRAMEWORK_DOCUMENT_VERSION = 1;

/**
 * The framework document as JSON: the spec's framework detail form (§2.3: the summary fields and the
 * `framework` array of rows, spec field names, yes/no strings) plus what it was rendered for
 * (`reporting_year`, `language_code`, `decimals`, the two include flags). Year fields are null without
 * year specifics; `sdg` / `eu_objective` are in the rows only when asked for. No timestamps: the same
 * data and options give the same bytes.
 */
export function frameworkDocument(detail: FrameworkDetail, o: FrameworkRenderOptions): JsonValue {
  const s = detail.frameworkSummary!;
  const round = (x: number | undefined): number | null => (x === undefined ? null : roundTo(x, o.decimals));
  return {
    document: 'framework',
    document_version: FRAMEWORK_DOCUMENT_VERSION,
    reporting_year: o.reportingYear,
    language_code: o.languageCode,
    decimals: o.decimals,
    sdg_goals_included: yesNo(o.sdgGoalsIncluded),
    eu_objectives_included: yesNo(o.euObjectivesIncluded),
    framework_id: s.frameworkId,
    framework_identifier: s.frameworkIdentifier,
    framework_name: s.frameworkName,
    framework_value_outstanding: round(s.frameworkValueOutstanding),
    framework_allocated_amount: round(s.frameworkAllocatedAmount),
    framework_active_percentage: round(s.frameworkActivePercentage),
    framework_currency_code: s.frameworkCurrencyCode,
    value_outstanding_framework: s.valueOutstandingFramework === undefined ? null : yesNo(s.valueOutstandingFramework),
    framework_visibility: s.frameworkVisibility === Visibility.VISIBILITY_PUBLIC ? 'public' : 'private',
    framework: detail.framework.map((r) => ({
      category_id: r.categoryId,
      category_name: r.categoryName,
      sub_category_id: r.subCategoryId,
      sub_category_name: r.subCategoryName,
      sub_category_volume: roundTo(r.subCategoryVolume, o.decimals),
      framework_currency_code: r.frameworkCurrencyCode,
      super_indicator_id: r.superIndicatorId,
      super_indicator_name: r.superIndicatorName,
      indicator_id: r.indicatorId,
      indicator_name: r.indicatorName,
      indicator_value: roundTo(r.indicatorValue, o.decimals),
      unit_id: r.unitId,
      unit_name: r.unitName,
      year: r.year,
      ...(o.sdgGoalsIncluded ? { sdg: { ...r.sdg } } : {}),
      ...(o.euObjectivesIncluded ? { eu_objective: { ...r.euObjective } } : {}),
      language: r.language,
    })),
  };
}

export function renderFrameworkJson(detail: FrameworkDetail, o: FrameworkRenderOptions): string {
  return canonicalJson(frameworkDocument(detail, o));
}

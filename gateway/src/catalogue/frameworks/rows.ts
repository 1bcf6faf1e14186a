import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import type {
  FrameworkDetail,
  FrameworkRow,
  FrameworkSummary,
  ProjectDetail,
  ProjectRow,
  ProjectSummary,
} from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import { InternalError } from '@green-impact/shared/errors';
import { goals } from '../answer-shapes.js';

/**
 * proto messages → the spec's JSON of frameworks (§2.3) and projects (§2.4), key for key and in the
 * spec's order. Year figures a framework or project lacks for the requested year are `null` (the key is
 * always there, so legacy clients can test it). The proto's extras (`owned`, `reporting_year`,
 * `language_code`) stay out of /v1/call answers.
 */

/** The spec's visibility strings; the service never answers UNSPECIFIED, and private is the spec's default. */
export function visibilityText(v: Visibility): 'public' | 'private' {
  return v === Visibility.VISIBILITY_PUBLIC ? 'public' : 'private';
}

const orNull = <T>(value: T | undefined): T | null => (value === undefined ? null : value);
const yesNo = (flag: boolean | undefined): 'yes' | 'no' | null => (flag === undefined ? null : flag ? 'yes' : 'no');

export function frameworkSummaryRow(s: FrameworkSummary) {
  return {
    framework_id: s.frameworkId,
    framework_identifier: s.frameworkIdentifier,
    framework_name: s.frameworkName,
    framework_value_outstanding: orNull(s.frameworkValueOutstanding),
    framework_allocated_amount: orNull(s.frameworkAllocatedAmount),
    framework_active_percentage: orNull(s.frameworkActivePercentage),
    framework_currency_code: s.frameworkCurrencyCode,
    value_outstanding_framework: yesNo(s.valueOutstandingFramework),
    framework_visibility: visibilityText(s.frameworkVisibility),
  };
}

/** What every framework, project and asset row has: all but the currency field, whose name differs. */
export type RowFields = Omit<FrameworkRow, 'frameworkCurrencyCode'>;

/** Fields every framework, project and asset row shares, in the spec's order around the currency field. */
export function rowHead(r: RowFields) {
  return {
    category_id: r.categoryId,
    category_name: r.categoryName,
    sub_category_id: r.subCategoryId,
    sub_category_name: r.subCategoryName,
    sub_category_volume: r.subCategoryVolume,
  };
}

export function rowTail(r: RowFields) {
  return {
    super_indicator_id: r.superIndicatorId,
    super_indicator_name: r.superIndicatorName,
    indicator_id: r.indicatorId,
    indicator_name: r.indicatorName,
    indicator_value: r.indicatorValue,
    unit_id: r.unitId,
    unit_name: r.unitName,
    year: r.year,
    sdg: goals(r.sdg),
    eu_objective: goals(r.euObjective),
    language: r.language,
  };
}

export function frameworkDetailRow(r: FrameworkRow) {
  return { ...rowHead(r), framework_currency_code: r.frameworkCurrencyCode, ...rowTail(r) };
}

/** Framework detail (§2.3): the summary plus `framework`, its rows of the year. */
export function frameworkDetail(d: FrameworkDetail) {
  return { ...frameworkSummaryRow(required(d.frameworkSummary, 'framework')), framework: d.framework.map(frameworkDetailRow) };
}

export function projectSummaryRow(s: ProjectSummary) {
  return {
    project_id: s.projectId,
    project_identifier: s.projectIdentifier,
    project_name: s.projectName,
    project_allocated_amount: orNull(s.projectAllocatedAmount),
    project_currency_code: s.projectCurrencyCode,
    framework_identifier: s.frameworkIdentifier,
    framework_name: s.frameworkName,
    project_visibility: visibilityText(s.projectVisibility),
  };
}

/** A project row: a framework row whose currency field is project_currency_code (§2.4). */
export function projectDetailRow(r: ProjectRow) {
  return { ...rowHead(r), project_currency_code: r.projectCurrencyCode, ...rowTail(r) };
}

/** Project detail (§2.4): the summary plus `project`, its rows of the year. */
export function projectDetail(d: ProjectDetail) {
  return { ...projectSummaryRow(required(d.projectSummary, 'project')), project: d.project.map(projectDetailRow) };
}

/** The service always sends a detail's summary; its absence is a contract breach, not a client error. */
function required<T>(summary: T | undefined, kind: string): T {
  if (summary === undefined) throw new InternalError('Internal error.', { cause: new Error(`taxonomy returned a ${kind} detail without its summary`) });
  return summary;
}

/** `public` / `private` (as the declarations read them) → the proto enum; absent stays absent ("not given"). */
export function toVisibility(value: 'public' | 'private' | undefined): Visibility | undefined {
  if (value === undefined) return undefined;
  return value === 'public' ? Visibility.VISIBILITY_PUBLIC : Visibility.VISIBILITY_PRIVATE;
}

import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import type {
  FrameworkDetail,
  FrameworkRow,
  ProjectDetail,
  ProjectRow,
} from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import { InternalError } from '@green-impact/shared/errors';
import { goals } from '../answer-shapes.js';
import { frameworkSummaryRow, projectSummaryRow } from '../../generated/taxonomy.js';

/**
 * proto messages → the spec's JSON of frameworks (§2.3) and projects (§2.4), key for key and in the
 * spec's order (the summaries' rows are generated from taxonomy.proto: gateway/src/generated/taxonomy.ts). Year figures a framework or project lacks for the requested year are `null` (the key is
 * always there, so legacy clients can test it). The proto's extras (`owned`, `reporting_year`,
 * `language_code`) stay out of /v1/call answers.
 */


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

import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import type { FrameworkDetail, ProjectDetail } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import { InternalError } from '@green-impact/shared/errors';
import { frameworkRow, frameworkSummaryRow, projectRow, projectSummaryRow } from '../../generated/taxonomy.js';

/**
 * proto messages → the spec's JSON of frameworks (§2.3) and projects (§2.4), key for key and in the
 * spec's order: the summaries and the detail rows are generated from taxonomy.proto
 * (gateway/src/generated/taxonomy.ts); a detail is written here. Year figures a framework or project lacks
 * for the requested year are `null` (the key is always there, so legacy clients can test it). The proto's
 * extras (`owned`, `reporting_year`, `language_code`) stay out of /v1/call answers.
 */

/** Framework detail (§2.3): the summary plus `framework`, its rows of the year. */
export function frameworkDetail(d: FrameworkDetail) {
  return { ...frameworkSummaryRow(required(d.frameworkSummary, 'framework')), framework: d.framework.map(frameworkRow) };
}

/** Project detail (§2.4): the summary plus `project`, its rows of the year. */
export function projectDetail(d: ProjectDetail) {
  return { ...projectSummaryRow(required(d.projectSummary, 'project')), project: d.project.map(projectRow) };
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

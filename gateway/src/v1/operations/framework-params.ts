import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import { taxonomyParams } from './taxonomy-params.js';

/**
 * Parameter specs of the frameworks and projects operations (spec §4.6, §4.7), exported so GraphQL
 * validates its arguments by the same rules. The taxonomy service checks again and alone knows whether a
 * framework, project, currency, sub category or indicator exists and who may change it.
 */

/**
 * Largest amount, volume or indicator value accepted: 10^15 (a thousand trillion) is beyond any bond or
 * project, and below 2^53, so whole amounts stay exact and sums of many projects stay meaningful.
 */
export const MAX_AMOUNT = 1e15;

export const frameworkParams = {
  reportingYear: taxonomyParams.reportingYear,
  languageCode: taxonomyParams.languageCode,
  id: taxonomyParams.id,
  /** framework_identifier / project_identifier: a lookup key, as the service trims and compares it. */
  identifier: { type: 'identifier', required: true },
  name: { type: 'string', required: true, maxLength: 255 },
  /** Must be a registered currency; the service checks (`No such currency XYZ.`). */
  currencyCode: taxonomyParams.currencyCode,
  /** Default private on add, unchanged on update; a filter on reads. */
  visibility: { type: 'visibility' },
  /** Finite, not negative, at most MAX_AMOUNT (spec §1: amounts are numbers). */
  amount: { type: 'number', required: true, min: 0, max: MAX_AMOUNT },
  yesNo: { type: 'yesno', required: true },
} as const;

const f = frameworkParams;

/** The spec's table misspells project_identifier as project_identifer; every project operation accepts both. */
const projectIdentifier = { ...f.identifier, aliases: ['project_identifer'] } as const;

// ---- §4.6 frameworks ----

export const getFrameworksParams = { reporting_year: f.reportingYear, framework_visibility: f.visibility } as const;

export const getFrameworkDetailsParams = {
  framework_identifier: f.identifier,
  reporting_year: f.reportingYear,
  language_code: f.languageCode,
} as const;

export const addFrameworkParams = {
  framework_identifier: f.identifier,
  framework_name: f.name,
  framework_currency_code: f.currencyCode,
  framework_visibility: f.visibility,
} as const;

export const addYearSpecificsToFrameworkParams = {
  framework_identifier: f.identifier,
  /** V: funding raised for the framework in the year. */
  value_outstanding: f.amount,
  /** L: funding allocated to projects in the year. */
  allocated_amount: f.amount,
  /** yes: use of proceeds relates to value outstanding; no: to the allocated amount. */
  value_outstanding_framework: f.yesNo,
  reporting_year: f.reportingYear,
} as const;

export const addCategoryIndicatorToFrameworkParams = {
  framework_identifier: f.identifier,
  sub_category_id: f.id,
  /** Funding / use of proceeds of the sub category, in the framework currency. */
  sub_category_volume: f.amount,
  indicator_id: f.id,
  /** In the indicator's unit. */
  indicator_value: f.amount,
  reporting_year: f.reportingYear,
} as const;

export const removeIndicatorFromFrameworkParams = {
  framework_identifier: f.identifier,
  indicator_id: f.id,
  sub_category_id: f.id,
  reporting_year: f.reportingYear,
} as const;

export const removeCategoryFromFrameworkParams = {
  framework_identifier: f.identifier,
  sub_category_id: f.id,
  reporting_year: f.reportingYear,
} as const;

export const frameworkYearParams = { framework_identifier: f.identifier, reporting_year: f.reportingYear } as const;

export const removeFrameworkParams = { framework_identifier: f.identifier } as const;

// ---- §4.7 projects ----

export const getProjectsParams = { reporting_year: f.reportingYear, project_visibility: f.visibility } as const;

export const getProjectDetailsParams = {
  project_identifier: projectIdentifier,
  reporting_year: f.reportingYear,
  language_code: f.languageCode,
} as const;

export const addProjectParams = {
  project_identifier: projectIdentifier,
  project_name: f.name,
  project_currency_code: f.currencyCode,
  /** The framework the project is to be built into: the caller's own, or another account's public one. */
  framework_identifier: f.identifier,
  project_visibility: f.visibility,
} as const;

/** The spec types allocated_amount integer; any amount is accepted (docs/api-operations.md: amounts are double). */
export const addYearSpecificsToProjectParams = {
  project_identifier: projectIdentifier,
  allocated_amount: f.amount,
  reporting_year: f.reportingYear,
} as const;

export const addCategoryIndicatorToProjectParams = {
  project_identifier: projectIdentifier,
  sub_category_id: f.id,
  /** In the project currency. */
  sub_category_volume: f.amount,
  indicator_id: f.id,
  indicator_value: f.amount,
  reporting_year: f.reportingYear,
} as const;

export const buildFrameworkFromProjectsParams = frameworkYearParams;

export const removeIndicatorFromProjectParams = {
  project_identifier: projectIdentifier,
  indicator_id: f.id,
  sub_category_id: f.id,
  reporting_year: f.reportingYear,
} as const;

export const removeCategoryFromProjectParams = {
  project_identifier: projectIdentifier,
  sub_category_id: f.id,
  reporting_year: f.reportingYear,
} as const;

export const projectYearParams = { project_identifier: projectIdentifier, reporting_year: f.reportingYear } as const;

export const removeProjectParams = { project_identifier: projectIdentifier } as const;

// ---- conversions of validated values to the proto's types ----

/** `public` / `private` (already validated) → the proto enum; absent stays absent ("not given"). */
export function toVisibility(value: string | undefined): Visibility | undefined {
  if (value === undefined) return undefined;
  return value === 'public' ? Visibility.VISIBILITY_PUBLIC : Visibility.VISIBILITY_PRIVATE;
}

/** The spec's `yes` / `no` (already validated) → bool, as the proto carries it. */
export const yes = (value: string): boolean => value === 'yes';

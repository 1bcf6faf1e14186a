import { InvalidArgumentError } from '@green-impact/shared/errors';

/**
 * Parameter specs of the taxonomy service's /v1/call operations (spec §4.3–§4.5), exported so GraphQL
 * validates its arguments by the same rules. The service checks again (defence in depth) and alone knows
 * whether a language code, item or currency exists.
 */
export const taxonomyParams = {
  /** Spec §1, §8: every reporting_year is 4 digits. */
  reportingYear: { type: 'year', required: true },
  /** Reads: absent means "each item in its original language". One of getLanguages; the service checks. */
  languageCode: { type: 'identifier' },
  requiredLanguageCode: { type: 'identifier', required: true },
  id: { type: 'int', required: true, min: 1 },
  optionalId: { type: 'int', min: 1 },
  name: { type: 'string', required: true, maxLength: 255 },
  /** The `*_changed` names of the add operations: absent or "" means "not renaming". */
  newName: { type: 'string', maxLength: 255 },
  translation: { type: 'string', required: true, maxLength: 255 },
  /** Spec §8: 3 characters; sent upper case. */
  currencyCode: { type: 'currency', required: true },
  rate: { type: 'number', required: true },
} as const;

const t = taxonomyParams;

/** getSDGs, getEUObjectives. */
export const languageReadParams = { language_code: t.languageCode } as const;

/** getCategories … getUnits, getTaxonomy. */
export const yearReadParams = { reporting_year: t.reportingYear, language_code: t.languageCode } as const;

export const addCategoryParams = {
  category_name: t.name,
  reporting_year: t.reportingYear,
  category_name_changed: t.newName,
  language_code: t.requiredLanguageCode,
} as const;

export const addSubCategoryParams = {
  sub_category_name: t.name,
  category_id: t.id,
  reporting_year: t.reportingYear,
  sub_category_name_changed: t.newName,
  /** Sent by a spec example; moves the sub category to another category. */
  category_id_changed: t.optionalId,
  language_code: t.requiredLanguageCode,
} as const;

/** addGoalObjectiveToSubCategory / removeGoalObjectiveFromSubCategory. `""` for an unused id is absent. */
export const goalObjectiveParams = {
  sub_category_id: t.id,
  reporting_year: t.reportingYear,
  sdg_id: t.optionalId,
  eu_objective_id: t.optionalId,
} as const;

/** The spec does not mark language_code required for units, super indicators and indicators (default en). */
export const addUnitParams = {
  unit_name: t.name,
  reporting_year: t.reportingYear,
  unit_name_changed: t.newName,
  language_code: t.languageCode,
} as const;

export const addSuperIndicatorParams = {
  super_indicator_name: t.name,
  category_id: t.id,
  reporting_year: t.reportingYear,
  super_indicator_name_changed: t.newName,
  category_id_changed: t.optionalId,
  language_code: t.languageCode,
} as const;

/** unit_id is needed when adding, not when renaming; the service says which. */
export const addIndicatorParams = {
  indicator_name: t.name,
  super_indicator_id: t.id,
  unit_id: t.optionalId,
  reporting_year: t.reportingYear,
  indicator_name_changed: t.newName,
  super_indicator_id_changed: t.optionalId,
  unit_id_changed: t.optionalId,
  language_code: t.languageCode,
} as const;

export const removeCategoryParams = { category_id: t.id, reporting_year: t.reportingYear } as const;
export const removeSubCategoryParams = { sub_category_id: t.id, reporting_year: t.reportingYear } as const;
/** category_id: only the link to that category; absent: the super indicator from every category. */
export const removeSuperIndicatorParams = {
  super_indicator_id: t.id,
  reporting_year: t.reportingYear,
  category_id: t.optionalId,
} as const;
export const removeIndicatorParams = { indicator_id: t.id, reporting_year: t.reportingYear } as const;
export const removeUnitParams = { unit_id: t.id, reporting_year: t.reportingYear } as const;

/** §4.4: every translation takes the item id, reporting_year, language_code and translation, all required. */
export const translationFields = {
  reporting_year: t.reportingYear,
  language_code: t.requiredLanguageCode,
  translation: t.translation,
} as const;
export const categoryTranslationParams = { category_id: t.id, ...translationFields } as const;
export const subCategoryTranslationParams = { sub_category_id: t.id, ...translationFields } as const;
export const superIndicatorTranslationParams = { super_indicator_id: t.id, ...translationFields } as const;
export const indicatorTranslationParams = { indicator_id: t.id, ...translationFields } as const;
export const unitTranslationParams = { unit_id: t.id, ...translationFields } as const;

/**
 * The goal/objective link operations need at least one of the two ids; checked here so the client
 * learns it before a backend call (the service's own text, with the caller's parameter names).
 */
export function requireGoalOrObjective(
  p: { sdg_id?: number | undefined; eu_objective_id?: number | undefined },
  labels: { sdg_id: string; eu_objective_id: string } = { sdg_id: 'sdg_id', eu_objective_id: 'eu_objective_id' },
): void {
  if (p.sdg_id === undefined && p.eu_objective_id === undefined) {
    throw new InvalidArgumentError(`Give ${labels.sdg_id}, ${labels.eu_objective_id} or both.`);
  }
}

import type {
  Category,
  EuObjective,
  Indicator,
  Language,
  Sdg,
  SubCategory,
  SuperIndicator,
  TaxonomyRow,
  Unit,
} from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';

/**
 * proto messages → the spec's JSON (§2.1, §2.2), field for field and in the spec's order. Fields the
 * proto adds for typed clients (language_code, reporting_year, derived) stay out of /v1/call answers;
 * indicators keep unit_id / unit_name, which legacy clients need to read values and lose nothing by.
 */

/** A goal map (number → name), keys in goal-number order. */
export function goals(map: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const entries = Object.entries(map ?? {}).sort(([a], [b]) => Number(a) - Number(b) || a.localeCompare(b));
  return Object.fromEntries(entries);
}

export function sdgRow(s: Sdg) {
  return { sdg_id: s.sdgId, goal_no: s.goalNo, sdg: s.sdg, language: s.language };
}

/** `eu_objectiv_id` is spelled as the spec spells it. */
export function euObjectiveRow(o: EuObjective) {
  return { eu_objectiv_id: o.euObjectivId, objective_no: o.objectiveNo, objective: o.objective, language: o.language };
}

export function categoryRow(c: Category) {
  return { category_id: c.categoryId, category_name: c.categoryName, language: c.language };
}

export function subCategoryRow(s: SubCategory) {
  return {
    sub_category_id: s.subCategoryId,
    sub_category_name: s.subCategoryName,
    category_id: s.categoryId,
    category_name: s.categoryName,
    sdg: goals(s.sdg),
    eu_objective: goals(s.euObjective),
    language: s.language,
  };
}

export function superIndicatorRow(s: SuperIndicator) {
  return {
    super_indicator_id: s.superIndicatorId,
    super_indicator_name: s.superIndicatorName,
    category_id: s.categoryId,
    category_name: s.categoryName,
    language: s.language,
  };
}

export function indicatorRow(i: Indicator) {
  return {
    indicator_id: i.indicatorId,
    indicator_name: i.indicatorName,
    super_indicator_id: i.superIndicatorId,
    super_indicator_name: i.superIndicatorName,
    unit_id: i.unitId,
    unit_name: i.unitName,
    language: i.language,
  };
}

export function unitRow(u: Unit) {
  return { unit_id: u.unitId, unit_name: u.unitName, language: u.language };
}

/** Full taxonomy row (§2.1). */
export function taxonomyRow(r: TaxonomyRow) {
  return {
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
    sdg: goals(r.sdg),
    eu_objective: goals(r.euObjective),
    language: r.language,
  };
}

export function languageRow(l: Language) {
  return { id: l.id, language_code: l.languageCode, language: l.language };
}

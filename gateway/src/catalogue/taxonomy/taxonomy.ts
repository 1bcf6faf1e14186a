import type { GraphqlContext } from '../../graphql/context.js';
import { changePayload, removalPayload } from '../../graphql/payloads.js';
import { taxonomyReads, type Scope } from '../../graphql/taxonomy-reads.js';
import { identifier, int, text, type Field } from '../fields.js';
import { declare } from '../operation.js';
import { ESG, messageChange } from '../renders.js';
import { categoryRow, euObjectiveRow, indicatorRow, sdgRow, subCategoryRow, superIndicatorRow, taxonomyRow, unitRow } from '../../generated/taxonomy.js';

/**
 * The taxonomy (spec §4.3): reads of a year's items in a language, adds and renames, the goal and
 * objective links, and the removals the spec leaves unnamed (docs/api-operations.md). TaxonomyService
 * owns every rule (names 1 to 255 characters, 4-digit years, positive ids, a known language, "Give
 * sdg_id, eu_objective_id or both.") and its texts.
 *
 * GraphQL reads go through the request's taxonomy lists (graphql/taxonomy-reads.ts): one call per list
 * and request, shared with the nested fields and the changes' payloads.
 */

const year = int('reporting_year', { doc: 'Reporting year, 4 digits.' });
const languageCode = identifier('language_code', { doc: "Language of the names, one of languages; default: each item's original language." }).optional();
const yearRead = { year, languageCode };
type YearScope = { year: number; languageCode?: string | undefined };
const scope = (i: YearScope): Scope => ({ year: i.year, languageCode: i.languageCode });
const yearRequest = (i: YearScope) => ({ reportingYear: i.year, languageCode: i.languageCode });
const reads = (ctx: GraphqlContext) => taxonomyReads(ctx);

// ---- reads ----

export const getSdgs = declare({
  solution: ESG,
  operation: 'getSDGs',
  summary: 'The 17 UN Sustainable Development Goals.',
  input: { languageCode },
  service: 'taxonomy',
  method: 'getSdgs',
  request: (i) => ({ languageCode: i.languageCode }),
  v1: (res) => res.sdgs.map(sdgRow),
  graphql: { root: 'Query', field: 'sdgs', returns: '[Sdg!]!', nested: false, render: (_call, i, ctx) => reads(ctx).sdgs(i.languageCode) },
});

export const getEuObjectives = declare({
  solution: ESG,
  operation: 'getEUObjectives',
  summary: 'The six EU environmental objectives.',
  input: { languageCode },
  service: 'taxonomy',
  method: 'getEuObjectives',
  request: (i) => ({ languageCode: i.languageCode }),
  v1: (res) => res.euObjectives.map(euObjectiveRow),
  graphql: { root: 'Query', field: 'euObjectives', returns: '[EuObjective!]!', nested: false, render: (_call, i, ctx) => reads(ctx).euObjectives(i.languageCode) },
});

/** A read of a year's items; its GraphQL field reads the request's list of the same name. */
function yearList<M extends string>(method: M, summary: string, field: 'categories' | 'subCategories' | 'superIndicators' | 'indicators' | 'units' | 'taxonomy', returns: string) {
  return {
    solution: ESG,
    operation: method,
    summary,
    input: yearRead,
    service: 'taxonomy' as const,
    method,
    request: yearRequest,
    graphql: { root: 'Query' as const, field, returns, nested: false, render: (_call: unknown, i: YearScope, ctx: GraphqlContext) => reads(ctx)[field](scope(i)) },
  };
}

export const getCategories = declare({
  ...yearList('getCategories', 'Categories of a reporting year.', 'categories', '[Category!]!'),
  v1: (res) => res.categories.map(categoryRow),
});

export const getSubCategories = declare({
  ...yearList('getSubCategories', 'Sub categories of a reporting year.', 'subCategories', '[SubCategory!]!'),
  v1: (res) => res.subCategories.map(subCategoryRow),
});

export const getSuperIndicators = declare({
  ...yearList('getSuperIndicators', 'Super indicators of a reporting year, one per super indicator with all its categories.', 'superIndicators', '[SuperIndicator!]!'),
  v1: (res) => res.superIndicators.map(superIndicatorRow),
});

export const getIndicators = declare({
  ...yearList('getIndicators', 'Indicators of a reporting year.', 'indicators', '[Indicator!]!'),
  v1: (res) => res.indicators.map(indicatorRow),
});

export const getUnits = declare({
  ...yearList('getUnits', 'Units of a reporting year.', 'units', '[Unit!]!'),
  v1: (res) => res.units.map(unitRow),
});

// The spec's "taxonomy retrieval for a reporting year" (name not shown): full taxonomy rows.
export const getTaxonomy = declare({
  ...yearList(
    'getTaxonomy',
    'The full taxonomy of a reporting year: one row per complete (category, sub category, super indicator, indicator).',
    'taxonomy',
    '[TaxonomyRow!]!',
  ),
  v1: (res) => res.rows.map(taxonomyRow),
});

// ---- adds and renames: the payload carries the item as the year's listing shows it ----

const requiredLanguage = identifier('language_code', { doc: 'The language of the name, one of languages.' });
const optionalLanguage = identifier('language_code', { doc: 'The language of the name, one of languages; default en.' }).optional();
const id = (v1: string, doc: string) => int(v1, { doc, graphql: 'ID' });
const optionalId = (v1: string, doc: string) => int(v1, { doc, graphql: 'ID' }).optional();
export type Item = 'category' | 'subCategory' | 'superIndicator' | 'indicator' | 'unit';

/** The item of a year as its listing shows it (in `languageCode`, else the original language), for a change's payload. */
export function readItem(ctx: GraphqlContext, item: Item, itemId: string | number, year: number, languageCode?: string) {
  return async () => {
    const r = reads(ctx);
    const at: Scope = { year, languageCode };
    const byId =
      item === 'category'
        ? await r.categoriesById(at)
        : item === 'subCategory'
          ? await r.subCategoriesById(at)
          : item === 'superIndicator'
            ? await r.superIndicatorsById(at)
            : item === 'indicator'
              ? await r.indicatorsById(at)
              : await r.unitsById(at);
    return byId.get(Number(itemId));
  };
}

/** A change's GraphQL face: the service's answer and the item it names (by the answer's id, or `idOf` the input). */
export function changed<I extends { year: number }>(field: string, item: Item, idOf?: (i: I) => number, input?: { name: string; doc: string }) {
  return {
    root: 'Mutation' as const,
    field,
    nested: true,
    input,
    returns: `${item[0]!.toUpperCase()}${item.slice(1)}Payload!`,
    render: async (call: () => Promise<{ message: string; id?: number | undefined }>, i: I, ctx: GraphqlContext) => {
      const answer = await call();
      return changePayload(ctx, answer, item, readItem(ctx, item, idOf ? idOf(i) : (answer.id ?? 0), i.year));
    },
  };
}

/** A change of TaxonomyService (renders.ts, messageChange). */
export const taxonomyChange = <M extends string>(method: M, summary: string) => messageChange('taxonomy', method, summary);

/** A change (an add, a rename) whose GraphQL payload carries the `item` the answer's id names. */
export const itemChange = <M extends string>(method: M, item: Item, summary: string) => ({ ...taxonomyChange(method, summary), graphql: changed(method, item) });

export const addCategory = declare({
  ...itemChange('addCategory', 'category', 'Adds a category to a year, or renames one (newName). Operators only.'),
  input: {
    name: text('category_name', { doc: 'Name to add, or the current name of the category to change; in languageCode.' }),
    year,
    languageCode: requiredLanguage,
    newName: text('category_name_changed', { doc: 'Renames the category named `name` to this.' }).optional(),
  },
  request: (i) => ({ categoryName: i.name, reportingYear: i.year, categoryNameChanged: i.newName, languageCode: i.languageCode }),
});

export const addSubCategory = declare({
  ...itemChange('addSubCategory', 'subCategory', 'Adds a sub category to a category of a year, renames or moves one. Operators only.'),
  input: {
    name: text('sub_category_name', { doc: 'Name to add, or the current name of the sub category to change; in languageCode.' }),
    categoryId: id('category_id', 'The category it belongs to.'),
    year,
    languageCode: requiredLanguage,
    newName: text('sub_category_name_changed', { doc: 'Renames the sub category to this.' }).optional(),
    newCategoryId: optionalId('category_id_changed', 'Moves the sub category to this category.'),
  },
  request: (i) => ({
    subCategoryName: i.name,
    categoryId: i.categoryId,
    reportingYear: i.year,
    subCategoryNameChanged: i.newName,
    categoryIdChanged: i.newCategoryId,
    languageCode: i.languageCode,
  }),
});

/** Linking and unlinking a goal or objective take the same input; the payload carries the sub category. */
const goalObjectiveLink = <M extends string>(method: M, summary: string) => ({
  ...taxonomyChange(method, summary),
  input: {
    subCategoryId: id('sub_category_id', 'The sub category.'),
    year,
    sdgId: optionalId('sdg_id', 'An SDG (its id, the goal number).'),
    euObjectiveId: optionalId('eu_objective_id', 'An EU objective (its id, the objective number).'),
  },
  request: (i: { subCategoryId: number; year: number; sdgId?: number | undefined; euObjectiveId?: number | undefined }) => ({
    subCategoryId: i.subCategoryId,
    reportingYear: i.year,
    sdgId: i.sdgId,
    euObjectiveId: i.euObjectiveId,
  }),
  graphql: changed<{ year: number; subCategoryId: number }>(method, 'subCategory', (i) => i.subCategoryId, {
    name: 'GoalObjectiveInput',
    doc: 'Input of addGoalObjectiveToSubCategory and removeGoalObjectiveFromSubCategory; give sdgId, euObjectiveId or both.',
  }),
});

export const addGoalObjectiveToSubCategory = declare(
  goalObjectiveLink('addGoalObjectiveToSubCategory', 'Links an SDG, an EU objective or both to a sub category. Operators only.'),
);

export const removeGoalObjectiveFromSubCategory = declare(
  goalObjectiveLink('removeGoalObjectiveFromSubCategory', 'Unlinks an SDG, an EU objective or both from a sub category. Operators only.'),
);

export const addUnit = declare({
  ...itemChange('addUnit', 'unit', 'Adds a unit to a year, or renames one. Operators only.'),
  input: {
    name: text('unit_name', { doc: 'Name to add, or the current name of the unit to change; in languageCode.' }),
    year,
    languageCode: optionalLanguage,
    newName: text('unit_name_changed', { doc: 'Renames the unit to this.' }).optional(),
  },
  request: (i) => ({ unitName: i.name, reportingYear: i.year, unitNameChanged: i.newName, languageCode: i.languageCode }),
});

export const addSuperIndicator = declare({
  ...itemChange('addSuperIndicator', 'superIndicator', 'Adds a super indicator to a category of a year, renames it or links it to another category. Operators only.'),
  input: {
    name: text('super_indicator_name', { doc: 'Name to add, or the current name of the super indicator to change; in languageCode.' }),
    categoryId: id('category_id', 'A category it belongs to.'),
    year,
    languageCode: optionalLanguage,
    newName: text('super_indicator_name_changed', { doc: 'Renames the super indicator to this.' }).optional(),
    newCategoryId: optionalId('category_id_changed', 'Moves the link to this category.'),
  },
  request: (i) => ({
    superIndicatorName: i.name,
    categoryId: i.categoryId,
    reportingYear: i.year,
    superIndicatorNameChanged: i.newName,
    categoryIdChanged: i.newCategoryId,
    languageCode: i.languageCode,
  }),
});

export const addIndicator = declare({
  ...itemChange('addIndicator', 'indicator', 'Adds an indicator to a super indicator of a year, or renames, moves one or changes its unit. Operators only.'),
  input: {
    name: text('indicator_name', { doc: 'Name to add, or the current name of the indicator to change; in languageCode.' }),
    superIndicatorId: id('super_indicator_id', 'The super indicator it belongs to.'),
    unitId: optionalId('unit_id', 'Its unit; needed when adding, not when renaming.'),
    year,
    languageCode: optionalLanguage,
    newName: text('indicator_name_changed', { doc: 'Renames the indicator to this.' }).optional(),
    newSuperIndicatorId: optionalId('super_indicator_id_changed', 'Moves the indicator to this super indicator.'),
    newUnitId: optionalId('unit_id_changed', 'Gives the indicator this unit.'),
  },
  request: (i) => ({
    indicatorName: i.name,
    superIndicatorId: i.superIndicatorId,
    unitId: i.unitId,
    reportingYear: i.year,
    indicatorNameChanged: i.newName,
    superIndicatorIdChanged: i.newSuperIndicatorId,
    unitIdChanged: i.newUnitId,
    languageCode: i.languageCode,
  }),
});

// ---- removals (unnamed in the spec); GraphQL names the item `id` ----

/** A removal of an item of a year by its id (`idField` on /v1/call); the GraphQL payload names the removed id. */
function removal<M extends string>(method: M, summary: string, idField: Field<number, true>) {
  return {
    ...taxonomyChange(method, summary),
    input: { id: idField, year },
    graphql: {
      root: 'Mutation' as const,
      field: method,
      nested: true,
      returns: 'RemovalPayload!',
      input: { name: 'RemoveTaxonomyItemInput', doc: 'Identifies a taxonomy item of a year to remove.', fields: { id: 'Id of the item.' } },
      render: (call: () => Promise<{ message: string; id?: number | undefined }>, i: { id: number }, ctx: GraphqlContext, info: Parameters<typeof removalPayload>[1]) =>
        removalPayload(ctx, info, i.id, call),
    },
  };
}

export const removeCategory = declare({
  ...removal('removeCategory', 'Removes a category of a year and its translations; refused while anything uses it. Operators only.', id('category_id', 'The category.')),
  request: (i) => ({ categoryId: i.id, reportingYear: i.year }),
});

export const removeSubCategory = declare({
  ...removal(
    'removeSubCategory',
    'Removes a sub category of a year, its goal links and translations; refused while anything uses it. Operators only.',
    id('sub_category_id', 'The sub category.'),
  ),
  request: (i) => ({ subCategoryId: i.id, reportingYear: i.year }),
});

export const removeSuperIndicator = declare({
  ...taxonomyChange('removeSuperIndicator', 'Removes a super indicator of a year, or with a category only its link to that category. Operators only.'),
  input: {
    id: id('super_indicator_id', 'The super indicator.'),
    year,
    categoryId: optionalId('category_id', 'Only the link to this category goes; absent: the super indicator from every category.'),
  },
  request: (i) => ({ superIndicatorId: i.id, reportingYear: i.year, categoryId: i.categoryId }),
  graphql: {
    root: 'Mutation',
    field: 'removeSuperIndicator',
    returns: 'RemoveSuperIndicatorPayload!',
    nested: true,
    render: async (call, i, ctx, info) => {
      const answer = await call();
      // With a category, only the link goes: the super indicator stays, linked to its other categories.
      if (i.categoryId !== undefined) {
        return { ...changePayload(ctx, answer, 'superIndicator', readItem(ctx, 'superIndicator', i.id, i.year)), removedId: null };
      }
      return { ...(await removalPayload(ctx, info, i.id, async () => answer)), superIndicator: null };
    },
  },
});

export const removeIndicator = declare({
  ...removal('removeIndicator', 'Removes an indicator of a year and its translations; refused while anything uses it. Operators only.', id('indicator_id', 'The indicator.')),
  request: (i) => ({ indicatorId: i.id, reportingYear: i.year }),
});

export const removeUnit = declare({
  ...removal('removeUnit', 'Removes a unit of a year and its translations; refused while indicators use it. Operators only.', id('unit_id', 'The unit.')),
  request: (i) => ({ unitId: i.id, reportingYear: i.year }),
});

/** The reads of a year's items, in the order GraphQL's Query shows them. */
export const yearReads = [getCategories, getSubCategories, getSuperIndicators, getIndicators, getUnits, getTaxonomy];

export const taxonomyOperations = [
  getSdgs,
  getEuObjectives,
  ...yearReads,
  addCategory,
  addSubCategory,
  addGoalObjectiveToSubCategory,
  removeGoalObjectiveFromSubCategory,
  addUnit,
  addSuperIndicator,
  addIndicator,
  removeCategory,
  removeSubCategory,
  removeSuperIndicator,
  removeIndicator,
  removeUnit,
];

import type { Category, Currency, EuObjective, FxRate, Indicator, Language, Sdg, SubCategory, SuperIndicator, TaxonomyRow, Unit } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import { nodeId, objectType, type FieldOf } from '../catalogue/objects.js';
import type { GraphqlContext } from './context.js';
import { taxonomyReads, type GroupedSuperIndicator, type Scope, type Scoped } from './taxonomy-reads.js';

/**
 * The object types of the taxonomy, languages, SDGs, EU objectives, currencies and FX rates (spec
 * §4.3–§4.5), declared once (catalogue/objects.ts) and resolved from TaxonomyService's messages. An item
 * carries the scope it was read for (`Scoped`), and its nested items resolve from the lists of the same
 * year and language, read once per request (taxonomy-reads.ts). Where a nested item is missing from its
 * list (it should not be: both come from one service), it is built from what the parent knows.
 */

const TAXONOMY_NODE_ID = "Globally unique, opaque id for node(id:) and nodes(ids:) (Relay's Node), of the item in this year and language; id is unchanged.";

/** What a message names its language by. */
type Named = { language: string; languageCode: string };
const lang = (x: Named): Named => ({ language: x.language, languageCode: x.languageCode });

/** Goals of a goal map (number → name), as the listed SDGs / EU objectives of the same language. */
function goalsOf<G>(map: Readonly<Record<string, string>>, listed: ReadonlyMap<string, G>, fallback: (no: string, name: string) => G): G[] {
  return Object.entries(map)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([no, name]) => listed.get(no) ?? fallback(no, name));
}

type WithGoals = Scoped<Named & { sdg: Record<string, string>; euObjective: Record<string, string> }>;

const sdgsOf = async (s: WithGoals, ctx: GraphqlContext) =>
  // SDG ids are their goal numbers in the service's seed; only a broken answer would need the fallback.
  goalsOf<Sdg>(s.sdg, await taxonomyReads(ctx).sdgsByNumber(s.scope.languageCode), (no, name) => ({ sdgId: Number(no), goalNo: no, sdg: name, ...lang(s) }));

const euObjectivesOf = async (s: WithGoals, ctx: GraphqlContext) =>
  goalsOf<EuObjective>(s.euObjective, await taxonomyReads(ctx).euObjectivesByNumber(s.scope.languageCode), (no, name) => ({
    euObjectivId: Number(no),
    objectiveNo: no,
    objective: name,
    ...lang(s),
  }));

/**
 * An item as a parent that names it knows it (every field but the year, which is the parent's scope's):
 * answered when the year's list lacks it, which it should not (both come from one service).
 */
type Known<T> = Scoped<Omit<T, 'reportingYear'>>;
const known = <K extends { scope: Scope }>(item: K) => ({ ...item, reportingYear: item.scope.year });

const categoryOf = async (at: Known<Category>, ctx: GraphqlContext): Promise<Scoped<Category>> =>
  (await taxonomyReads(ctx).categoriesById(at.scope)).get(at.categoryId) ?? known(at);
const subCategoryOf = async (at: Known<SubCategory>, ctx: GraphqlContext): Promise<Scoped<SubCategory>> =>
  (await taxonomyReads(ctx).subCategoriesById(at.scope)).get(at.subCategoryId) ?? known(at);
const superIndicatorOf = async (at: Known<Omit<SuperIndicator, 'categoryId' | 'categoryName'>>, categoryIds: number[], ctx: GraphqlContext): Promise<GroupedSuperIndicator> =>
  (await taxonomyReads(ctx).superIndicatorsById(at.scope)).get(at.superIndicatorId) ?? { ...known(at), categoryIds };
const indicatorOf = async (at: Known<Indicator>, ctx: GraphqlContext): Promise<Scoped<Indicator>> =>
  (await taxonomyReads(ctx).indicatorsById(at.scope)).get(at.indicatorId) ?? known(at);
const unitOf = async (at: Known<Unit>, ctx: GraphqlContext): Promise<Scoped<Unit>> => (await taxonomyReads(ctx).unitsById(at.scope)).get(at.unitId) ?? known(at);

/** A row naming taxonomy items: TaxonomyRow, and the framework, project and asset rows of FrameworkRow. */
export type RowItems = Scoped<TaxonomyRow>;

/** The items of a row (TaxonomyRow, FrameworkRow), each as its year's list answers it. */
export const rowItems = {
  category: (r: RowItems, _: unknown, ctx: GraphqlContext) => categoryOf(r, ctx),
  subCategory: (r: RowItems, _: unknown, ctx: GraphqlContext) => subCategoryOf(r, ctx),
  superIndicator: (r: RowItems, _: unknown, ctx: GraphqlContext) => superIndicatorOf(r, [r.categoryId], ctx),
  indicator: (r: RowItems, _: unknown, ctx: GraphqlContext) => indicatorOf(r, ctx),
  unit: (r: RowItems, _: unknown, ctx: GraphqlContext) => unitOf(r, ctx),
  sdgs: (r: RowItems, _: unknown, ctx: GraphqlContext) => sdgsOf(r, ctx),
  euObjectives: (r: RowItems, _: unknown, ctx: GraphqlContext) => euObjectivesOf(r, ctx),
};

const sdgType = objectType<Sdg>('Sdg', 'A UN Sustainable Development Goal (spec SDG).', (field) => ({
  id: field('ID!', 'SDG id (spec sdg_id).', 'sdgId'),
  goalNo: field('String!', 'Goal number, e.g. 7 (spec goal_no).', 'goalNo'),
  name: field('String!', 'Goal name, e.g. Affordable and Clean Energy (spec sdg).', 'sdg'),
  language: field('String!', 'Name of the language of name, e.g. English.', 'language'),
  languageCode: field('String!', 'Code of the language of name, e.g. en.', 'languageCode'),
}));

const euObjectiveType = objectType<EuObjective>('EuObjective', 'An EU environmental objective of the Taxonomy Regulation (spec EU objective).', (field) => ({
  id: field('ID!', 'Objective id (spec eu_objectiv_id).', 'euObjectivId'),
  objectiveNo: field('String!', 'Objective number, e.g. 1 (spec objective_no).', 'objectiveNo'),
  name: field('String!', 'Objective name, e.g. Climate change mitigation (spec objective).', 'objective'),
  language: field('String!', 'Name of the language of name.', 'language'),
  languageCode: field('String!', 'Code of the language of name.', 'languageCode'),
}));

const languageType = objectType<Language>('Language', 'A language taxonomy items can be named in (spec language).', (field) => ({
  id: field('ID!', 'Language id.', 'id'),
  code: field('String!', 'Language code, e.g. sv or en-GB (spec language_code).', 'languageCode'),
  name: field('String!', 'Language name, e.g. Swedish (spec language).', 'language'),
}));

const currencyType = objectType<Currency>('Currency', 'A registered currency (spec currency).', (field) => ({
  id: field('ID!', 'Currency id.', 'id'),
  code: field('String!', '3-letter currency code, e.g. EUR (spec currency_code).', 'currencyCode'),
}));

const fxRateType = objectType<FxRate>(
  'FxRate',
  'The FX rate of a currency pair in a year: 1 unit of the denominator currency is worth rate units of the numerator currency.',
  (field) => ({
    id: field('ID', 'FX rate id (spec fx_conversion_id); null for identity and reciprocal pairs derived from stored rates.', (r) => r.fxConversionId || null),
    year: field('Int!', 'Reporting year.', 'year'),
    numeratorCurrencyCode: field('String!', 'Numerator currency code.', 'numeratorCurrencyCode'),
    denominatorCurrencyCode: field('String!', 'Denominator currency code.', 'denominatorCurrencyCode'),
    rate: field('Decimal!', 'numerator / denominator (spec fx_rate).', 'fxRate'),
    derived: field('Boolean!', 'True for identity pairs (rate 1) and reciprocals of stored pairs.', 'derived'),
  }),
);

/**
 * The fields a taxonomy item of a year starts with: its nodeId, id and name (their descriptions and proto
 * fields given), the year it was read for and the language of its name.
 */
function itemFields<T extends Named>(
  field: FieldOf<Scoped<T>>,
  id: [doc: string, from: keyof T & string],
  name: [doc: string, from: keyof T & string],
  docs = { year: 'Reporting year.', language: 'Name of the language of name.' },
) {
  return {
    nodeId: nodeId(TAXONOMY_NODE_ID),
    id: field('ID!', ...id),
    name: field('String!', ...name),
    year: field('Int!', docs.year, (item) => item.scope.year),
    language: field('String!', docs.language, 'language'),
    languageCode: field('String!', 'Code of the language of name.', 'languageCode'),
  };
}

const categoryType = objectType<Scoped<Category>>('Category', 'A taxonomy category of a reporting year (spec category).', (field) => ({
  ...itemFields(field, ['Category id (spec category_id).', 'categoryId'], ['Category name, in the requested language when translated (spec category_name).', 'categoryName'], {
    year: 'Reporting year the category belongs to.',
    language: 'Name of the language of name (spec language).',
  }),
  subCategories: field('[SubCategory!]!', 'Sub categories of the category.', async (c, _, ctx) =>
    (await taxonomyReads(ctx).subCategoriesByCategory(c.scope)).get(c.categoryId) ?? [],
  ),
  superIndicators: field('[SuperIndicator!]!', 'Super indicators linked to the category.', async (c, _, ctx) =>
    (await taxonomyReads(ctx).superIndicatorsByCategory(c.scope)).get(c.categoryId) ?? [],
  ),
}), { implements: 'Node' });

const subCategoryType = objectType<Scoped<SubCategory>>('SubCategory', 'A sub category of a category (spec sub category).', (field) => ({
  ...itemFields(field, ['Sub category id (spec sub_category_id).', 'subCategoryId'], ['Sub category name (spec sub_category_name).', 'subCategoryName']),
  category: field('Category!', 'The category it belongs to.', (s, _, ctx) => categoryOf(s, ctx)),
  sdgs: field('[Sdg!]!', 'Linked UN SDGs (spec sdg), in goal-number order.', (s, _, ctx) => sdgsOf(s, ctx)),
  euObjectives: field('[EuObjective!]!', 'Linked EU environmental objectives (spec eu_objective); may be empty.', (s, _, ctx) => euObjectivesOf(s, ctx)),
}), { implements: 'Node' });

const superIndicatorType = objectType<GroupedSuperIndicator>(
  'SuperIndicator',
  'A super indicator: a group of indicators, linked to one or more categories (spec super indicator).',
  (field) => ({
    ...itemFields(field, ['Super indicator id (spec super_indicator_id).', 'superIndicatorId'], ['Super indicator name (spec super_indicator_name).', 'superIndicatorName']),
    categories: field('[Category!]!', 'Categories the super indicator is linked to.', async (s, _, ctx) => {
      const byId = await taxonomyReads(ctx).categoriesById(s.scope);
      return s.categoryIds.flatMap((id) => byId.get(id) ?? []);
    }),
    indicators: field('[Indicator!]!', 'Indicators of the super indicator.', async (s, _, ctx) =>
      (await taxonomyReads(ctx).indicatorsBySuperIndicator(s.scope)).get(s.superIndicatorId) ?? [],
    ),
  }),
  { implements: 'Node' },
);

const indicatorType = objectType<Scoped<Indicator>>('Indicator', 'An indicator: a measured impact, in a unit (spec indicator).', (field) => ({
  ...itemFields(field, ['Indicator id (spec indicator_id).', 'indicatorId'], ['Indicator name (spec indicator_name).', 'indicatorName']),
  superIndicator: field('SuperIndicator!', 'The super indicator it belongs to.', (i, _, ctx) => superIndicatorOf(i, [], ctx)),
  unit: field('Unit!', 'Unit its values are given in.', (i, _, ctx) => unitOf(i, ctx)),
}), { implements: 'Node' });

const unitType = objectType<Scoped<Unit>>('Unit', 'A unit indicator values are given in (spec unit).', (field) => ({
  ...itemFields(field, ['Unit id (spec unit_id).', 'unitId'], ['Unit name, e.g. tCO2e (spec unit_name).', 'unitName']),
  indicators: field('[Indicator!]!', 'Indicators given in this unit.', async (u, _, ctx) => (await taxonomyReads(ctx).indicatorsByUnit(u.scope)).get(u.unitId) ?? []),
}), { implements: 'Node' });

const taxonomyRowType = objectType<RowItems>('TaxonomyRow', 'One row of the full taxonomy of a year (spec full taxonomy row).', (field) => ({
  category: field('Category!', "The row's category.", rowItems.category),
  subCategory: field('SubCategory!', "The row's sub category.", rowItems.subCategory),
  superIndicator: field('SuperIndicator!', "The row's super indicator.", rowItems.superIndicator),
  indicator: field('Indicator!', "The row's indicator.", rowItems.indicator),
  unit: field('Unit!', "The indicator's unit.", rowItems.unit),
  sdgs: field('[Sdg!]!', 'SDGs linked to the sub category.', rowItems.sdgs),
  euObjectives: field('[EuObjective!]!', 'EU objectives linked to the sub category.', rowItems.euObjectives),
  language: field('String!', "Name of the language of the indicator's name (spec language).", 'language'),
  languageCode: field('String!', 'Code of that language.', 'languageCode'),
}));

/** In the order of the printed schema. */
export const taxonomyObjects = [
  sdgType,
  euObjectiveType,
  languageType,
  currencyType,
  fxRateType,
  categoryType,
  subCategoryType,
  superIndicatorType,
  indicatorType,
  unitType,
  taxonomyRowType,
];

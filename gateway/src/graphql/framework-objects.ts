import type { FrameworkSummary, TaxonomyLayer } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import { arg, nodeId, objectType } from '../catalogue/objects.js';
import type { GraphqlContext } from './context.js';
import { frameworkReads, toGqlVisibility, type FrameworkOfYear, type ProjectOfYear, type Row } from './framework-reads.js';
import { portfolioReads } from './portfolio-reads.js';
import { rowItems } from './taxonomy-objects.js';

/**
 * The object types of frameworks and projects (spec §4.6–§4.7) with what issuers report of them (issue
 * 37), declared once (catalogue/objects.ts) and resolved from TaxonomyService's summaries as read for a
 * year. Nested fields resolve from reads memoised per request (framework-reads.ts), a row's taxonomy
 * items from the taxonomy's own per-request lists (taxonomy-objects.ts). A language the service does not
 * know is its refusal (`Unknown language code xx.`).
 */

const languageArgs = { languageCode: arg('String', "Language of the taxonomy names, one of languages; default: each name's original language.") };

/** A nested field's language: authenticated first, as the root fields; empty means "not given", as on /v1/call. */
async function languageOf(ctx: GraphqlContext, languageCode: string | null | undefined): Promise<string | undefined> {
  await ctx.auth();
  return languageCode || undefined;
}

/** Upper case, as GraphQL's enums name the service's values; null when not given. */
const upper = (value: string | undefined) => (value ? value.toUpperCase() : null);

const frameworkType = objectType<FrameworkOfYear>('Framework', 'A green (bond) framework with its figures of one reporting year (spec framework).', (field) => ({
  nodeId: nodeId(),
  id: field('ID!', 'Framework id (spec framework_id).', 'frameworkId'),
  identifier: field('String!', "The owner's identifier for it, unique per account (spec framework_identifier).", 'frameworkIdentifier'),
  name: field('String!', 'Name (spec framework_name).', 'frameworkName'),
  currencyCode: field('String!', 'Currency of its amounts and volumes, 3 letters (spec framework_currency_code).', 'frameworkCurrencyCode'),
  visibility: field('Visibility!', 'Who sees it (spec framework_visibility).', (f) => toGqlVisibility(f.frameworkVisibility)),
  owned: field('Boolean!', "True when the caller's account owns it; only the owner changes it.", 'owned'),
  year: field('Int!', 'The reporting year of yearSpecifics, rows and projects.', 'year'),
  // The summary carries the year's figures (frameworkYearSpecificsType), all of them or none.
  yearSpecifics: field('FrameworkYearSpecifics', 'Funding figures of the year; null when none were added for it.', (f) =>
    f.frameworkValueOutstanding === undefined || f.frameworkAllocatedAmount === undefined || f.frameworkActivePercentage === undefined || f.valueOutstandingFramework === undefined
      ? null
      : f,
  ),
  rows: field(
    '[FrameworkRow!]',
    'Its (sub category, indicator) rows of the year (spec framework, the detail rows). Null, with an error, only\nfor another account\'s framework whose identifier the caller also uses: a read by identifier gives the caller\'s own.',
    languageArgs,
    async (f, args, ctx) => frameworkReads(ctx).frameworkRows(f, await languageOf(ctx, args.languageCode)),
  ),
  projects: field('[Project!]!', 'Projects visible to the caller that are built into this framework, with their figures of the year.', (f, _, ctx) => frameworkReads(ctx).projectsOf(f)),
  // From the portfolio service: one GetAssets per request, whatever the number of frameworks.
  assets: field(
    '[Asset!]',
    'Assets visible to the caller that finance this framework (linked to it when added). Null, with an error, only\nwhen the portfolio service cannot answer (e.g. SERVICE_UNAVAILABLE): the framework\'s own fields stand.',
    (f, _, ctx) => portfolioReads(ctx).assetsOfFramework(f),
  ),
  // What issuers report (issue 37): the EU Green Bond Standard's report fields.
  issuerLei: field('String', "The issuer's LEI (ISO 17442); null when not given.", 'issuerLei'),
  externalReviewer: field('String', 'The external reviewer; null when not given.', 'externalReviewer'),
  approvingAuthority: field('String', 'The competent authority that approved the prospectus; null when not given.', 'approvingAuthority'),
  reportingPeriodStart: field('Date', "The year's reporting period, first date (YYYY-MM-DD); null when not given.", 'reportingPeriodStart'),
  reportingPeriodEnd: field('Date', "The year's reporting period, last date (YYYY-MM-DD); null when not given.", 'reportingPeriodEnd'),
  unallocatedProceedsPlacement: field('String', "Where the year's unallocated proceeds are placed; null when not given.", 'unallocatedProceedsPlacement'),
}), { implements: 'Node' });

const frameworkYearSpecificsType = objectType<FrameworkSummary>('FrameworkYearSpecifics', "A framework's funding figures of one year (spec addYearSpecificsToFramework).", (field) => ({
  valueOutstanding: field('Decimal!', 'Funding raised for the framework in the year, V (spec framework_value_outstanding).', 'frameworkValueOutstanding'),
  allocatedAmount: field('Decimal!', 'Funding allocated to projects in the year, L (spec framework_allocated_amount).', 'frameworkAllocatedAmount'),
  activePercentage: field(
    'Decimal!',
    'allocatedAmount ÷ valueOutstanding × 100, 0 when valueOutstanding is 0; may exceed 100 (spec framework_active_percentage).',
    'frameworkActivePercentage',
  ),
  valueOutstandingFramework: field(
    'Boolean!',
    'True when use of proceeds relates to the value outstanding, false when to the allocated amount (spec value_outstanding_framework yes / no).',
    'valueOutstandingFramework',
  ),
}));

const projectType = objectType<ProjectOfYear>('Project', 'A project, built into a framework (spec project).', (field) => ({
  nodeId: nodeId(),
  id: field('ID!', 'Project id (spec project_id).', 'projectId'),
  identifier: field('String!', "The owner's identifier for it, unique per account (spec project_identifier).", 'projectIdentifier'),
  name: field('String!', 'Name (spec project_name).', 'projectName'),
  currencyCode: field('String!', 'Currency of its amounts and volumes, 3 letters (spec project_currency_code).', 'projectCurrencyCode'),
  visibility: field('Visibility!', 'Who sees it (spec project_visibility).', (p) => toGqlVisibility(p.projectVisibility)),
  owned: field('Boolean!', "True when the caller's account owns it; only the owner changes it.", 'owned'),
  year: field('Int!', 'The reporting year of allocatedAmount and rows.', 'year'),
  allocatedAmount: field(
    'Decimal',
    'Amount allocated to the project in the year, in its currency; null when none was added (spec project_allocated_amount).',
    'projectAllocatedAmount',
  ),
  frameworkIdentifier: field('String!', 'Identifier of the framework it is built into (spec framework_identifier).', 'frameworkIdentifier'),
  framework: field(
    'Framework',
    'The framework it is built into, with its figures of the year; null when that framework is no longer visible to the caller.',
    async (p, _, ctx) => (await frameworkReads(ctx).frameworkByIdentifier(p.frameworkIdentifier, p.year)) ?? null,
  ),
  rows: field(
    '[FrameworkRow!]',
    "Its (sub category, indicator) rows of the year (spec project, the detail rows). Null, with an error, only for\nanother account's project whose identifier the caller also uses.",
    languageArgs,
    async (p, args, ctx) => frameworkReads(ctx).projectRows(p, await languageOf(ctx, args.languageCode)),
  ),
  // What issuers report (issue 37): the EU taxonomy layer and ICMA's impact table.
  taxonomyLayer: field('TaxonomyLayer', "The EU taxonomy layer of the year's allocation; null when none is set.", 'taxonomyLayer'),
  countryCode: field('String', 'Where it is, ISO 3166-1 alpha-2; null when not given.', 'projectCountryCode'),
  lifetimeYears: field('Int', 'Expected lifetime in years; null when not given.', 'projectLifetimeYears'),
  financingType: field('FinancingType', 'New financing or refinancing; null when not given.', (p) =>
    p.projectFinancingType === 'refinancing' ? 'REFINANCING' : p.projectFinancingType === 'financing' ? 'FINANCING' : null,
  ),
  totalProjectCost: field('Decimal', 'Total project cost of the year, in its currency; null when not given.', 'totalProjectCost'),
  signedAmount: field('Decimal', "The issuer's signed amount of the year, in its currency; null when not given.", 'signedAmount'),
  financingShare: field(
    'Decimal',
    "The issuer's share of the project's financing in the year (signedAmount ÷ totalProjectCost, 0 to 1); null when\neither is unknown. buildFrameworkFromProjects counts this share of the project's indicator values.",
    'financingShare',
  ),
}), { implements: 'Node' });

const frameworkRowType = objectType<Row>(
  'FrameworkRow',
  "One (sub category, indicator) row of a framework, project or asset (attributed) for a year: the volume of the sub category and the indicator's value.",
  (field) => ({
    category: field('Category!', 'Category of the sub category.', rowItems.category),
    subCategory: field('SubCategory!', 'The sub category funded.', rowItems.subCategory),
    superIndicator: field('SuperIndicator!', 'Super indicator of the indicator.', rowItems.superIndicator),
    indicator: field('Indicator!', 'The indicator reported.', rowItems.indicator),
    unit: field('Unit!', 'Unit of value.', rowItems.unit),
    volume: field(
      'Decimal!',
      "Funding / use of proceeds of the sub category, in currencyCode; the same in every row of the sub category (spec sub_category_volume). An asset's rows: the asset's share of it.",
      'subCategoryVolume',
    ),
    currencyCode: field(
      'String!',
      "Currency of volume: the framework's, the project's or, in an asset's rows, the asset's (spec framework_currency_code / project_currency_code / currency_code).",
      'currencyCode',
    ),
    value: field('Decimal!', "The indicator's value, in its unit (spec indicator_value). An asset's rows: the asset's share of it.", 'indicatorValue'),
    year: field('Int!', 'Reporting year.', 'year'),
    sdgs: field('[Sdg!]!', 'SDGs linked to the sub category (spec sdg).', rowItems.sdgs),
    euObjectives: field('[EuObjective!]!', 'EU environmental objectives linked to the sub category (spec eu_objective).', rowItems.euObjectives),
    language: field('String!', "Name of the language of the indicator's name, e.g. Swedish (spec language).", 'language'),
    languageCode: field('String!', 'Code of that language, e.g. sv.', 'languageCode'),
    // What issuers report (issue 37): the value's metadata.
    valueType: field('ValueType', "Expected or measured; null when not given (and on an asset's attributed rows).", (r) => upper(r.indicatorValueType)),
    valueBasis: field('ValueBasis', 'Gross or net; null when not given.', (r) => upper(r.indicatorValueBasis)),
    baseline: field('Decimal', "The baseline, in the indicator's unit; null when not given.", 'baselineValue'),
    emissionFactor: field('Decimal', 'The emission factor used; null when not given.', 'emissionFactor'),
    methodologySource: field('String', "The methodology's source; null when not given.", 'methodologySource'),
    methodologyVersion: field('String', "The methodology's version; null when not given.", 'methodologyVersion'),
  }),
);

/** Written among issue 37's types (reporting-schema.ts). */
export const taxonomyLayerType = objectType<TaxonomyLayer>('TaxonomyLayer', "The EU taxonomy layer of a project's allocation in a year (setProjectTaxonomyLayer).", (field) => ({
  activityCode: field('String!', 'The EU taxonomy activity number, e.g. 4.1.', 'taxonomyActivityCode'),
  activityName: field('String!', "The activity's name.", 'taxonomyActivityName'),
  objective: field('EnvironmentalObjective!', 'The environmental objective it contributes to substantially.', (l) => l.environmentalObjective.toUpperCase()),
  technicalScreeningMet: field('Boolean!', 'The technical screening criteria are met.', 'technicalScreeningMet'),
  doNoSignificantHarmMet: field('Boolean!', 'The do no significant harm criteria are met.', 'doNoSignificantHarmMet'),
  minimumSafeguardsMet: field('Boolean!', 'The minimum safeguards are met.', 'minimumSafeguardsMet'),
  assetType: field('AssetType!', 'Fixed asset, CapEx, OpEx or financial asset.', (l) => l.assetType.toUpperCase()),
  article5: field('Boolean!', 'The allocation uses the flexibility of Article 5 of Regulation (EU) 2023/2631.', 'article5'),
  aligned: field('Boolean!', 'All three conditions met and not in the Article 5 pocket (Regulation (EU) 2020/852, Article 3).', 'aligned'),
}));

/** In the order of the printed schema (framework-schema.ts). */
export const frameworkObjects = [frameworkType, frameworkYearSpecificsType, projectType, frameworkRowType];

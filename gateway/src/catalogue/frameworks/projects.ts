import type { GraphqlContext } from '../../graphql/context.js';
import { frameworkReads, ofYear, summaryOf, type ProjectOfYear } from '../../graphql/framework-reads.js';
import { pageFields, servicePageOf } from '../../graphql/pagination.js';
import { orNull } from '../../graphql/resolvers/or-null.js';
import { listed } from '../../v1/truncation.js';
import { withLabels } from '../graphql.js';
import { declare } from '../operation.js';
import { taxonomyChange } from '../taxonomy/taxonomy.js';
import {
  amount,
  changed,
  currencyCode,
  frameworkIdentifier,
  name,
  ownerDetails,
  ownerListing,
  ownerPaging,
  ownerRead,
  ownerRemoval,
  projectFinancingFields,
  projectIdentifier,
  projectYearFinancingFields,
  reportingYear,
  rowChange,
  rowRemoval,
  rowRequest,
  subCategoryRemoval,
  visibility,
  WHO_SEES,
  yearChange,
  type Owner,
} from './fields.js';
import { FRAMEWORK, frameworkOperations } from './frameworks.js';
import { reportOperations } from './reports.js';
import { projectSummaryRow } from '../../generated/taxonomy.js';
import { projectDetail, toVisibility } from './rows.js';

/**
 * Projects (spec §4.7): their year specifics and rows, and the build of a framework from them, served by
 * TaxonomyService. Every project operation accepts the spec's misspelling `project_identifer` for
 * project_identifier. The service owns ownership, visibility, every bound and its text.
 */

const READ_LABELS = { project_identifier: 'identifier', reporting_year: 'year', project_visibility: 'visibility' };

/** The project an identifier reads for the caller (own, else public) with a year's figures; null when none is visible. */
export async function projectOf(ctx: GraphqlContext, identifier: string, year: number): Promise<ProjectOfYear | null> {
  await ctx.auth();
  const detail = await orNull(withLabels(frameworkReads(ctx).projectDetail(identifier, year, undefined), READ_LABELS));
  return detail ? ofYear(summaryOf(detail.projectSummary), year) : null;
}

export const PROJECT: Owner<ProjectOfYear> = { entity: 'project', identifier: projectIdentifier, read: projectOf, idOf: (item) => item.projectId };

// ---- reads ----

export const getProjects = declare({
  ...ownerListing('getProjects', 'project'),
  // GraphQL's connection is paged by the service (keyset on the project id or the orderBy field, with its count); /v1/call reads the whole list.
  request: (i, ctx) => ({ reportingYear: i.year, projectVisibility: toVisibility(i.visibility), ...pageFields(ctx.page) }),
  v1: (res, _i, ctx) => listed(ctx, res, res.projects.map(projectSummaryRow)),
  graphql: {
    root: 'Query',
    field: 'projects',
    returns: 'ProjectConnection!',
    nested: false,
    paged: ownerPaging(PROJECT, {
      FRAMEWORK_IDENTIFIER: "The identifier of the project's framework, as text.",
      COUNTRY_CODE: 'The country (ISO 3166-1 alpha-2 code); projects without one last going up.',
      ALLOCATED_AMOUNT: "The year's allocated amount, in the project currency; projects without year specifics last going up.",
    }),
    render: async (call, i) => {
      const res = await call();
      return servicePageOf(res.projects.map((s) => ofYear(s, i.year)), res);
    },
  },
});

export const getProjectDetails = declare({
  ...ownerDetails('getProjectDetails', PROJECT),
  request: (i) => ({ projectIdentifier: i.identifier, reportingYear: i.year, languageCode: i.languageCode }),
  v1: (res) => res.projects.map(projectDetail),
});

export const project = declare({
  ...ownerRead('getProjectDetails', PROJECT),
  request: (i) => ({ projectIdentifier: i.identifier, reportingYear: i.year }),
});

// ---- changes (the owner) ----

export const addProject = declare({
  ...taxonomyChange('addProject', "Adds a project to the caller's account, or updates the caller's one with this identifier."),
  input: {
    identifier: projectIdentifier,
    name: name('project_name'),
    currencyCode: currencyCode('project_currency_code'),
    frameworkIdentifier: frameworkIdentifier.with({ doc: "The framework it is built into: the caller's own with this identifier, else a public one." }),
    visibility: visibility('project_visibility').with({ doc: WHO_SEES }),
    ...projectFinancingFields,
  },
  request: (i) => ({
    projectIdentifier: i.identifier,
    projectName: i.name,
    projectCurrencyCode: i.currencyCode,
    frameworkIdentifier: i.frameworkIdentifier,
    projectVisibility: toVisibility(i.visibility),
    projectCountryCode: i.countryCode,
    projectLifetimeYears: i.lifetimeYears,
    projectFinancingType: i.financingType,
  }),
  graphql: changed('addProject', 'project', projectOf),
});

export const addYearSpecificsToProject = declare({
  // The spec types allocated_amount integer; any amount is accepted (docs/api-operations.md: amounts are double).
  ...taxonomyChange('addYearSpecificsToProject', 'Adds or replaces the amount allocated to a project in a year.'),
  input: {
    identifier: projectIdentifier,
    allocatedAmount: amount('allocated_amount', 'Amount allocated to the project in the year, in its currency.'),
    year: reportingYear,
    ...projectYearFinancingFields,
  },
  request: (i) => ({
    projectIdentifier: i.identifier,
    allocatedAmount: i.allocatedAmount,
    reportingYear: i.year,
    totalProjectCost: i.totalProjectCost,
    signedAmount: i.signedAmount,
  }),
  graphql: changed('addYearSpecificsToProject', 'project', projectOf, true, { input: { name: 'ProjectYearSpecificsInput' }, order: ['identifier', 'year', 'allocatedAmount', 'totalProjectCost', 'signedAmount'] }),
});

export const addCategoryIndicatorToProject = declare({
  ...rowChange('addCategoryIndicatorToProject', PROJECT),
  request: (i) => ({ projectIdentifier: i.identifier, ...rowRequest(i) }),
});

// The answer is `{message}` as the spec says; GraphQL's payload carries the framework built.
export const buildFrameworkFromProjects = declare({
  ...yearChange(
    'buildFrameworkFromProjects',
    "Replaces a framework's rows of a year with the sums of the caller's projects built into it, volumes converted to the framework currency.",
    FRAMEWORK,
  ),
  request: (i) => ({ frameworkIdentifier: i.identifier, reportingYear: i.year }),
});

export const removeIndicatorFromProject = declare({
  ...rowRemoval('removeIndicatorFromProject', PROJECT),
  request: (i) => ({ projectIdentifier: i.identifier, indicatorId: i.indicatorId, subCategoryId: i.subCategoryId, reportingYear: i.year }),
});

export const removeCategoryFromProject = declare({
  ...subCategoryRemoval('removeCategoryFromProject', PROJECT),
  request: (i) => ({ projectIdentifier: i.identifier, subCategoryId: i.subCategoryId, reportingYear: i.year }),
});

export const removeYearSpecificsFromProject = declare({
  ...yearChange('removeYearSpecificsFromProject', 'Removes the amount allocated to a project in a year; its rows stay.', PROJECT),
  request: (i) => ({ projectIdentifier: i.identifier, reportingYear: i.year }),
});

export const removeProject = declare({
  ...ownerRemoval('removeProject', 'Removes a project with its figures and rows of every year.', PROJECT),
  request: (i) => ({ projectIdentifier: i.identifier }),
});

export const projectOperations = [
  getProjects,
  getProjectDetails,
  project,
  addProject,
  addYearSpecificsToProject,
  addCategoryIndicatorToProject,
  buildFrameworkFromProjects,
  removeIndicatorFromProject,
  removeCategoryFromProject,
  removeYearSpecificsFromProject,
  removeProject,
];

/** Frameworks, projects and the reports rendered from them, for catalogue/index.ts. */
export const frameworkDomainOperations = [...frameworkOperations, ...projectOperations, ...reportOperations];

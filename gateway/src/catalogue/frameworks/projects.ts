import type { GraphqlContext } from '../../graphql/context.js';
import { frameworkReads, ofYear, summaryOf, type ProjectOfYear } from '../../graphql/framework-reads.js';
import { pageFields, SERVICE_ID, servicePageOf } from '../../graphql/pagination.js';
import { orNull } from '../../graphql/resolvers/or-null.js';
import { listed } from '../../v1/truncation.js';
import { withLabels } from '../graphql.js';
import { declare } from '../operation.js';
import { ESG, messageOnly } from '../renders.js';
import {
  amount,
  changed,
  currencyCode,
  frameworkIdentifier,
  languageCode,
  name,
  projectFinancingFields,
  projectIdentifier,
  projectYearFinancingFields,
  removed,
  removeRowFields,
  removeRowInput,
  removeSubCategoryInput,
  removeSubCategoryFields,
  reportingYear,
  rowFields,
  rowInput,
  valueMetadataRequest,
  visibility,
  WHO_SEES,
} from './fields.js';
import { frameworkOf, frameworkOperations } from './frameworks.js';
import { reportOperations } from './reports.js';
import { projectDetail, projectSummaryRow, toVisibility } from './rows.js';

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

// ---- reads ----

const listInput = { year: reportingYear, visibility: visibility('project_visibility').with({ doc: 'Only public or only private projects; default both.' }) };

export const getProjects = declare({
  solution: ESG,
  operation: 'getProjects',
  summary: "Projects visible to the caller (its own and other accounts' public ones) with their figures of a year, in the order they were added.",
  input: listInput,
  service: 'taxonomy',
  method: 'getProjects',
  // GraphQL's connection is paged by the service (keyset on the project id or the orderBy field, with its count); /v1/call reads the whole list.
  request: (i, ctx) => ({ reportingYear: i.year, projectVisibility: toVisibility(i.visibility), ...pageFields(ctx.page) }),
  v1: (res, _i, ctx) => listed(ctx, res, res.projects.map(projectSummaryRow)),
  graphql: {
    root: 'Query',
    field: 'projects',
    returns: 'ProjectConnection!',
    nested: false,
    paged: {
      idOf: (item: ProjectOfYear) => item.projectId,
      idPattern: SERVICE_ID,
      backward: true,
      orderBy: {
        type: 'Project',
        plural: 'projects',
        fields: {
          IDENTIFIER: "The owner's identifier, as text.",
          NAME: 'The name, as text.',
          FRAMEWORK_IDENTIFIER: "The identifier of the project's framework, as text.",
          COUNTRY_CODE: 'The country (ISO 3166-1 alpha-2 code); projects without one last going up.',
          ALLOCATED_AMOUNT: "The year's allocated amount, in the project currency; projects without year specifics last going up.",
        },
      },
    },
    render: async (call, i) => {
      const res = await call();
      return servicePageOf(res.projects.map((s) => ofYear(s, i.year)), res);
    },
  },
});

export const getProjectDetails = declare({
  // "array of project detail", as getFrameworkDetails.
  solution: ESG,
  operation: 'getProjectDetails',
  summary: "One project (the caller's own with this identifier, else a public one) with its rows of a year.",
  input: { identifier: projectIdentifier, year: reportingYear, languageCode },
  service: 'taxonomy',
  method: 'getProjectDetails',
  request: (i) => ({ projectIdentifier: i.identifier, reportingYear: i.year, languageCode: i.languageCode }),
  v1: (res) => res.projects.map(projectDetail),
});

export const project = declare({
  solution: ESG,
  summary: "One project (the caller's own with this identifier, else a public one) with its figures of a year; null when none is visible.",
  input: { identifier: projectIdentifier, year: reportingYear },
  service: 'taxonomy',
  method: 'getProjectDetails',
  request: (i) => ({ projectIdentifier: i.identifier, reportingYear: i.year }),
  graphql: { root: 'Query', field: 'project', returns: 'Project', nested: false, render: (_call, i, ctx) => projectOf(ctx, i.identifier, i.year) },
});

// ---- changes (the owner) ----

export const addProject = declare({
  solution: ESG,
  operation: 'addProject',
  summary: "Adds a project to the caller's account, or updates the caller's one with this identifier.",
  input: {
    identifier: projectIdentifier,
    name: name('project_name'),
    currencyCode: currencyCode('project_currency_code'),
    frameworkIdentifier: frameworkIdentifier.with({ doc: "The framework it is built into: the caller's own with this identifier, else a public one." }),
    visibility: visibility('project_visibility').with({ doc: WHO_SEES }),
    ...projectFinancingFields,
  },
  service: 'taxonomy',
  method: 'addProject',
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
  v1: messageOnly,
  graphql: changed('addProject', 'project', projectOf),
});

export const addYearSpecificsToProject = declare({
  // The spec types allocated_amount integer; any amount is accepted (docs/api-operations.md: amounts are double).
  solution: ESG,
  operation: 'addYearSpecificsToProject',
  summary: 'Adds or replaces the amount allocated to a project in a year.',
  input: {
    identifier: projectIdentifier,
    allocatedAmount: amount('allocated_amount', 'Amount allocated to the project in the year, in its currency.'),
    year: reportingYear,
    ...projectYearFinancingFields,
  },
  service: 'taxonomy',
  method: 'addYearSpecificsToProject',
  request: (i) => ({
    projectIdentifier: i.identifier,
    allocatedAmount: i.allocatedAmount,
    reportingYear: i.year,
    totalProjectCost: i.totalProjectCost,
    signedAmount: i.signedAmount,
  }),
  v1: messageOnly,
  graphql: changed('addYearSpecificsToProject', 'project', projectOf, true, { input: { name: 'ProjectYearSpecificsInput' }, order: ['identifier', 'year', 'allocatedAmount', 'totalProjectCost', 'signedAmount'] }),
});

export const addCategoryIndicatorToProject = declare({
  solution: ESG,
  operation: 'addCategoryIndicatorToProject',
  summary: 'Adds or updates a (sub category, indicator) row of a project for a year.',
  input: { identifier: projectIdentifier, ...rowFields },
  service: 'taxonomy',
  method: 'addCategoryIndicatorToProject',
  request: (i) => ({
    projectIdentifier: i.identifier,
    subCategoryId: i.subCategoryId,
    subCategoryVolume: i.volume,
    indicatorId: i.indicatorId,
    indicatorValue: i.value,
    reportingYear: i.year,
    ...valueMetadataRequest(i),
  }),
  v1: messageOnly,
  graphql: changed('addCategoryIndicatorToProject', 'project', projectOf, true, { input: rowInput }),
});

export const buildFrameworkFromProjects = declare({
  // The answer is `{message}` as the spec says; GraphQL's payload carries the framework built.
  solution: ESG,
  operation: 'buildFrameworkFromProjects',
  summary: "Replaces a framework's rows of a year with the sums of the caller's projects built into it, volumes converted to the framework currency.",
  input: { identifier: frameworkIdentifier, year: reportingYear },
  service: 'taxonomy',
  method: 'buildFrameworkFromProjects',
  request: (i) => ({ frameworkIdentifier: i.identifier, reportingYear: i.year }),
  v1: messageOnly,
  graphql: changed('buildFrameworkFromProjects', 'framework', frameworkOf, false),
});

export const removeIndicatorFromProject = declare({
  solution: ESG,
  operation: 'removeIndicatorFromProject',
  summary: 'Removes one (sub category, indicator) row of a project for a year.',
  input: { identifier: projectIdentifier, ...removeRowFields },
  service: 'taxonomy',
  method: 'removeIndicatorFromProject',
  request: (i) => ({ projectIdentifier: i.identifier, indicatorId: i.indicatorId, subCategoryId: i.subCategoryId, reportingYear: i.year }),
  v1: messageOnly,
  graphql: changed('removeIndicatorFromProject', 'project', projectOf, true, { input: removeRowInput }),
});

export const removeCategoryFromProject = declare({
  solution: ESG,
  operation: 'removeCategoryFromProject',
  summary: 'Removes every row of a sub category from a project for a year.',
  input: { identifier: projectIdentifier, ...removeSubCategoryFields },
  service: 'taxonomy',
  method: 'removeCategoryFromProject',
  request: (i) => ({ projectIdentifier: i.identifier, subCategoryId: i.subCategoryId, reportingYear: i.year }),
  v1: messageOnly,
  graphql: changed('removeCategoryFromProject', 'project', projectOf, true, { input: removeSubCategoryInput }),
});

export const removeYearSpecificsFromProject = declare({
  solution: ESG,
  operation: 'removeYearSpecificsFromProject',
  summary: 'Removes the amount allocated to a project in a year; its rows stay.',
  input: { identifier: projectIdentifier, year: reportingYear },
  service: 'taxonomy',
  method: 'removeYearSpecificsFromProject',
  request: (i) => ({ projectIdentifier: i.identifier, reportingYear: i.year }),
  v1: messageOnly,
  graphql: changed('removeYearSpecificsFromProject', 'project', projectOf, false),
});

export const removeProject = declare({
  solution: ESG,
  operation: 'removeProject',
  summary: 'Removes a project with its figures and rows of every year.',
  input: { identifier: projectIdentifier },
  service: 'taxonomy',
  method: 'removeProject',
  request: (i) => ({ projectIdentifier: i.identifier }),
  v1: messageOnly,
  graphql: removed('removeProject', projectOf, (p) => p.projectId),
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

import type { GraphqlContext } from '../../graphql/context.js';
import { frameworkReads, summaryOf, toProject, type GqlProject } from '../../graphql/framework-reads.js';
import type { PageRequest } from '../../graphql/pagination.js';
import { orNull } from '../../graphql/resolvers/or-null.js';
import { listed } from '../../v1/truncation.js';
import { withLabels } from '../graphql.js';
import { declare } from '../operation.js';
import { graphqlLabels, inputFromGraphql } from '../parse.js';
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
  removeSubCategoryFields,
  reportingYear,
  rowFields,
  valueMetadataRequest,
  visibility,
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
export async function projectOf(ctx: GraphqlContext, identifier: string, year: number): Promise<GqlProject | null> {
  await ctx.auth();
  const detail = await orNull(withLabels(frameworkReads(ctx).projectDetail(identifier, year, undefined), READ_LABELS));
  return detail ? toProject(summaryOf(detail.projectSummary), year) : null;
}

// ---- reads ----

const listInput = { year: reportingYear, visibility: visibility('project_visibility') };

export const getProjects = declare({
  solution: ESG,
  operation: 'getProjects',
  summary: "Projects visible to the caller (its own and other accounts' public ones) with their figures of a year.",
  input: listInput,
  service: 'taxonomy',
  method: 'getProjects',
  request: (i) => ({ reportingYear: i.year, projectVisibility: toVisibility(i.visibility) }),
  v1: (res, _i, ctx) => listed(ctx, res, res.projects.map(projectSummaryRow)),
});

/** Query.projects: the connection the service pages (servicePaged in graphql/resolvers/index.ts), input as getProjects reads it. */
export async function projectsConnection(_: unknown, args: Record<string, unknown>, ctx: GraphqlContext, page: PageRequest) {
  await ctx.auth();
  const i = inputFromGraphql(listInput, args, false);
  const labels = Object.fromEntries(graphqlLabels(listInput, false));
  return withLabels(frameworkReads(ctx).projectsPage(i.year, toVisibility(i.visibility), page), labels);
}

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
  graphql: { root: 'Query', field: 'project', nested: false, render: (_call, i, ctx) => projectOf(ctx, i.identifier, i.year) },
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
    /** The framework the project is built into: the caller's own, or another account's public one. */
    frameworkIdentifier,
    visibility: visibility('project_visibility'),
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
  graphql: changed('addYearSpecificsToProject', 'project', projectOf),
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
  graphql: changed('addCategoryIndicatorToProject', 'project', projectOf),
});

export const buildFrameworkFromProjects = declare({
  // The answer is `{message}` as the spec says; GraphQL's payload carries the framework built.
  solution: ESG,
  operation: 'buildFrameworkFromProjects',
  summary: "Replaces a framework's rows of a year with the sums of the caller's projects built into it.",
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
  graphql: changed('removeIndicatorFromProject', 'project', projectOf),
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
  graphql: changed('removeCategoryFromProject', 'project', projectOf),
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
  graphql: removed('removeProject', projectOf),
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

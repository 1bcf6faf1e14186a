import { defineOperation } from '../operation.js';
import {
  addCategoryIndicatorToProjectParams,
  addProjectParams,
  addYearSpecificsToProjectParams,
  buildFrameworkFromProjectsParams,
  getProjectDetailsParams,
  getProjectsParams,
  projectYearParams,
  removeCategoryFromProjectParams,
  removeIndicatorFromProjectParams,
  removeProjectParams,
  toVisibility,
} from './framework-params.js';
import { projectDetail, projectSummaryRow } from './framework-shapes.js';
import { call, messageOnly, taxonomy } from './taxonomy.js';
import { listed } from '../truncation.js';

/**
 * /v1/call operations of spec §4.7: projects, their year specifics and rows, and the build of a
 * framework from them, served by TaxonomyService. Every project operation accepts the spec's misspelling
 * `project_identifer` for project_identifier (framework-params.ts).
 */

const ESG = 'SVC.ESG.Credits';

export const projectOperations = [
  defineOperation({
    solution: ESG,
    operation: 'getProjects',
    params: getProjectsParams,
    async handler(p, ctx) {
      const req = { reportingYear: p.reporting_year, projectVisibility: toVisibility(p.project_visibility) };
      const res = await taxonomy(ctx).getProjects(req, call(ctx));
      return listed(ctx, res, res.projects.map(projectSummaryRow));
    },
  }),
  defineOperation({
    // "array of project detail", as getFrameworkDetails.
    solution: ESG,
    operation: 'getProjectDetails',
    params: getProjectDetailsParams,
    async handler(p, ctx) {
      const req = { projectIdentifier: p.project_identifier, reportingYear: p.reporting_year, languageCode: p.language_code };
      return (await taxonomy(ctx).getProjectDetails(req, call(ctx))).projects.map(projectDetail);
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'addProject',
    params: addProjectParams,
    async handler(p, ctx) {
      const req = {
        projectIdentifier: p.project_identifier,
        projectName: p.project_name,
        projectCurrencyCode: p.project_currency_code,
        frameworkIdentifier: p.framework_identifier,
        projectVisibility: toVisibility(p.project_visibility),
      };
      return messageOnly(await taxonomy(ctx).addProject(req, call(ctx)));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'addYearSpecificsToProject',
    params: addYearSpecificsToProjectParams,
    async handler(p, ctx) {
      const req = { projectIdentifier: p.project_identifier, allocatedAmount: p.allocated_amount, reportingYear: p.reporting_year };
      return messageOnly(await taxonomy(ctx).addYearSpecificsToProject(req, call(ctx)));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'addCategoryIndicatorToProject',
    params: addCategoryIndicatorToProjectParams,
    async handler(p, ctx) {
      const req = {
        projectIdentifier: p.project_identifier,
        subCategoryId: p.sub_category_id,
        subCategoryVolume: p.sub_category_volume,
        indicatorId: p.indicator_id,
        indicatorValue: p.indicator_value,
        reportingYear: p.reporting_year,
      };
      return messageOnly(await taxonomy(ctx).addCategoryIndicatorToProject(req, call(ctx)));
    },
  }),
  defineOperation({
    // The answer is `{message}` as the spec says; the counts the service adds go to GraphQL only.
    solution: ESG,
    operation: 'buildFrameworkFromProjects',
    params: buildFrameworkFromProjectsParams,
    async handler(p, ctx) {
      const req = { frameworkIdentifier: p.framework_identifier, reportingYear: p.reporting_year };
      return messageOnly(await taxonomy(ctx).buildFrameworkFromProjects(req, call(ctx)));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'removeIndicatorFromProject',
    params: removeIndicatorFromProjectParams,
    async handler(p, ctx) {
      const req = {
        projectIdentifier: p.project_identifier,
        indicatorId: p.indicator_id,
        subCategoryId: p.sub_category_id,
        reportingYear: p.reporting_year,
      };
      return messageOnly(await taxonomy(ctx).removeIndicatorFromProject(req, call(ctx)));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'removeCategoryFromProject',
    params: removeCategoryFromProjectParams,
    async handler(p, ctx) {
      const req = { projectIdentifier: p.project_identifier, subCategoryId: p.sub_category_id, reportingYear: p.reporting_year };
      return messageOnly(await taxonomy(ctx).removeCategoryFromProject(req, call(ctx)));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'removeYearSpecificsFromProject',
    params: projectYearParams,
    async handler(p, ctx) {
      const req = { projectIdentifier: p.project_identifier, reportingYear: p.reporting_year };
      return messageOnly(await taxonomy(ctx).removeYearSpecificsFromProject(req, call(ctx)));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'removeProject',
    params: removeProjectParams,
    async handler(p, ctx) {
      return messageOnly(await taxonomy(ctx).removeProject({ projectIdentifier: p.project_identifier }, call(ctx)));
    },
  }),
];

import {
  addCategoryIndicatorToFrameworkParams,
  addCategoryIndicatorToProjectParams,
  addFrameworkParams,
  addProjectParams,
  addYearSpecificsToFrameworkParams,
  addYearSpecificsToProjectParams,
  buildFrameworkFromProjectsParams,
  frameworkYearParams,
  projectYearParams,
  removeCategoryFromFrameworkParams,
  removeCategoryFromProjectParams,
  removeFrameworkParams,
  removeIndicatorFromFrameworkParams,
  removeIndicatorFromProjectParams,
  removeProjectParams,
  toVisibility,
  yes,
} from '../../v1/operations/framework-params.js';
import type { GraphQLResolveInfo } from 'graphql';
import { validateParameters } from '../../v1/parameters.js';
import { taxonomyClient } from '../../clients.js';
import { callAs, type GraphqlContext } from '../context.js';
import type { GqlVisibility } from '../framework-reads.js';
import { removalPayload } from '../payloads.js';
import { frameworkIdOf, frameworkPayload, projectIdOf, projectPayload } from './framework-entities.js';


/** Authenticates (before any validation, as /v1/call does) and picks the taxonomy client. */
async function prepare(ctx: GraphqlContext) {
  const opts = await callAs(ctx);
  return { client: taxonomyClient(ctx.clients), opts };
}

/**
 * Changes of frameworks and projects (spec §4.6–§4.7 adds, removals and the build). Each resolver
 * authenticates, validates with the /v1/call parameter specs (messages name the GraphQL fields:
 * `input.valueOutstanding must be between 0 and …`), calls TaxonomyService and answers its message, the
 * framework's or project's id and the item as a following read shows it (framework-entities.ts).
 */

type Maybe<T> = T | null | undefined;

export interface AddFrameworkInput {
  identifier: string;
  name: string;
  currencyCode: string;
  visibility?: Maybe<GqlVisibility>;
}
export interface FrameworkYearSpecificsInput {
  identifier: string;
  year: number;
  valueOutstanding: number;
  allocatedAmount: number;
  valueOutstandingFramework: boolean;
}
export interface AddProjectInput {
  identifier: string;
  name: string;
  currencyCode: string;
  frameworkIdentifier: string;
  visibility?: Maybe<GqlVisibility>;
}
export interface ProjectYearSpecificsInput {
  identifier: string;
  year: number;
  allocatedAmount: number;
}
export interface CategoryIndicatorInput {
  identifier: string;
  year: number;
  subCategoryId: string;
  volume: number;
  indicatorId: string;
  value: number;
}
export interface RemoveIndicatorRowInput {
  identifier: string;
  year: number;
  subCategoryId: string;
  indicatorId: string;
}
export interface RemoveSubCategoryRowsInput {
  identifier: string;
  year: number;
  subCategoryId: string;
}

/** GraphQL names of the spec's parameters, for messages. */
const inputLabels = {
  framework_identifier: 'input.identifier',
  project_identifier: 'input.identifier',
  framework_name: 'input.name',
  project_name: 'input.name',
  framework_currency_code: 'input.currencyCode',
  project_currency_code: 'input.currencyCode',
  framework_visibility: 'input.visibility',
  project_visibility: 'input.visibility',
  reporting_year: 'input.year',
  value_outstanding: 'input.valueOutstanding',
  allocated_amount: 'input.allocatedAmount',
  value_outstanding_framework: 'input.valueOutstandingFramework',
  sub_category_id: 'input.subCategoryId',
  sub_category_volume: 'input.volume',
  indicator_id: 'input.indicatorId',
  indicator_value: 'input.value',
} as const;
const argLabels = { framework_identifier: 'identifier', project_identifier: 'identifier', reporting_year: 'year' } as const;

/** The raw parameters of a row input, under the spec's names for frameworks (`owner`) or projects. */
const rowParams = (owner: 'framework_identifier' | 'project_identifier', input: CategoryIndicatorInput) => ({
  [owner]: input.identifier,
  sub_category_id: input.subCategoryId,
  sub_category_volume: input.volume,
  indicator_id: input.indicatorId,
  indicator_value: input.value,
  reporting_year: input.year,
});
const removeRowParams = (owner: 'framework_identifier' | 'project_identifier', input: RemoveIndicatorRowInput | RemoveSubCategoryRowsInput) => ({
  [owner]: input.identifier,
  sub_category_id: input.subCategoryId,
  indicator_id: 'indicatorId' in input ? input.indicatorId : undefined,
  reporting_year: input.year,
});

export const frameworkMutations = {
  // ---- frameworks ----
  async addFramework(_: unknown, { input }: { input: AddFrameworkInput }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(
      addFrameworkParams,
      { framework_identifier: input.identifier, framework_name: input.name, framework_currency_code: input.currencyCode, framework_visibility: input.visibility },
      inputLabels,
    );
    const req = {
      frameworkIdentifier: p.framework_identifier,
      frameworkName: p.framework_name,
      frameworkCurrencyCode: p.framework_currency_code,
      frameworkVisibility: toVisibility(p.framework_visibility),
    };
    return frameworkPayload(ctx, await client.addFramework(req, opts), p.framework_identifier);
  },
  async addYearSpecificsToFramework(_: unknown, { input }: { input: FrameworkYearSpecificsInput }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(
      addYearSpecificsToFrameworkParams,
      {
        framework_identifier: input.identifier,
        value_outstanding: input.valueOutstanding,
        allocated_amount: input.allocatedAmount,
        value_outstanding_framework: input.valueOutstandingFramework ? 'yes' : 'no',
        reporting_year: input.year,
      },
      inputLabels,
    );
    const req = {
      frameworkIdentifier: p.framework_identifier,
      valueOutstanding: p.value_outstanding,
      allocatedAmount: p.allocated_amount,
      valueOutstandingFramework: yes(p.value_outstanding_framework),
      reportingYear: p.reporting_year,
    };
    return frameworkPayload(ctx, await client.addYearSpecificsToFramework(req, opts), p.framework_identifier, p.reporting_year);
  },
  async addCategoryIndicatorToFramework(_: unknown, { input }: { input: CategoryIndicatorInput }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(addCategoryIndicatorToFrameworkParams, rowParams('framework_identifier', input), inputLabels);
    const req = {
      frameworkIdentifier: p.framework_identifier,
      subCategoryId: p.sub_category_id,
      subCategoryVolume: p.sub_category_volume,
      indicatorId: p.indicator_id,
      indicatorValue: p.indicator_value,
      reportingYear: p.reporting_year,
    };
    return frameworkPayload(ctx, await client.addCategoryIndicatorToFramework(req, opts), p.framework_identifier, p.reporting_year);
  },
  async removeIndicatorFromFramework(_: unknown, { input }: { input: RemoveIndicatorRowInput }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(removeIndicatorFromFrameworkParams, removeRowParams('framework_identifier', input), inputLabels);
    const req = { frameworkIdentifier: p.framework_identifier, indicatorId: p.indicator_id, subCategoryId: p.sub_category_id, reportingYear: p.reporting_year };
    return frameworkPayload(ctx, await client.removeIndicatorFromFramework(req, opts), p.framework_identifier, p.reporting_year);
  },
  async removeCategoryFromFramework(_: unknown, { input }: { input: RemoveSubCategoryRowsInput }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(removeCategoryFromFrameworkParams, removeRowParams('framework_identifier', input), inputLabels);
    const req = { frameworkIdentifier: p.framework_identifier, subCategoryId: p.sub_category_id, reportingYear: p.reporting_year };
    return frameworkPayload(ctx, await client.removeCategoryFromFramework(req, opts), p.framework_identifier, p.reporting_year);
  },
  async removeFrameworkYearSpecifics(_: unknown, args: { identifier: string; year: number }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(frameworkYearParams, { framework_identifier: args.identifier, reporting_year: args.year }, argLabels);
    const req = { frameworkIdentifier: p.framework_identifier, reportingYear: p.reporting_year };
    return frameworkPayload(ctx, await client.removeFrameworkYearSpecifics(req, opts), p.framework_identifier, p.reporting_year);
  },
  async removeFramework(_: unknown, args: { identifier: string }, ctx: GraphqlContext, info: GraphQLResolveInfo) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(removeFrameworkParams, { framework_identifier: args.identifier }, argLabels);
    const removedId = frameworkIdOf(ctx, p.framework_identifier);
    return removalPayload(ctx, info, removedId, () => client.removeFramework({ frameworkIdentifier: p.framework_identifier }, opts));
  },

  // ---- projects ----
  async addProject(_: unknown, { input }: { input: AddProjectInput }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(
      addProjectParams,
      {
        project_identifier: input.identifier,
        project_name: input.name,
        project_currency_code: input.currencyCode,
        framework_identifier: input.frameworkIdentifier,
        project_visibility: input.visibility,
      },
      { ...inputLabels, framework_identifier: 'input.frameworkIdentifier' },
    );
    const req = {
      projectIdentifier: p.project_identifier,
      projectName: p.project_name,
      projectCurrencyCode: p.project_currency_code,
      frameworkIdentifier: p.framework_identifier,
      projectVisibility: toVisibility(p.project_visibility),
    };
    return projectPayload(ctx, await client.addProject(req, opts), p.project_identifier);
  },
  async addYearSpecificsToProject(_: unknown, { input }: { input: ProjectYearSpecificsInput }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(
      addYearSpecificsToProjectParams,
      { project_identifier: input.identifier, allocated_amount: input.allocatedAmount, reporting_year: input.year },
      inputLabels,
    );
    const req = { projectIdentifier: p.project_identifier, allocatedAmount: p.allocated_amount, reportingYear: p.reporting_year };
    return projectPayload(ctx, await client.addYearSpecificsToProject(req, opts), p.project_identifier, p.reporting_year);
  },
  async addCategoryIndicatorToProject(_: unknown, { input }: { input: CategoryIndicatorInput }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(addCategoryIndicatorToProjectParams, rowParams('project_identifier', input), inputLabels);
    const req = {
      projectIdentifier: p.project_identifier,
      subCategoryId: p.sub_category_id,
      subCategoryVolume: p.sub_category_volume,
      indicatorId: p.indicator_id,
      indicatorValue: p.indicator_value,
      reportingYear: p.reporting_year,
    };
    return projectPayload(ctx, await client.addCategoryIndicatorToProject(req, opts), p.project_identifier, p.reporting_year);
  },
  async buildFrameworkFromProjects(_: unknown, args: { identifier: string; year: number }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(buildFrameworkFromProjectsParams, { framework_identifier: args.identifier, reporting_year: args.year }, argLabels);
    const req = { frameworkIdentifier: p.framework_identifier, reportingYear: p.reporting_year };
    return frameworkPayload(ctx, await client.buildFrameworkFromProjects(req, opts), p.framework_identifier, p.reporting_year);
  },
  async removeIndicatorFromProject(_: unknown, { input }: { input: RemoveIndicatorRowInput }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(removeIndicatorFromProjectParams, removeRowParams('project_identifier', input), inputLabels);
    const req = { projectIdentifier: p.project_identifier, indicatorId: p.indicator_id, subCategoryId: p.sub_category_id, reportingYear: p.reporting_year };
    return projectPayload(ctx, await client.removeIndicatorFromProject(req, opts), p.project_identifier, p.reporting_year);
  },
  async removeCategoryFromProject(_: unknown, { input }: { input: RemoveSubCategoryRowsInput }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(removeCategoryFromProjectParams, removeRowParams('project_identifier', input), inputLabels);
    const req = { projectIdentifier: p.project_identifier, subCategoryId: p.sub_category_id, reportingYear: p.reporting_year };
    return projectPayload(ctx, await client.removeCategoryFromProject(req, opts), p.project_identifier, p.reporting_year);
  },
  async removeYearSpecificsFromProject(_: unknown, args: { identifier: string; year: number }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(projectYearParams, { project_identifier: args.identifier, reporting_year: args.year }, argLabels);
    const req = { projectIdentifier: p.project_identifier, reportingYear: p.reporting_year };
    return projectPayload(ctx, await client.removeYearSpecificsFromProject(req, opts), p.project_identifier, p.reporting_year);
  },
  async removeProject(_: unknown, args: { identifier: string }, ctx: GraphqlContext, info: GraphQLResolveInfo) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(removeProjectParams, { project_identifier: args.identifier }, argLabels);
    const removedId = projectIdOf(ctx, p.project_identifier);
    return removalPayload(ctx, info, removedId, () => client.removeProject({ projectIdentifier: p.project_identifier }, opts));
  },
};

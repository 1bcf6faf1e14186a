import {
  frameworkYearParams,
  getFrameworksParams,
  getProjectsParams,
  projectYearParams,
  toVisibility,
} from '../../v1/operations/framework-params.js';
import { languageReadParams } from '../../v1/operations/taxonomy-params.js';
import { validateParameters } from '../../v1/parameters.js';
import type { GraphqlContext } from '../context.js';
import {
  frameworkReads,
  summaryOf,
  toFramework,
  toProject,
  type GqlFramework,
  type GqlProject,
  type GqlRow,
  type GqlVisibility,
  type ServicePageRequest,
} from '../framework-reads.js';
import { portfolioReads } from '../portfolio-reads.js';
import type { GqlTaxonomyRow } from '../taxonomy-reads.js';
import { taxonomyTypes } from './taxonomy-resolvers.js';
import { orNull } from './or-null.js';

/**
 * Frameworks and projects: the GraphQL face of spec §4.6–§4.7 reads. Top-level fields authenticate,
 * then validate with the /v1/call parameter specs; nested fields resolve from reads memoised per request
 * (framework-reads.ts), and a row's taxonomy items from the taxonomy's own per-request lists.
 */

type Maybe<T> = T | null | undefined;

const labels = {
  reporting_year: 'year',
  framework_visibility: 'visibility',
  project_visibility: 'visibility',
  framework_identifier: 'identifier',
  project_identifier: 'identifier',
  language_code: 'languageCode',
} as const;

async function languageArg(ctx: GraphqlContext, languageCode: Maybe<string>): Promise<string | undefined> {
  await ctx.auth();
  return validateParameters(languageReadParams, { language_code: languageCode }, labels).language_code;
}

export const frameworkQueries = {
  /** The frameworks connection: the taxonomy service pages the listing (servicePaged in index.ts). */
  async frameworks(_: unknown, args: { year: number; visibility?: Maybe<GqlVisibility> }, ctx: GraphqlContext, page: ServicePageRequest) {
    await ctx.auth();
    const p = validateParameters(getFrameworksParams, { reporting_year: args.year, framework_visibility: args.visibility }, labels);
    return frameworkReads(ctx).frameworksPage(p.reporting_year, toVisibility(p.framework_visibility), page);
  },
  async framework(_: unknown, args: { identifier: string; year: number }, ctx: GraphqlContext): Promise<GqlFramework | null> {
    await ctx.auth();
    const p = validateParameters(frameworkYearParams, { framework_identifier: args.identifier, reporting_year: args.year }, labels);
    const detail = await orNull(frameworkReads(ctx).frameworkDetail(p.framework_identifier, p.reporting_year, undefined));
    return detail ? toFramework(summaryOf(detail.frameworkSummary), p.reporting_year) : null;
  },
  /** The projects connection: the taxonomy service pages the listing (servicePaged in index.ts). */
  async projects(_: unknown, args: { year: number; visibility?: Maybe<GqlVisibility> }, ctx: GraphqlContext, page: ServicePageRequest) {
    await ctx.auth();
    const p = validateParameters(getProjectsParams, { reporting_year: args.year, project_visibility: args.visibility }, labels);
    return frameworkReads(ctx).projectsPage(p.reporting_year, toVisibility(p.project_visibility), page);
  },
  async project(_: unknown, args: { identifier: string; year: number }, ctx: GraphqlContext): Promise<GqlProject | null> {
    await ctx.auth();
    const p = validateParameters(projectYearParams, { project_identifier: args.identifier, reporting_year: args.year }, labels);
    const detail = await orNull(frameworkReads(ctx).projectDetail(p.project_identifier, p.reporting_year, undefined));
    return detail ? toProject(summaryOf(detail.projectSummary), p.reporting_year) : null;
  },
};

/** A framework or project row has every field of a taxonomy row, so the taxonomy's row resolvers serve it. */
const asTaxonomyRow = (r: GqlRow): GqlTaxonomyRow => r;
const taxonomyRow = taxonomyTypes.TaxonomyRow;

/** Nested fields of Framework, Project and FrameworkRow. */
export const frameworkTypes = {
  Framework: {
    async rows(f: GqlFramework, args: { languageCode?: Maybe<string> }, ctx: GraphqlContext) {
      return frameworkReads(ctx).frameworkRows(f, await languageArg(ctx, args.languageCode));
    },
    projects: (f: GqlFramework, _: unknown, ctx: GraphqlContext) => frameworkReads(ctx).projectsOf(f),
    /** From the portfolio service: one GetAssets per request, whatever the number of frameworks. */
    assets: (f: GqlFramework, _: unknown, ctx: GraphqlContext) => portfolioReads(ctx).assetsOfFramework(f),
  },
  Project: {
    async framework(p: GqlProject, _: unknown, ctx: GraphqlContext) {
      return (await frameworkReads(ctx).frameworkByIdentifier(p.frameworkIdentifier, p.year)) ?? null;
    },
    async rows(p: GqlProject, args: { languageCode?: Maybe<string> }, ctx: GraphqlContext) {
      return frameworkReads(ctx).projectRows(p, await languageArg(ctx, args.languageCode));
    },
  },
  FrameworkRow: {
    category: (r: GqlRow, a: unknown, ctx: GraphqlContext) => taxonomyRow.category(asTaxonomyRow(r), a, ctx),
    subCategory: (r: GqlRow, a: unknown, ctx: GraphqlContext) => taxonomyRow.subCategory(asTaxonomyRow(r), a, ctx),
    superIndicator: (r: GqlRow, a: unknown, ctx: GraphqlContext) => taxonomyRow.superIndicator(asTaxonomyRow(r), a, ctx),
    indicator: (r: GqlRow, a: unknown, ctx: GraphqlContext) => taxonomyRow.indicator(asTaxonomyRow(r), a, ctx),
    unit: (r: GqlRow, a: unknown, ctx: GraphqlContext) => taxonomyRow.unit(asTaxonomyRow(r), a, ctx),
    sdgs: (r: GqlRow, a: unknown, ctx: GraphqlContext) => taxonomyRow.sdgs(asTaxonomyRow(r), a, ctx),
    euObjectives: (r: GqlRow, a: unknown, ctx: GraphqlContext) => taxonomyRow.euObjectives(asTaxonomyRow(r), a, ctx),
  },
};

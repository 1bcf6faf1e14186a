import type { GraphqlContext } from '../context.js';
import { frameworkReads, type GqlFramework, type GqlProject, type GqlRow } from '../framework-reads.js';
import { portfolioReads } from '../portfolio-reads.js';
import { rowItems, type RowItems } from '../taxonomy-objects.js';

/**
 * The nested fields of frameworks and projects (the root fields are the catalogue's,
 * catalogue/frameworks/): they resolve from reads memoised per request (framework-reads.ts), and a row's
 * taxonomy items from the taxonomy's own per-request lists. A language the service does not know is its
 * refusal (`Unknown language code xx.`).
 */

type Maybe<T> = T | null | undefined;

/** A nested field's language: authenticated first, as the root fields; empty means "not given", as on /v1/call. */
async function languageArg(ctx: GraphqlContext, languageCode: Maybe<string>): Promise<string | undefined> {
  await ctx.auth();
  return languageCode || undefined;
}

/** A framework or project row has every field of a taxonomy row, so the taxonomy's row resolvers serve it. */
const asTaxonomyRow = (r: GqlRow): RowItems => ({ ...r.row, scope: r.scope });
const taxonomyRow = rowItems;

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

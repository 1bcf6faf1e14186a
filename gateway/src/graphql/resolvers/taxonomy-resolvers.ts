import type { GraphqlContext } from '../context.js';
import {
  taxonomyReads,
  type GqlCategory,
  type GqlEuObjective,
  type GqlIndicator,
  type GqlSdg,
  type GqlSubCategory,
  type GqlSuperIndicator,
  type GqlTaxonomyRow,
  type GqlUnit,
  type Scope,
} from '../taxonomy-reads.js';

/**
 * The nested fields of the taxonomy types (the root fields are the catalogue's, catalogue/taxonomy/):
 * they resolve from lists read once per request (taxonomy-reads.ts). Where a nested item is missing from its list
 * (it should not be: both come from one service), it is built from what the parent knows.
 */


/** Goals of a goal map (number → name), as the listed SDGs / EU objectives of the same language. */
function goalsOf<G extends { name: string }>(
  map: Readonly<Record<string, string>>,
  known: ReadonlyMap<string, G>,
  fallback: (no: string, name: string) => G,
): G[] {
  return Object.entries(map)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([no, name]) => known.get(no) ?? fallback(no, name));
}

function sdgsOf(ctx: GraphqlContext, map: Readonly<Record<string, string>>, scope: Scope, language: { language: string; languageCode: string }) {
  return taxonomyReads(ctx)
    .sdgsByNumber(scope.languageCode)
    .then((known) =>
      // SDG ids are their goal numbers in the service's seed; only a broken answer would need this.
      goalsOf<GqlSdg>(map, known, (no, name) => ({ id: Number(no), goalNo: no, name, ...language })),
    );
}

function euObjectivesOf(
  ctx: GraphqlContext,
  map: Readonly<Record<string, string>>,
  scope: Scope,
  language: { language: string; languageCode: string },
) {
  return taxonomyReads(ctx)
    .euObjectivesByNumber(scope.languageCode)
    .then((known) => goalsOf<GqlEuObjective>(map, known, (no, name) => ({ id: Number(no), objectiveNo: no, name, ...language })));
}

const lang = (x: { language: string; languageCode: string }) => ({ language: x.language, languageCode: x.languageCode });

/** Nested fields of the taxonomy types. */
export const taxonomyTypes = {
  Category: {
    async subCategories(c: GqlCategory, _: unknown, ctx: GraphqlContext) {
      return (await taxonomyReads(ctx).subCategoriesByCategory(c.scope)).get(c.id) ?? [];
    },
    async superIndicators(c: GqlCategory, _: unknown, ctx: GraphqlContext) {
      return (await taxonomyReads(ctx).superIndicatorsByCategory(c.scope)).get(c.id) ?? [];
    },
  },
  SubCategory: {
    async category(s: GqlSubCategory, _: unknown, ctx: GraphqlContext): Promise<GqlCategory> {
      const found = (await taxonomyReads(ctx).categoriesById(s.scope)).get(s.categoryId);
      return found ?? { id: s.categoryId, name: s.categoryName, year: s.year, ...lang(s), scope: s.scope };
    },
    sdgs: (s: GqlSubCategory, _: unknown, ctx: GraphqlContext) => sdgsOf(ctx, s.sdg, s.scope, lang(s)),
    euObjectives: (s: GqlSubCategory, _: unknown, ctx: GraphqlContext) => euObjectivesOf(ctx, s.euObjective, s.scope, lang(s)),
  },
  SuperIndicator: {
    async categories(s: GqlSuperIndicator, _: unknown, ctx: GraphqlContext) {
      const byId = await taxonomyReads(ctx).categoriesById(s.scope);
      return s.categoryIds.flatMap((id) => byId.get(id) ?? []);
    },
    async indicators(s: GqlSuperIndicator, _: unknown, ctx: GraphqlContext) {
      return (await taxonomyReads(ctx).indicatorsBySuperIndicator(s.scope)).get(s.id) ?? [];
    },
  },
  Indicator: {
    async superIndicator(i: GqlIndicator, _: unknown, ctx: GraphqlContext): Promise<GqlSuperIndicator> {
      const found = (await taxonomyReads(ctx).superIndicatorsById(i.scope)).get(i.superIndicatorId);
      return found ?? { id: i.superIndicatorId, name: i.superIndicatorName, year: i.year, ...lang(i), scope: i.scope, categoryIds: [] };
    },
    async unit(i: GqlIndicator, _: unknown, ctx: GraphqlContext): Promise<GqlUnit> {
      const found = (await taxonomyReads(ctx).unitsById(i.scope)).get(i.unitId);
      return found ?? { id: i.unitId, name: i.unitName, year: i.year, ...lang(i), scope: i.scope };
    },
  },
  Unit: {
    async indicators(u: GqlUnit, _: unknown, ctx: GraphqlContext) {
      return (await taxonomyReads(ctx).indicatorsByUnit(u.scope)).get(u.id) ?? [];
    },
  },
  TaxonomyRow: {
    async category({ row, scope, ...l }: GqlTaxonomyRow, _: unknown, ctx: GraphqlContext): Promise<GqlCategory> {
      const found = (await taxonomyReads(ctx).categoriesById(scope)).get(row.categoryId);
      return found ?? { id: row.categoryId, name: row.categoryName, year: scope.year, ...lang(l), scope };
    },
    async subCategory({ row, scope, ...l }: GqlTaxonomyRow, _: unknown, ctx: GraphqlContext): Promise<GqlSubCategory> {
      const found = (await taxonomyReads(ctx).subCategoriesById(scope)).get(row.subCategoryId);
      return (
        found ?? {
          id: row.subCategoryId,
          name: row.subCategoryName,
          year: scope.year,
          ...lang(l),
          scope,
          categoryId: row.categoryId,
          categoryName: row.categoryName,
          sdg: row.sdg,
          euObjective: row.euObjective,
        }
      );
    },
    async superIndicator({ row, scope, ...l }: GqlTaxonomyRow, _: unknown, ctx: GraphqlContext): Promise<GqlSuperIndicator> {
      const found = (await taxonomyReads(ctx).superIndicatorsById(scope)).get(row.superIndicatorId);
      return (
        found ?? { id: row.superIndicatorId, name: row.superIndicatorName, year: scope.year, ...lang(l), scope, categoryIds: [row.categoryId] }
      );
    },
    async indicator({ row, scope, ...l }: GqlTaxonomyRow, _: unknown, ctx: GraphqlContext): Promise<GqlIndicator> {
      const found = (await taxonomyReads(ctx).indicatorsById(scope)).get(row.indicatorId);
      return (
        found ?? {
          id: row.indicatorId,
          name: row.indicatorName,
          year: scope.year,
          ...lang(l),
          scope,
          superIndicatorId: row.superIndicatorId,
          superIndicatorName: row.superIndicatorName,
          unitId: row.unitId,
          unitName: row.unitName,
        }
      );
    },
    async unit({ row, scope, ...l }: GqlTaxonomyRow, _: unknown, ctx: GraphqlContext): Promise<GqlUnit> {
      const found = (await taxonomyReads(ctx).unitsById(scope)).get(row.unitId);
      return found ?? { id: row.unitId, name: row.unitName, year: scope.year, ...lang(l), scope };
    },
    sdgs: ({ row, scope, ...l }: GqlTaxonomyRow, _: unknown, ctx: GraphqlContext) => sdgsOf(ctx, row.sdg, scope, lang(l)),
    euObjectives: ({ row, scope, ...l }: GqlTaxonomyRow, _: unknown, ctx: GraphqlContext) =>
      euObjectivesOf(ctx, row.euObjective, scope, lang(l)),
  },
};

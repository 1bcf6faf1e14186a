import type { GraphqlContext } from '../context.js';
import { taxonomyReads, type Scope } from '../taxonomy-reads.js';

/**
 * The taxonomy items a change's payload carries (payloads.ts), each read as the
 * matching Query field reads it: from the request's taxonomy lists of the change's year, in the original
 * language (adds) or the translation's language (translations).
 */

type Id = string | number;

const scope = (year: number, languageCode?: string | undefined): Scope => ({ year, languageCode });

export const taxonomyEntities = {
  category: (ctx: GraphqlContext, id: Id, year: number, languageCode?: string) => async () =>
    (await taxonomyReads(ctx).categoriesById(scope(year, languageCode))).get(Number(id)),
  subCategory: (ctx: GraphqlContext, id: Id, year: number, languageCode?: string) => async () =>
    (await taxonomyReads(ctx).subCategoriesById(scope(year, languageCode))).get(Number(id)),
  superIndicator: (ctx: GraphqlContext, id: Id, year: number, languageCode?: string) => async () =>
    (await taxonomyReads(ctx).superIndicatorsById(scope(year, languageCode))).get(Number(id)),
  indicator: (ctx: GraphqlContext, id: Id, year: number, languageCode?: string) => async () =>
    (await taxonomyReads(ctx).indicatorsById(scope(year, languageCode))).get(Number(id)),
  unit: (ctx: GraphqlContext, id: Id, year: number, languageCode?: string) => async () =>
    (await taxonomyReads(ctx).unitsById(scope(year, languageCode))).get(Number(id)),
};

import type { GraphqlContext } from '../context.js';
import { taxonomyReads, type Scope } from '../taxonomy-reads.js';
import { taxonomyQueries } from './taxonomy-resolvers.js';

/**
 * The taxonomy items, currencies and FX rates a change's payload carries (payloads.ts), each read as the
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
  /** The currency with this code, as currencies lists it. */
  currency: (ctx: GraphqlContext, code: string) => async () => (await taxonomyQueries.currencies(undefined, undefined, ctx)).find((c) => c.code === code),
  /** The stored (not derived) rate of the pair in this direction, as fxRates(year) lists it. */
  fxRate: (ctx: GraphqlContext, numerator: string, denominator: string, year: number) => async () =>
    (await taxonomyQueries.fxRates(undefined, { year }, ctx)).find(
      (r) => !r.derived && r.numeratorCurrencyCode === numerator && r.denominatorCurrencyCode === denominator,
    ),
  /** The stored rate of the pair in either direction (removeFxRate names the pair in either order). */
  storedFxRate: (ctx: GraphqlContext, code1: string, code2: string, year: number) => async () =>
    (await taxonomyQueries.fxRates(undefined, { year }, ctx)).find(
      (r) =>
        !r.derived &&
        ((r.numeratorCurrencyCode === code1 && r.denominatorCurrencyCode === code2) ||
          (r.numeratorCurrencyCode === code2 && r.denominatorCurrencyCode === code1)),
    ),
};

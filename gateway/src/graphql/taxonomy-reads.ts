import type {
  Category,
  EuObjective,
  Indicator,
  Sdg,
  SubCategory,
  SuperIndicator,
  TaxonomyRow,
  Unit,
} from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import { taxonomyClient } from '../clients.js';
import { callAs, type GraphqlContext } from './context.js';

/**
 * The taxonomy as GraphQL resolves it: each list of a (year, language) is fetched from TaxonomyService
 * at most once per request and indexed, and nested fields resolve from those lists. A query however
 * deeply nested therefore costs at most one call per read method and (year, language): GetCategories,
 * GetSubCategories, GetSuperIndicators, GetIndicators, GetUnits, GetTaxonomy, GetSdgs, GetEuObjectives.
 */

/** What a taxonomy object was read for; nested fields read the same year in the same language. */
export interface Scope {
  year: number;
  /** The requested language; undefined: each item in its original language. */
  languageCode: string | undefined;
}

export interface GqlSdg {
  id: number;
  goalNo: string;
  name: string;
  language: string;
  languageCode: string;
}

export interface GqlEuObjective {
  id: number;
  objectiveNo: string;
  name: string;
  language: string;
  languageCode: string;
}

/** Fields every taxonomy item of a year has in GraphQL. */
export interface TaxonomyItem {
  id: number;
  name: string;
  year: number;
  language: string;
  languageCode: string;
  scope: Scope;
}

export type GqlCategory = TaxonomyItem;
export type GqlUnit = TaxonomyItem;
export interface GqlSubCategory extends TaxonomyItem {
  categoryId: number;
  categoryName: string;
  sdg: Record<string, string>;
  euObjective: Record<string, string>;
}
/** One per super indicator, with every category it belongs to (the service answers one row per link). */
export interface GqlSuperIndicator extends TaxonomyItem {
  categoryIds: number[];
}
export interface GqlIndicator extends TaxonomyItem {
  superIndicatorId: number;
  superIndicatorName: string;
  unitId: number;
  unitName: string;
}
export interface GqlTaxonomyRow {
  row: TaxonomyRow;
  language: string;
  languageCode: string;
  scope: Scope;
}

const item = (scope: Scope, id: number, name: string, language: { language: string; languageCode: string }): TaxonomyItem => ({
  id,
  name,
  year: scope.year,
  language: language.language,
  languageCode: language.languageCode,
  scope,
});

export const toSdg = (s: Sdg): GqlSdg => ({ id: s.sdgId, goalNo: s.goalNo, name: s.sdg, language: s.language, languageCode: s.languageCode });
export const toEuObjective = (o: EuObjective): GqlEuObjective => ({
  id: o.euObjectivId,
  objectiveNo: o.objectiveNo,
  name: o.objective,
  language: o.language,
  languageCode: o.languageCode,
});
export const toCategory = (scope: Scope, c: Category): GqlCategory => item(scope, c.categoryId, c.categoryName, c);
export const toUnit = (scope: Scope, u: Unit): GqlUnit => item(scope, u.unitId, u.unitName, u);
export const toSubCategory = (scope: Scope, s: SubCategory): GqlSubCategory => ({
  ...item(scope, s.subCategoryId, s.subCategoryName, s),
  categoryId: s.categoryId,
  categoryName: s.categoryName,
  sdg: s.sdg,
  euObjective: s.euObjective,
});
export const toIndicator = (scope: Scope, i: Indicator): GqlIndicator => ({
  ...item(scope, i.indicatorId, i.indicatorName, i),
  superIndicatorId: i.superIndicatorId,
  superIndicatorName: i.superIndicatorName,
  unitId: i.unitId,
  unitName: i.unitName,
});

/** Folds the service's (super indicator, category) rows into one object per super indicator, in order. */
export function groupSuperIndicators(scope: Scope, links: readonly SuperIndicator[]): GqlSuperIndicator[] {
  const byId = new Map<number, GqlSuperIndicator>();
  for (const link of links) {
    const found = byId.get(link.superIndicatorId);
    if (found) {
      if (!found.categoryIds.includes(link.categoryId)) found.categoryIds.push(link.categoryId);
    } else {
      byId.set(link.superIndicatorId, {
        ...item(scope, link.superIndicatorId, link.superIndicatorName, link),
        categoryIds: [link.categoryId],
      });
    }
  }
  return [...byId.values()];
}

function indexBy<T, K>(list: readonly T[], key: (t: T) => K): Map<K, T> {
  return new Map(list.map((t) => [key(t), t]));
}

function groupBy<T, K>(list: readonly T[], keys: (t: T) => readonly K[]): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const t of list) for (const k of keys(t)) (groups.get(k) ?? groups.set(k, []).get(k)!).push(t);
  return groups;
}

/** One request's taxonomy reads; get it with {@link taxonomyReads}. */
export class TaxonomyReads {
  private readonly memo = new Map<string, Promise<unknown>>();

  constructor(private readonly ctx: GraphqlContext) {}

  sdgs(languageCode: string | undefined): Promise<GqlSdg[]> {
    return this.once(`sdgs|${languageCode ?? ''}`, async () => {
      const { sdgs } = await taxonomyClient(this.ctx.clients).getSdgs({ languageCode }, await callAs(this.ctx));
      return sdgs.map(toSdg);
    });
  }

  euObjectives(languageCode: string | undefined): Promise<GqlEuObjective[]> {
    return this.once(`euObjectives|${languageCode ?? ''}`, async () => {
      const { euObjectives } = await taxonomyClient(this.ctx.clients).getEuObjectives({ languageCode }, await callAs(this.ctx));
      return euObjectives.map(toEuObjective);
    });
  }

  categories(scope: Scope): Promise<GqlCategory[]> {
    return this.once(key('categories', scope), async () =>
      (await this.client().getCategories(request(scope), await callAs(this.ctx))).categories.map((c) => toCategory(scope, c)),
    );
  }

  subCategories(scope: Scope): Promise<GqlSubCategory[]> {
    return this.once(key('subCategories', scope), async () =>
      (await this.client().getSubCategories(request(scope), await callAs(this.ctx))).subCategories.map((s) => toSubCategory(scope, s)),
    );
  }

  superIndicators(scope: Scope): Promise<GqlSuperIndicator[]> {
    return this.once(key('superIndicators', scope), async () =>
      groupSuperIndicators(scope, (await this.client().getSuperIndicators(request(scope), await callAs(this.ctx))).superIndicators),
    );
  }

  indicators(scope: Scope): Promise<GqlIndicator[]> {
    return this.once(key('indicators', scope), async () =>
      (await this.client().getIndicators(request(scope), await callAs(this.ctx))).indicators.map((i) => toIndicator(scope, i)),
    );
  }

  units(scope: Scope): Promise<GqlUnit[]> {
    return this.once(key('units', scope), async () =>
      (await this.client().getUnits(request(scope), await callAs(this.ctx))).units.map((u) => toUnit(scope, u)),
    );
  }

  taxonomy(scope: Scope): Promise<GqlTaxonomyRow[]> {
    return this.once(key('taxonomy', scope), async () =>
      (await this.client().getTaxonomy(request(scope), await callAs(this.ctx))).rows.map((row) => ({
        row,
        language: row.language,
        languageCode: row.languageCode,
        scope,
      })),
    );
  }

  // ---- indexes over those lists, built once per request ----

  sdgsByNumber(languageCode: string | undefined): Promise<Map<string, GqlSdg>> {
    return this.once(`sdgsByNumber|${languageCode ?? ''}`, async () => indexBy(await this.sdgs(languageCode), (s) => s.goalNo));
  }

  euObjectivesByNumber(languageCode: string | undefined): Promise<Map<string, GqlEuObjective>> {
    return this.once(`euObjectivesByNumber|${languageCode ?? ''}`, async () =>
      indexBy(await this.euObjectives(languageCode), (o) => o.objectiveNo),
    );
  }

  categoriesById(scope: Scope): Promise<Map<number, GqlCategory>> {
    return this.once(key('categoriesById', scope), async () => indexBy(await this.categories(scope), (c) => c.id));
  }

  subCategoriesById(scope: Scope): Promise<Map<number, GqlSubCategory>> {
    return this.once(key('subCategoriesById', scope), async () => indexBy(await this.subCategories(scope), (s) => s.id));
  }

  subCategoriesByCategory(scope: Scope): Promise<Map<number, GqlSubCategory[]>> {
    return this.once(key('subCategoriesByCategory', scope), async () => groupBy(await this.subCategories(scope), (s) => [s.categoryId]));
  }

  superIndicatorsById(scope: Scope): Promise<Map<number, GqlSuperIndicator>> {
    return this.once(key('superIndicatorsById', scope), async () => indexBy(await this.superIndicators(scope), (s) => s.id));
  }

  superIndicatorsByCategory(scope: Scope): Promise<Map<number, GqlSuperIndicator[]>> {
    return this.once(key('superIndicatorsByCategory', scope), async () =>
      groupBy(await this.superIndicators(scope), (s) => s.categoryIds),
    );
  }

  indicatorsById(scope: Scope): Promise<Map<number, GqlIndicator>> {
    return this.once(key('indicatorsById', scope), async () => indexBy(await this.indicators(scope), (i) => i.id));
  }

  indicatorsBySuperIndicator(scope: Scope): Promise<Map<number, GqlIndicator[]>> {
    return this.once(key('indicatorsBySuperIndicator', scope), async () =>
      groupBy(await this.indicators(scope), (i) => [i.superIndicatorId]),
    );
  }

  indicatorsByUnit(scope: Scope): Promise<Map<number, GqlIndicator[]>> {
    return this.once(key('indicatorsByUnit', scope), async () => groupBy(await this.indicators(scope), (i) => [i.unitId]));
  }

  unitsById(scope: Scope): Promise<Map<number, GqlUnit>> {
    return this.once(key('unitsById', scope), async () => indexBy(await this.units(scope), (u) => u.id));
  }

  private client() {
    return taxonomyClient(this.ctx.clients);
  }

  /** A failed read stays failed for the rest of the request: every field that needs it reports the same error. */
  private once<T>(memoKey: string, load: () => Promise<T>): Promise<T> {
    let pending = this.memo.get(memoKey) as Promise<T> | undefined;
    if (!pending) {
      pending = load();
      this.memo.set(memoKey, pending);
    }
    return pending;
  }
}

const key = (name: string, scope: Scope) => `${name}|${scope.year}|${scope.languageCode ?? ''}`;
const request = (scope: Scope) => ({ reportingYear: scope.year, languageCode: scope.languageCode });

const perRequest = new WeakMap<GraphqlContext, TaxonomyReads>();

/** The request's TaxonomyReads (one per GraphQL context). */
export function taxonomyReads(ctx: GraphqlContext): TaxonomyReads {
  let reads = perRequest.get(ctx);
  if (!reads) perRequest.set(ctx, (reads = new TaxonomyReads(ctx)));
  return reads;
}

/** Drops the request's memoised reads: a change made since makes them stale (payloads.ts). */
export function forgetTaxonomyReads(ctx: GraphqlContext): void {
  perRequest.delete(ctx);
}

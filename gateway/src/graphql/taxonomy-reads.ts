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

/** A taxonomy message as read for `scope`: its nested items are read in the same year and language. */
export type Scoped<T> = T & { scope: Scope };

const scoped = <T>(scope: Scope, message: T): Scoped<T> => ({ ...message, scope });

/** One per super indicator, with every category it belongs to (the service answers one row per link). */
export type GroupedSuperIndicator = Scoped<Omit<SuperIndicator, 'categoryId' | 'categoryName'>> & { categoryIds: number[] };

/** Folds the service's (super indicator, category) rows into one object per super indicator, in order. */
export function groupSuperIndicators(scope: Scope, links: readonly SuperIndicator[]): GroupedSuperIndicator[] {
  const byId = new Map<number, GroupedSuperIndicator>();
  for (const link of links) {
    const found = byId.get(link.superIndicatorId);
    if (found) {
      if (!found.categoryIds.includes(link.categoryId)) found.categoryIds.push(link.categoryId);
    } else {
      byId.set(link.superIndicatorId, { ...scoped(scope, link), categoryIds: [link.categoryId] });
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

  sdgs(languageCode: string | undefined): Promise<Sdg[]> {
    return this.once(`sdgs|${languageCode ?? ''}`, async () => {
      const { sdgs } = await taxonomyClient(this.ctx.clients).getSdgs({ languageCode }, await callAs(this.ctx));
      return sdgs;
    });
  }

  euObjectives(languageCode: string | undefined): Promise<EuObjective[]> {
    return this.once(`euObjectives|${languageCode ?? ''}`, async () => {
      const { euObjectives } = await taxonomyClient(this.ctx.clients).getEuObjectives({ languageCode }, await callAs(this.ctx));
      return euObjectives;
    });
  }

  categories(scope: Scope): Promise<Scoped<Category>[]> {
    return this.once(key('categories', scope), async () =>
      (await this.client().getCategories(request(scope), await callAs(this.ctx))).categories.map((c) => scoped(scope, c)),
    );
  }

  subCategories(scope: Scope): Promise<Scoped<SubCategory>[]> {
    return this.once(key('subCategories', scope), async () =>
      (await this.client().getSubCategories(request(scope), await callAs(this.ctx))).subCategories.map((s) => scoped(scope, s)),
    );
  }

  superIndicators(scope: Scope): Promise<GroupedSuperIndicator[]> {
    return this.once(key('superIndicators', scope), async () =>
      groupSuperIndicators(scope, (await this.client().getSuperIndicators(request(scope), await callAs(this.ctx))).superIndicators),
    );
  }

  indicators(scope: Scope): Promise<Scoped<Indicator>[]> {
    return this.once(key('indicators', scope), async () =>
      (await this.client().getIndicators(request(scope), await callAs(this.ctx))).indicators.map((i) => scoped(scope, i)),
    );
  }

  units(scope: Scope): Promise<Scoped<Unit>[]> {
    return this.once(key('units', scope), async () =>
      (await this.client().getUnits(request(scope), await callAs(this.ctx))).units.map((u) => scoped(scope, u)),
    );
  }

  taxonomy(scope: Scope): Promise<Scoped<TaxonomyRow>[]> {
    return this.once(key('taxonomy', scope), async () =>
      (await this.client().getTaxonomy(request(scope), await callAs(this.ctx))).rows.map((row) => scoped(scope, row)),
    );
  }

  // ---- indexes over those lists, built once per request ----

  sdgsByNumber(languageCode: string | undefined): Promise<Map<string, Sdg>> {
    return this.once(`sdgsByNumber|${languageCode ?? ''}`, async () => indexBy(await this.sdgs(languageCode), (s) => s.goalNo));
  }

  euObjectivesByNumber(languageCode: string | undefined): Promise<Map<string, EuObjective>> {
    return this.once(`euObjectivesByNumber|${languageCode ?? ''}`, async () =>
      indexBy(await this.euObjectives(languageCode), (o) => o.objectiveNo),
    );
  }

  categoriesById(scope: Scope): Promise<Map<number, Scoped<Category>>> {
    return this.once(key('categoriesById', scope), async () => indexBy(await this.categories(scope), (c) => c.categoryId));
  }

  subCategoriesById(scope: Scope): Promise<Map<number, Scoped<SubCategory>>> {
    return this.once(key('subCategoriesById', scope), async () => indexBy(await this.subCategories(scope), (s) => s.subCategoryId));
  }

  subCategoriesByCategory(scope: Scope): Promise<Map<number, Scoped<SubCategory>[]>> {
    return this.once(key('subCategoriesByCategory', scope), async () => groupBy(await this.subCategories(scope), (s) => [s.categoryId]));
  }

  superIndicatorsById(scope: Scope): Promise<Map<number, GroupedSuperIndicator>> {
    return this.once(key('superIndicatorsById', scope), async () => indexBy(await this.superIndicators(scope), (s) => s.superIndicatorId));
  }

  superIndicatorsByCategory(scope: Scope): Promise<Map<number, GroupedSuperIndicator[]>> {
    return this.once(key('superIndicatorsByCategory', scope), async () =>
      groupBy(await this.superIndicators(scope), (s) => s.categoryIds),
    );
  }

  indicatorsById(scope: Scope): Promise<Map<number, Scoped<Indicator>>> {
    return this.once(key('indicatorsById', scope), async () => indexBy(await this.indicators(scope), (i) => i.indicatorId));
  }

  indicatorsBySuperIndicator(scope: Scope): Promise<Map<number, Scoped<Indicator>[]>> {
    return this.once(key('indicatorsBySuperIndicator', scope), async () =>
      groupBy(await this.indicators(scope), (i) => [i.superIndicatorId]),
    );
  }

  indicatorsByUnit(scope: Scope): Promise<Map<number, Scoped<Indicator>[]>> {
    return this.once(key('indicatorsByUnit', scope), async () => groupBy(await this.indicators(scope), (i) => [i.unitId]));
  }

  unitsById(scope: Scope): Promise<Map<number, Scoped<Unit>>> {
    return this.once(key('unitsById', scope), async () => indexBy(await this.units(scope), (u) => u.unitId));
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

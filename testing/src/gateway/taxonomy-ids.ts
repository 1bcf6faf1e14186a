import type { TestGateway } from './real-gateway.js';

/** The ids the taxonomy service gave a year's items, by their name in the original language. */
export interface TaxonomyIds {
  category: Record<string, number>;
  subCategory: Record<string, number>;
  superIndicator: Record<string, number>;
  indicator: Record<string, number>;
  unit: Record<string, number>;
}

/**
 * Reads the ids of `year`'s items (2024: the ICMA example t.loadExampleTaxonomy() loads) from the real
 * taxonomy service as the operator, so tests name items as the example does instead of guessing the ids
 * the database handed out. A name that is not there reads as a failed test, not as undefined.
 */
export async function taxonomyIds(t: TestGateway, year = 2024): Promise<TaxonomyIds> {
  const client = t.taxonomy!.client;
  const opts = { caller: t.operator };
  const req = { reportingYear: year };
  const [categories, subCategories, superIndicators, indicators, units] = await Promise.all([
    client.getCategories(req, opts),
    client.getSubCategories(req, opts),
    client.getSuperIndicators(req, opts),
    client.getIndicators(req, opts),
    client.getUnits(req, opts),
  ]);
  const byName = (kind: string, items: { name: string; id: number }[]) =>
    new Proxy(Object.fromEntries(items.map((i) => [i.name, i.id])), {
      get(target, name) {
        if (typeof name === 'string' && !(name in target)) throw new Error(`no ${kind} named ${JSON.stringify(name)} in ${year}`);
        return target[name as string];
      },
    });
  return {
    category: byName('category', categories.categories.map((c) => ({ name: c.categoryName, id: Number(c.categoryId) }))),
    subCategory: byName('sub category', subCategories.subCategories.map((s) => ({ name: s.subCategoryName, id: Number(s.subCategoryId) }))),
    superIndicator: byName('super indicator', superIndicators.superIndicators.map((s) => ({ name: s.superIndicatorName, id: Number(s.superIndicatorId) }))),
    indicator: byName('indicator', indicators.indicators.map((i) => ({ name: i.indicatorName, id: Number(i.indicatorId) }))),
    unit: byName('unit', units.units.map((u) => ({ name: u.unitName, id: Number(u.unitId) }))),
  };
}

import type { Category, Indicator, SubCategory, SuperIndicator, Unit } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import type { GraphqlContext } from '../context.js';
import type { Scoped } from '../taxonomy-reads.js';
import { part, serial, year, type NodeType } from './node-types.js';
import { resolverOf } from '../../catalogue/graphql.js';
import { getCategories, getIndicators, getSubCategories, getSuperIndicators, getUnits } from '../../catalogue/taxonomy/taxonomy.js';
import type { Operation } from '../../catalogue/operation.js';

/**
 * The taxonomy items as Node types (node-types.ts has the others). An item is year-specific and read in a
 * language, so its key is id, year and the language it was read in (`-`: each item's original language,
 * as the lists answer without languageCode): `Category:3:2024:sv`. The same category read in another
 * language is another node, with its own names. Refetched from the year's list as categories(year,
 * languageCode) and the others read it: shared reference data, the same for every caller.
 */

const ORIGINAL = '-';

type ListRead<T> = (_: unknown, args: { year: number; languageCode?: string | null }, ctx: GraphqlContext) => Promise<Scoped<T>[]>;

/** The Node type of the items `op` lists, each named by `idOf`. */
function taxonomyNode<T>(op: Operation, idOf: (item: T) => number): NodeType<Scoped<T>> {
  const list = resolverOf(op) as unknown as ListRead<T>;
  return {
    parts: 3,
    key: (item) => [idOf(item), item.scope.year, item.scope.languageCode ?? ORIGINAL],
    async refetch([id, y, language], ctx) {
      const itemId = serial(id);
      // The list's own validation refuses a language code it does not take.
      const languageCode = part(language, /^\S+$/);
      const items = await list(undefined, { year: year(y), languageCode: languageCode === ORIGINAL ? undefined : languageCode }, ctx);
      return items.find((item) => idOf(item) === itemId) ?? null;
    },
  };
}

export const taxonomyNodeTypes = {
  Category: taxonomyNode(getCategories, (c: Category) => c.categoryId),
  SubCategory: taxonomyNode(getSubCategories, (s: SubCategory) => s.subCategoryId),
  SuperIndicator: taxonomyNode(getSuperIndicators, (s: SuperIndicator) => s.superIndicatorId),
  Indicator: taxonomyNode(getIndicators, (i: Indicator) => i.indicatorId),
  Unit: taxonomyNode(getUnits, (u: Unit) => u.unitId),
};

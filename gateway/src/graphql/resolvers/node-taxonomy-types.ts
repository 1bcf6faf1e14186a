import type { GraphqlContext } from '../context.js';
import type { TaxonomyItem } from '../taxonomy-reads.js';
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

type ListRead = (_: unknown, args: { year: number; languageCode?: string | null }, ctx: GraphqlContext) => Promise<TaxonomyItem[]>;

function taxonomyNode(op: Operation): NodeType<TaxonomyItem> {
  const list = resolverOf(op) as unknown as ListRead;
  return {
    parts: 3,
    key: (item) => [item.id, item.year, item.scope.languageCode ?? ORIGINAL],
    async refetch([id, y, language], ctx) {
      const itemId = serial(id);
      // The list's own validation refuses a language code it does not take.
      const languageCode = part(language, /^\S+$/);
      const items = await list(undefined, { year: year(y), languageCode: languageCode === ORIGINAL ? undefined : languageCode }, ctx);
      return items.find((item) => item.id === itemId) ?? null;
    },
  };
}

export const taxonomyNodeTypes = {
  Category: taxonomyNode(getCategories),
  SubCategory: taxonomyNode(getSubCategories),
  SuperIndicator: taxonomyNode(getSuperIndicators),
  Indicator: taxonomyNode(getIndicators),
  Unit: taxonomyNode(getUnits),
};

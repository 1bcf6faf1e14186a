import type { DataSource } from 'typeorm';
import {
  decodeBeforeToken,
  decodePageToken,
  keysetOf,
  orderOf,
  pageBeforeOf,
  pageOf,
  pageSize,
  totalOf,
  type ListingOrders,
  type PageRequest,
} from '@green-impact/shared/paging';

/** A page of the framework or project listing: after page_token or right before page_before, in page_order. */
export interface OwnedPageRequest extends PageRequest {
  before?: string | undefined;
  order?: { field: string; descending: boolean } | undefined;
}

/** How one listing is read: its SELECT … FROM with `extra` appended to the select list, its WHERE over `params`, its count. */
export interface OwnedListing {
  select(extra: string): string;
  where: string;
  params: unknown[];
  count(): Promise<number>;
}

export interface OwnedPage<R> {
  rows: R[];
  nextPageToken: string;
  totalCount: number;
  hasPreviousPage: boolean;
  itemPageTokens: string[];
}

/**
 * One page of an owned listing (frameworks, projects) in the asked order (`orders`; default ascending id,
 * with today's tokens), after the token's item or right before page_before's (keyset: LIMIT size + 1
 * rows, never the whole table), with how many items the listing holds. Both listings page the same way,
 * so the keyset, the count and the tokens are worked out once here.
 */
export async function ownedPage<R extends { id: number }>(ds: DataSource, listing: OwnedListing, orders: ListingOrders, page: OwnedPageRequest): Promise<OwnedPage<R>> {
  const size = pageSize(page.size);
  const order = orderOf(orders, page.order);
  const before = decodeBeforeToken(page.token, page.before);
  const after = decodePageToken(page.token);
  const { params } = listing;
  const keyset = keysetOf(order, before ?? after, params.length + 1, before !== undefined);
  const rows: R[] = await ds.query(
    `${listing.select(keyset.select)} WHERE ${listing.where}${keyset.where}
     ORDER BY ${keyset.orderBy} LIMIT $${params.length + keyset.params.length + 1}`,
    [...params, ...keyset.params, size + 1],
  );
  if (before) {
    const totalCount = await listing.count();
    const { items, nextPageToken, hasPreviousPage, itemPageTokens } = pageBeforeOf(rows, size, before, (r) => r.id, order, totalCount);
    return { rows: items, nextPageToken, totalCount, hasPreviousPage, itemPageTokens };
  }
  const totalCount = await totalOf(after, rows, size, () => listing.count());
  const { items, nextPageToken, itemPageTokens } = pageOf(rows, size, after, (r) => r.id, order);
  return { rows: items, nextPageToken, totalCount, hasPreviousPage: after !== undefined, itemPageTokens };
}

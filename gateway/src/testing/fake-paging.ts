import { InvalidArgumentError } from '@green-impact/shared/errors';
import { decodePageToken, decodeTextPageToken, pageOf, pageSize } from '@green-impact/shared/paging';

/**
 * Pages of a fake's listings as the services page theirs (services/shared/src/paging.ts): page_size
 * 1..1000, the page after the page_token's item, next_page_token empty on the last page, and the count of
 * the whole listing. Malformed tokens and sizes are INVALID_ARGUMENT with the services' texts.
 */

type PageFields = { pageSize?: number | undefined; pageToken?: string | undefined };
type FakePage<T> = { items: T[]; nextPageToken: string; totalCount: number };

/** A listing keyed by a serial id: id order after the token's id (keyset). */
export function fakeServicePage<T>(list: readonly T[], req: PageFields, idOf: (item: T) => number = (item) => (item as { id: number }).id): FakePage<T> {
  const size = pageSize(req.pageSize ?? 0);
  const after = decodePageToken(req.pageToken);
  const rest = [...list].sort((a, b) => idOf(a) - idOf(b)).filter((x) => after === undefined || idOf(x) > after.id);
  const { items, nextPageToken } = pageOf(rest.slice(0, size + 1), size, after, idOf);
  return { items, nextPageToken, totalCount: list.length };
}

/**
 * A listing in a fixed order of text ids (accounts: creation order): the items after the token's item,
 * which must still be listed (as the identity service, which looks the token's account up).
 */
export function fakeOrderedPage<T>(ordered: readonly T[], req: PageFields, idOf: (item: T) => string, idPattern: RegExp): FakePage<T> {
  const size = pageSize(req.pageSize ?? 0);
  const after = decodeTextPageToken(req.pageToken, idPattern);
  const start = after === undefined ? 0 : ordered.findIndex((x) => idOf(x) === after.id) + 1;
  if (start === 0 && after !== undefined) throw new InvalidArgumentError('page_token must be a next_page_token of this listing.');
  const { items, nextPageToken } = pageOf(ordered.slice(start, start + size + 1), size, after, idOf);
  return { items, nextPageToken, totalCount: ordered.length };
}

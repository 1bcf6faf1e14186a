import { InvalidArgumentError } from '@green-impact/shared/errors';
import { decodeCursor, encodeCursor, MAX_PAGE, type Cursor } from '../graphql/pagination.js';

/**
 * Pages of the fake portfolio service's listings, as the real service pages them (services/shared
 * paging.ts): page_size 1 to 1000, the token being the gateway's cursor, keyset after the token's item.
 */

export interface FakePageRequest {
  pageSize?: number | undefined;
  pageToken?: string | undefined;
}

export interface FakePage<T> {
  items: T[];
  nextPageToken: string;
  totalCount: number;
}

const invalidToken = () => new InvalidArgumentError('page_token must be a next_page_token of this listing.');

/** The size and the token's cursor of a page request, checked as the service checks them. */
export function fakePageRequest(req: FakePageRequest, idPattern: RegExp): { size: number; after: Cursor | undefined } {
  const size = req.pageSize!;
  if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE) throw new InvalidArgumentError(`page_size must be an integer from 1 to ${MAX_PAGE}, got ${size}.`);
  let after: Cursor | undefined;
  try {
    after = req.pageToken ? decodeCursor(req.pageToken) : undefined;
  } catch {
    throw invalidToken();
  }
  if (after && !idPattern.test(after.id)) throw invalidToken();
  return { size, after };
}

/** The page of `rest` (the items after the token, in order) and the next token. */
export function fakePageOf<T>(rest: T[], size: number, after: Cursor | undefined, idOf: (item: T) => string, totalCount: number): FakePage<T> {
  const items = rest.slice(0, size);
  const last = items.at(-1);
  return {
    items,
    nextPageToken: rest.length > items.length && last !== undefined ? encodeCursor({ offset: (after?.offset ?? 0) + items.length, id: idOf(last) }) : '',
    totalCount,
  };
}

/** A listing keyed by a serial id: id order after the token's id. */
export function fakePage<T extends { id: number }>(list: T[], req: FakePageRequest): FakePage<T> {
  const { size, after } = fakePageRequest(req, /^[1-9][0-9]*$/);
  const rest = [...list].sort((a, b) => a.id - b.id).filter((x) => !after || x.id > Number(after.id));
  return fakePageOf(rest, size, after, (x) => String(x.id), list.length);
}

export { invalidToken };

import { InvalidArgumentError } from '@green-impact/shared/errors';

/**
 * Cursor pagination of the root lists that grow with an account's data (users, accounts, frameworks,
 * projects, assets, investors, positions, portfolios, documents, NFTs), Relay-style: `first` / `after`
 * in, `nodes`, `pageInfo { hasNextPage endCursor }` and `totalCount` out.
 *
 * Most services answer these reads whole (the spec's reads have no pages), so the gateway pages the
 * answer (`paged`): the schema is the stable contract, and a service takes over paging (`servicePaged`:
 * positions, with page_size / page_token / next_page_token and a COUNT for totalCount) without a client
 * noticing. A cursor is opaque: the position after the page
 * and the id of its last item. If that item moved (something before it was removed), the page resumes
 * right after wherever the item is now; if it is gone, at the same position.
 */

export const MAX_PAGE = 1_000;
export const DEFAULT_PAGE = 100;
const NOT_A_CURSOR = 'after must be a pageInfo.endCursor of this list.';

/** The SDL arguments of a paged field (to splice into an argument list). */
export const PAGE_ARGS = `
      "Page size, 1 to ${MAX_PAGE}; default ${DEFAULT_PAGE}."
      first: Int = ${DEFAULT_PAGE}
      "pageInfo.endCursor of the previous page; omit for the first page."
      after: String`;

/** The SDL of a connection type over `node`. */
export function connectionType(node: string, plural: string): string {
  return `
  "A page of ${plural}, in the list's order."
  type ${node}Connection {
    "The ${plural} of this page."
    nodes: [${node}!]!
    "Where this page ends and whether another follows."
    pageInfo: PageInfo!
    "How many ${plural} there are across all pages."
    totalCount: Int!
  }
`;
}

export interface PageArgs {
  first?: number | null | undefined;
  after?: string | null | undefined;
}

export interface Connection<T> {
  nodes: T[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  totalCount: number;
}

export interface Cursor {
  offset: number;
  id: string;
}

/** Checks `first` and `after` before anything is read; INVALID_ARGUMENT names the argument. */
export function checkPage(args: PageArgs): { first: number; after: Cursor | undefined } {
  const first = args.first ?? DEFAULT_PAGE;
  if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE) {
    throw new InvalidArgumentError(`first must be an integer from 1 to ${MAX_PAGE}, got ${first}.`);
  }
  if (args.after === undefined || args.after === null) return { first, after: undefined };
  return { first, after: decodeCursor(args.after) };
}

export function paginate<T>(items: readonly T[], page: ReturnType<typeof checkPage>, idOf: (item: T) => string | number): Connection<T> {
  let start = 0;
  if (page.after) {
    const { offset, id } = page.after;
    if (offset > 0 && offset <= items.length && String(idOf(items[offset - 1]!)) === id) start = offset;
    else {
      const moved = items.findIndex((item) => String(idOf(item)) === id);
      start = moved >= 0 ? moved + 1 : Math.min(offset, items.length);
    }
  }
  const nodes = items.slice(start, start + page.first);
  const end = start + nodes.length;
  const last = nodes.at(-1);
  return {
    nodes,
    totalCount: items.length,
    pageInfo: {
      hasNextPage: end < items.length,
      endCursor: last === undefined ? null : encodeCursor({ offset: end, id: String(idOf(last)) }),
    },
  };
}

/**
 * Wraps a resolver that answers a whole list into one that answers a page of it: `first` and `after`
 * are checked first and not passed on.
 */
export function paged<P, A, C, T>(
  resolve: (parent: P, args: A, ctx: C) => Promise<readonly T[]>,
  idOf: (item: T) => string | number,
) {
  return async (parent: P, args: A & PageArgs, ctx: C): Promise<Connection<T>> => {
    const { first, after, ...rest } = args;
    const page = checkPage({ first, after });
    return paginate(await resolve(parent, rest as A, ctx), page, idOf);
  };
}

/** A service's page of a list (page_size / page_token in, next_page_token / total_count out). */
export interface ServicePage<T> {
  items: T[];
  /** Empty when this page is the last. */
  nextPageToken: string;
  totalCount: number;
}

/**
 * Wraps a resolver whose service pages the list itself (keyset, in the order of idOf): `first` and
 * `after` are checked here and passed on as page_size and page_token. The service's tokens are this
 * module's cursors (offset after the page, id of its last item), so the cursors clients hold from the
 * gateway-side paging stay valid, and the service resumes after the id.
 */
export function servicePaged<P, A, C, T>(
  resolve: (parent: P, args: A, ctx: C, page: { pageSize: number; pageToken: string | undefined }) => Promise<ServicePage<T>>,
  idOf: (item: T) => string | number,
  /** The ids of the list (a cursor of another list is refused here, as by checkPage). */
  idPattern: RegExp,
) {
  return async (parent: P, args: A & PageArgs, ctx: C): Promise<Connection<T>> => {
    const { first, after, ...rest } = args;
    const page = checkPage({ first, after });
    if (page.after && !idPattern.test(page.after.id)) throw new InvalidArgumentError(NOT_A_CURSOR);
    const answer = await resolve(parent, rest as A, ctx, { pageSize: page.first, pageToken: after ?? undefined });
    const last = answer.items.at(-1);
    return {
      nodes: answer.items,
      totalCount: answer.totalCount,
      pageInfo: {
        hasNextPage: answer.nextPageToken !== '',
        endCursor: last === undefined ? null : encodeCursor({ offset: (page.after?.offset ?? 0) + answer.items.length, id: String(idOf(last)) }),
      },
    };
  };
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.offset, cursor.id])).toString('base64url');
}

export function decodeCursor(text: string): Cursor {
  const invalid = () => new InvalidArgumentError(NOT_A_CURSOR);
  if (text.length > 512 || !/^[A-Za-z0-9_-]+$/.test(text)) throw invalid();
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && Number.isInteger(value[0]) && value[0] >= 0 && typeof value[1] === 'string') {
      return { offset: value[0] as number, id: value[1] };
    }
  } catch {
    // Falls through to the error below.
  }
  throw invalid();
}

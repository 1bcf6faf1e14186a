import { InvalidArgumentError } from '@green-impact/shared/errors';

/** The page a connection asks its service for: page_size, and page_token after the first page. */
export interface PageRequest {
  pageSize: number;
  pageToken: string | undefined;
}

/** The page fields of a service request: none without a page (/v1/call reads the whole listing), page_token only after the first. */
/** The ids of the lists the services page (positive serials). */
export const SERVICE_ID = /^[1-9][0-9]{0,14}$/;

export const pageFields = (page: PageRequest | undefined) =>
  page === undefined ? {} : { pageSize: page.pageSize, ...(page.pageToken === undefined ? {} : { pageToken: page.pageToken }) };

/**
 * Cursor pagination of the root lists that grow with an account's data (users, accounts, frameworks,
 * projects, assets, investors, positions, portfolios, documents, NFTs), Relay-style: `first` / `after`
 * in, `nodes`, `edges { cursor node }`, `pageInfo { hasNextPage hasPreviousPage startCursor endCursor }`
 * and `totalCount` out.
 *
 * Every such list is paged by its service (`servicePaged`: page_size / page_token in, next_page_token and
 * a COUNT for totalCount out; keyset SQL, so no page reads the whole table); `jobs` pages with the chain
 * service's own tokens. A cursor is opaque: the position after the item and the item's id; the service
 * resumes right after that id, so every edge's cursor is a page token, inserts and removals between
 * pages neither repeat nor skip an item, and cursors given out by the earlier gateway-side paging
 * (`paginate`, kept as the reference the paging tests compare against) stay valid.
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
    "The ${plural} of this page (the nodes of edges, for clients that need no cursor per item)."
    nodes: [${node}!]!
    "The ${plural} of this page, each with the cursor that resumes right after it (Relay)."
    edges: [${node}Edge!]!
    "Where this page starts and ends and whether another follows."
    pageInfo: PageInfo!
    "How many ${plural} there are across all pages."
    totalCount: Int!
  }

  "One of a page of ${plural}, with its cursor."
  type ${node}Edge {
    "Pass as after to read the ${plural} that follow this one."
    cursor: String!
    "The item."
    node: ${node}!
  }
`;
}

/** The cursor-carrying edges of a page; cursorAt(i) resumes right after nodes[i]. */
export function edgesOf<T>(nodes: readonly T[], cursorAt: (index: number) => string): Edge<T>[] {
  return nodes.map((node, i) => ({ cursor: cursorAt(i), node }));
}

export interface PageArgs {
  first?: number | null | undefined;
  after?: string | null | undefined;
}

export interface Edge<T> {
  cursor: string;
  node: T;
}

export interface PageInfo {
  hasNextPage: boolean;
  /** Forward paging (first/after): true when the page started after a cursor, i.e. items may precede it. */
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}

export interface Connection<T> {
  nodes: T[];
  edges: Edge<T>[];
  pageInfo: PageInfo;
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
  const edges = edgesOf(nodes, (i) => encodeCursor({ offset: start + i + 1, id: String(idOf(nodes[i]!)) }));
  return {
    nodes,
    edges,
    totalCount: items.length,
    pageInfo: {
      hasNextPage: end < items.length,
      hasPreviousPage: page.after !== undefined,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
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
  resolve: (parent: P, args: A, ctx: C, page: PageRequest) => Promise<ServicePage<T>>,
  idOf: (item: T) => string | number,
  /** The ids of the list (a cursor of another list is refused here, as by checkPage). */
  idPattern: RegExp,
) {
  return async (parent: P, args: A & PageArgs, ctx: C): Promise<Connection<T>> => {
    const { first, after, ...rest } = args;
    const page = checkPage({ first, after });
    if (page.after && !idPattern.test(page.after.id)) throw new InvalidArgumentError(NOT_A_CURSOR);
    const answer = await resolve(parent, rest as A, ctx, { pageSize: page.first, pageToken: after ?? undefined });
    const base = page.after?.offset ?? 0;
    // The service resumes after the id a token names, so every item's cursor is a valid page token.
    const edges = edgesOf(answer.items, (i) => encodeCursor({ offset: base + i + 1, id: String(idOf(answer.items[i]!)) }));
    return {
      nodes: answer.items,
      edges,
      totalCount: answer.totalCount,
      pageInfo: {
        hasNextPage: answer.nextPageToken !== '',
        hasPreviousPage: page.after !== undefined,
        startCursor: edges[0]?.cursor ?? null,
        endCursor: edges.at(-1)?.cursor ?? null,
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

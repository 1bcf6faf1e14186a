import type { GraphQLResolveInfo } from 'graphql';
import { InvalidArgumentError } from '@green-impact/shared/errors';

/** The page a connection asks its service for: page_size, and page_token after the first page. */
export interface PageRequest {
  pageSize: number;
  pageToken: string | undefined;
  /** Backward paging (last/before): the cursor the page ends right before; pageSize is then last. */
  pageBefore?: string | undefined;
  /** orderBy: the service's order field (the GraphQL enum value in lower case) and direction. */
  order?: { field: string; descending: boolean } | undefined;
}

/** The page fields of a service request: none without a page (/v1/call reads the whole listing), page_token only after the first. */
/** The ids of the lists the services page (positive serials). */
export const SERVICE_ID = /^[1-9][0-9]{0,14}$/;

export const pageFields = (page: PageRequest | undefined) =>
  page === undefined
    ? {}
    : {
        pageSize: page.pageSize,
        ...(page.pageToken === undefined ? {} : { pageToken: page.pageToken }),
        ...(page.pageBefore === undefined ? {} : { pageBefore: page.pageBefore }),
        ...(page.order === undefined ? {} : { pageOrder: page.order }),
      };

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

/** The SDL arguments of a connection its service also pages backward (after PAGE_ARGS). */
export const BACKWARD_PAGE_ARGS = `
      "Page backward: the last 1 to ${MAX_PAGE} items before \`before\` (or of the whole list), in the list's order; not with first."
      last: Int
      "A cursor of this list: the page ends right before its item (with last)."
      before: String`;

/** The description of orderBy; `byDefault` says the order without it. */
export const orderArgDoc = (byDefault = 'ascending id, the order of creation') =>
  `The order of the pages; default: ${byDefault}. A cursor resumes only the order it was given in.`;

/** The SDL argument of a connection its service orders (after the page arguments). */
export const orderArg = (type: string, byDefault?: string) => `
      ${JSON.stringify(orderArgDoc(byDefault))}
      orderBy: ${type}Order`;

/**
 * The SDL of a connection's order: its input type and field enum. Each enum value is the service's order
 * field in upper case (NAME: name); ID, the order of creation, is always offered.
 */
export function orderTypes(type: string, plural: string, fields: Readonly<Record<string, string>>): string {
  const values = Object.entries({ ID: `The order the ${plural} were created in.`, ...fields })
    .map(([value, doc]) => `
    ${JSON.stringify(doc)}
    ${value}`)
    .join('');
  return `
  "The order of a page of ${plural}: a field, then the id in the same direction for equal values."
  input ${type}Order {
    "What the ${plural} are ordered by."
    field: ${type}OrderField!
    "Up or down; default ASC."
    direction: OrderDirection = ASC
  }

  "What ${plural} can be ordered by."
  enum ${type}OrderField {${values}
  }
`;
}

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
  last?: number | null | undefined;
  before?: string | null | undefined;
  orderBy?: { field: string; direction?: 'ASC' | 'DESC' | null } | null | undefined;
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
  /** A cursor of an ordered page (orderBy): the order it was given in (`name:desc`); absent: ascending id. */
  order?: string | undefined;
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
  /** Backward pages only: whether items precede the page. */
  hasPreviousPage?: boolean;
  /** For each item, the service's token that resumes right after it (an ordered page's cursors carry its order value). */
  itemPageTokens?: string[];
}

/** A connection declaration's answer from its service's page response: the items, and the response's page fields. */
export function servicePageOf<T>(
  items: T[],
  res: { nextPageToken: string; totalCount?: number | undefined; hasPreviousPage: boolean; itemPageTokens: string[] },
): ServicePage<T> {
  return { items, nextPageToken: res.nextPageToken, totalCount: res.totalCount ?? items.length, hasPreviousPage: res.hasPreviousPage, itemPageTokens: res.itemPageTokens };
}

/**
 * Checks a backward page (last, before) before anything is read: last bounds like first (1 to `max`,
 * default `byDefault`); not with first given in the query (its SDL default alone does not count), nor
 * with after. The page size, or undefined for a forward page.
 */
export function backwardSize(args: PageArgs, info: GraphQLResolveInfo | undefined, max = MAX_PAGE, byDefault = DEFAULT_PAGE): number | undefined {
  const { last, before } = args;
  if ((last === undefined || last === null) && (before === undefined || before === null)) return undefined;
  const firstGiven = info ? givenInQuery(info, 'first') : args.first !== undefined && args.first !== null;
  if (firstGiven) throw new InvalidArgumentError('first and last cannot be given together: a page is read forward or backward.');
  if (args.after !== undefined && args.after !== null) throw new InvalidArgumentError('after and before cannot be given together.');
  const size = last ?? byDefault;
  if (!Number.isInteger(size) || size < 1 || size > max) throw new InvalidArgumentError(`last must be an integer from 1 to ${max}, got ${size}.`);
  return size;
}

/** A backward page's size and before cursor (backwardSize), or undefined for a forward page. */
function checkBackward(args: PageArgs, info: GraphQLResolveInfo | undefined): { last: number; before: Cursor | undefined } | undefined {
  const last = backwardSize(args, info);
  if (last === undefined) return undefined;
  return { last, before: args.before === undefined || args.before === null ? undefined : decodeCursor(args.before) };
}

/** Whether the query gives the argument (a variable counts when it has a value), not its SDL default. */
function givenInQuery(info: GraphQLResolveInfo, name: string): boolean {
  const node = info.fieldNodes[0]?.arguments?.find((a) => a.name.value === name);
  if (!node) return false;
  if (node.value.kind !== 'Variable') return true;
  const value = info.variableValues[node.value.name.value];
  return value !== undefined && value !== null;
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
  /** The service's order without orderBy, when not ascending id (newest first): its cursors carry no order. */
  defaultOrder?: ServiceOrder,
) {
  return async (parent: P, args: A & PageArgs, ctx: C, info?: GraphQLResolveInfo): Promise<Connection<T>> => {
    const { first, after, last, before, orderBy, ...rest } = args;
    const order = orderOfArgs(orderBy);
    const backward = checkBackward({ first, after, last, before }, info);
    if (backward) {
      if (backward.before && !idPattern.test(backward.before.id)) throw new InvalidArgumentError('before must be a cursor of this list.');
      if (backward.before && !inOrder(backward.before, order, defaultOrder)) throw new InvalidArgumentError(BEFORE_IN_ORDER);
      return backwardPage(await resolve(parent, rest as A, ctx, { ...backwardRequest(backward, before ?? undefined), order }), backward, idOf);
    }
    const page = checkPage({ first, after });
    if (page.after && !idPattern.test(page.after.id)) throw new InvalidArgumentError(NOT_A_CURSOR);
    if (page.after && !inOrder(page.after, order, defaultOrder)) throw new InvalidArgumentError(AFTER_IN_ORDER);
    const answer = await resolve(parent, rest as A, ctx, { pageSize: page.first, pageToken: after ?? undefined, order });
    const base = page.after?.offset ?? 0;
    // The service resumes after the id a token names, so every item's cursor is a valid page token.
    const edges = itemEdges(answer, (i) => encodeCursor({ offset: base + i + 1, id: String(idOf(answer.items[i]!)) }));
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

/** A service's order field and direction (page_order). */
export type ServiceOrder = NonNullable<PageRequest['order']>;

export const AFTER_IN_ORDER = 'after must be a pageInfo.endCursor of this list in the same orderBy.';
export const BEFORE_IN_ORDER = 'before must be a cursor of this list in the same orderBy.';

/** The service order orderBy asks for: the enum value in lower case (ISSUER_IDENTIFIER: issuer_identifier); none without orderBy. */
export function orderOfArgs(orderBy: PageArgs['orderBy']): PageRequest['order'] {
  if (orderBy === undefined || orderBy === null) return undefined;
  return { field: orderBy.field.toLowerCase(), descending: orderBy.direction === 'DESC' };
}

const ASCENDING_ID: ServiceOrder = { field: 'id', descending: false };
const tagOf = (order: ServiceOrder) => `${order.field}:${order.descending ? 'desc' : 'asc'}`;

/** Whether a cursor was given in the order asked for (a cursor without one: the list's default order, ascending id unless said). */
export function inOrder(cursor: Cursor, order: PageRequest['order'], defaultOrder: ServiceOrder = ASCENDING_ID): boolean {
  return (cursor.order ?? tagOf(defaultOrder)) === tagOf(order ?? defaultOrder);
}

/** A page's edges: the service's own token per item where it gives them, else the cursor `cursorAt` makes. */
function itemEdges<T>(answer: ServicePage<T>, cursorAt: (index: number) => string): Edge<T>[] {
  const tokens = answer.itemPageTokens;
  return edgesOf(answer.items, tokens !== undefined && tokens.length === answer.items.length ? (i) => tokens[i]! : cursorAt);
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.offset, cursor.id])).toString('base64url');
}

export function decodeCursor(text: string): Cursor {
  const invalid = () => new InvalidArgumentError(NOT_A_CURSOR);
  if (text.length > 512 || !/^[A-Za-z0-9_-]+$/.test(text)) throw invalid();
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (Array.isArray(value) && (value.length === 2 || value.length === 4) && Number.isInteger(value[0]) && value[0] >= 0 && typeof value[1] === 'string') {
      if (value.length === 2) return { offset: value[0] as number, id: value[1] };
      // An ordered page's cursor: [offset, id, order, order value] (services/shared/src/paging.ts).
      if (typeof value[2] === 'string' && typeof value[3] === 'string') return { offset: value[0] as number, id: value[1], order: value[2] };
    }
  } catch {
    // Falls through to the error below.
  }
  throw invalid();
}

/**
 * The service request of a backward page. Without before (the list's last items) the page ends before a
 * cursor past every id, so the service reads down from the end of the list.
 */
function backwardRequest(page: { last: number; before: Cursor | undefined }, before: string | undefined): PageRequest {
  return { pageSize: page.last, pageToken: undefined, pageBefore: before ?? END_OF_LIST_CURSOR };
}

/** page_before of a backward page without before: past every serial id (SERVICE_ID allows 15 digits), in no order. */
export const END_OF_LIST_CURSOR = encodeCursor({ offset: Number.MAX_SAFE_INTEGER, id: '999999999999999' });

/** The connection of a backward page: Relay's hasNextPage is true when it ended before an item. */
function backwardPage<T>(answer: ServicePage<T>, page: { last: number; before: Cursor | undefined }, idOf: (item: T) => string | number): Connection<T> {
  const items = answer.items;
  // Positions count back from the before cursor's; from the end of the list, back from the count.
  const end = page.before ? page.before.offset - 1 : answer.totalCount;
  const base = Math.max(end - items.length, 0);
  const edges = itemEdges(answer, (i) => encodeCursor({ offset: base + i + 1, id: String(idOf(items[i]!)) }));
  return {
    nodes: items,
    edges,
    totalCount: answer.totalCount,
    pageInfo: {
      hasNextPage: page.before !== undefined,
      hasPreviousPage: answer.hasPreviousPage ?? false,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}

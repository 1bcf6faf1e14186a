import { InvalidArgumentError } from './errors.js';

/**
 * Page tokens of the listings the services page (page_size / page_token in, next_page_token / total_count
 * out). The format is the gateway's connection cursor (gateway/src/graphql/pagination.ts): base64url of
 * JSON [offset, "id"], the position after the page and the id of its last item, so the cursors clients
 * already hold stay valid. Only the id is used by a service (keyset: the page starts after it); the
 * offset is carried along for the gateway.
 */

/** The gateway's largest page (pagination.ts MAX_PAGE). */
export const MAX_PAGE_SIZE = 1_000;

/** The ids of the listings keyed by a bigint serial: positive, at most 15 digits (safe integers). */
export const SERIAL_ID = /^[1-9][0-9]{0,14}$/;

export interface PageToken<Id = number> {
  offset: number;
  id: Id;
  /** An ordered listing's token (orderBy): the order it was given out in (`name:desc`) and its item's value there, as text. */
  order?: string | undefined;
  key?: string | undefined;
}

/** A page request as the stores take it: page_size (required) and page_token (absent: the first page). */
export interface PageRequest {
  size: number;
  token?: string | undefined;
}

export function pageSize(size: number): number {
  if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE_SIZE) {
    throw new InvalidArgumentError(`page_size must be an integer from 1 to ${MAX_PAGE_SIZE}, got ${size}.`);
  }
  return size;
}

function decodeRaw(token: string, idPattern: RegExp): PageToken<string> {
  const invalid = () => new InvalidArgumentError('page_token must be a next_page_token of this listing.');
  if (token.length > 512 || !/^[A-Za-z0-9_-]+$/.test(token)) throw invalid();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(value) || (value.length !== 2 && value.length !== 4)) throw invalid();
  const [offset, id, order, key] = value as unknown[];
  if (!Number.isSafeInteger(offset) || (offset as number) < 0) throw invalid();
  if (typeof id !== 'string' || !idPattern.test(id)) throw invalid();
  if (value.length === 2) return { offset: offset as number, id };
  if (typeof order !== 'string' || typeof key !== 'string') throw invalid();
  return { offset: offset as number, id, order, key };
}

/** A listing keyed by a bigint serial. Absent or empty: the first page; anything but a token of such a listing is INVALID_ARGUMENT. */
export function decodePageToken(token: string | undefined): PageToken | undefined {
  if (token === undefined || token === '') return undefined;
  const raw = decodeRaw(token, SERIAL_ID);
  return { ...raw, id: Number(raw.id) };
}

/** A listing keyed by text ids of the given shape (a GUID, say), compared as the database orders them. */
export function decodeTextPageToken(token: string | undefined, idPattern: RegExp): PageToken<string> | undefined {
  if (token === undefined || token === '') return undefined;
  return decodeRaw(token, idPattern);
}

export function encodePageToken(token: PageToken<number | string>): string {
  const fields = token.order === undefined ? [token.offset, String(token.id)] : [token.offset, String(token.id), token.order, token.key ?? ''];
  return Buffer.from(JSON.stringify(fields)).toString('base64url');
}

/**
 * The answer for a page read as LIMIT size + 1 rows: the page, and the next token when the extra row
 * showed there is more (empty when this page is the last).
 */
export function pageOf<T, Id extends number | string>(
  rows: readonly T[],
  size: number,
  after: PageToken<unknown> | undefined,
  idOf: (row: T) => Id,
  order?: ListingOrder,
): { items: T[]; nextPageToken: string; itemPageTokens: string[] } {
  const items = rows.slice(0, size);
  const base = after?.offset ?? 0;
  const itemPageTokens = items.map((row, i) => tokenAfter(row, base + i + 1, idOf, order));
  const nextPageToken = rows.length > size ? (itemPageTokens.at(-1) ?? '') : '';
  return { items, nextPageToken, itemPageTokens };
}

/** The token that resumes right after a row at a position of its listing, in the listing's order. */
function tokenAfter<T>(row: T, offset: number, idOf: (row: T) => number | string, order: ListingOrder | undefined): string {
  if (order === undefined || order.tag === order.defaultTag) return encodePageToken({ offset, id: idOf(row) });
  return encodePageToken({ offset, id: idOf(row), order: order.tag, key: order.column ? String((row as Record<string, unknown>)[ORDER_KEY]) : String(idOf(row)) });
}

/**
 * Whether a page read as LIMIT size + 1 rows is the whole listing: the first page, and not full. Its rows
 * are then every row that matches, so their number is the listing's count and whatever must hold for the
 * whole listing (a decryption key fitting one of its records) can be judged on them: the count query a
 * later or full page needs can be skipped.
 */
export function isWholeListing(after: PageToken<unknown> | undefined, rows: readonly unknown[], size: number): boolean {
  return after === undefined && rows.length <= size;
}

/** The listing's count: the page's own rows when they are the whole listing, else what `count` reads. */
export async function totalOf(after: PageToken<unknown> | undefined, rows: readonly unknown[], size: number, count: () => Promise<number>): Promise<number> {
  return isWholeListing(after, rows, size) ? rows.length : count();
}

/**
 * An unpaged listing bounded by its cap (MAX_LIST_ITEMS): `rows` were read with LIMIT cap, the caller's
 * own items first. Their total is counted only when the cap was reached; `totalCount` is set only when
 * more items match than the answer holds, which is how the gateway learns the answer was cut.
 */
export async function cappedListing<T>(rows: T[], cap: number, count: () => Promise<number>): Promise<{ items: T[]; totalCount: number | undefined }> {
  if (rows.length < cap) return { items: rows, totalCount: undefined };
  const total = await count();
  return { items: rows, totalCount: total > rows.length ? total : undefined };
}

/**
 * Backward paging (GraphQL last/before): page_before names the item the page ends right before. Refused
 * together with page_token (a page is read one way); decoded as page_token is.
 */
export function decodeBeforeToken(pageToken: string | undefined, pageBefore: string | undefined): PageToken | undefined {
  return oneWay(pageToken, pageBefore) ? decodePageToken(pageBefore) : undefined;
}

/**
 * page_before of a listing keyed by text ids (decodeTextPageToken), or the gateway's end of the list
 * (END_OF_LIST_ID, a serial in no listing of text ids).
 */
export function decodeTextBeforeToken(pageToken: string | undefined, pageBefore: string | undefined, idPattern: RegExp): PageToken<string> | undefined {
  if (!oneWay(pageToken, pageBefore)) return undefined;
  return decodeTextPageToken(pageBefore, new RegExp(`${idPattern.source}|^${END_OF_LIST_ID}$`, idPattern.flags));
}

/** Whether page_before is given, refused with page_token (a page is read one way). */
function oneWay(pageToken: string | undefined, pageBefore: string | undefined): pageBefore is string {
  if (pageBefore === undefined || pageBefore === '') return false;
  if (pageToken !== undefined && pageToken !== '') throw new InvalidArgumentError('page_token and page_before cannot be given together: a page is read forward or backward.');
  return true;
}

/**
 * The answer for a backward page read newest-first as LIMIT size + 1 rows (ORDER BY id DESC below the
 * before id): the page in the listing's order, whether items precede it (the extra row), and the token
 * that resumes after its last item (the before item follows it). Offsets count back from the before
 * token's, floored at the start of the listing.
 */
export function pageBeforeOf<T, Id extends number | string>(
  rowsDescending: readonly T[],
  size: number,
  before: PageToken<unknown>,
  idOf: (row: T) => Id,
  order?: ListingOrder,
  /** The listing's count: positions of a page read from the end count back from it. */
  total?: number,
): { items: T[]; nextPageToken: string; hasPreviousPage: boolean; itemPageTokens: string[] } {
  const items = rowsDescending.slice(0, size).reverse();
  const end = isEndOfList(before) && total !== undefined ? total : before.offset - 1;
  const base = Math.max(end - items.length, 0);
  const itemPageTokens = items.map((row, i) => tokenAfter(row, base + i + 1, idOf, order));
  return { items, nextPageToken: itemPageTokens.at(-1) ?? '', hasPreviousPage: rowsDescending.length > size, itemPageTokens };
}

/**
 * The gateway's "end of the list" for a backward page without before (pagination.ts END_OF_LIST): an id
 * past every serial, in no order.
 */
export const END_OF_LIST_ID = 999_999_999_999_999;

function isEndOfList(token: PageToken<unknown>): boolean {
  return token.order === undefined && Number(token.id) === END_OF_LIST_ID;
}

/** The order a listing is read in when it names none: ascending id (creation). */
const ID_ASCENDING = { field: 'id', descending: false } as const;

const tagOf = (order: { field: string; descending: boolean }) => `${order.field}:${order.descending ? 'desc' : 'asc'}`;

/** The column alias under which an ordered read selects its order value as text (keyset's orderKey). */
export const ORDER_KEY = 'orderKey';

/**
 * One order a listing offers: an SQL expression that is never NULL (COALESCE a nullable column to the end
 * PostgreSQL puts NULLs, e.g. 'infinity'), and the type a token's text value is cast back to.
 */
export interface OrderColumn {
  sql: string;
  type: 'text' | 'float8' | 'numeric' | 'date' | 'timestamptz' | 'bigint' | 'int';
}

/** A listing's orders: its id column (the tie-break and the default order) and its named order columns. */
export interface ListingOrders {
  id: { sql: string; type: 'bigint' | 'text' | 'uuid' };
  columns: Readonly<Record<string, OrderColumn>>;
  /**
   * The order the listing was read in before orderBy, when not ascending id (newest first, say): a page
   * without page_order is read in it, and its tokens stay as they were, carrying neither order nor value.
   */
  default?: { field: string; descending: boolean };
  /**
   * With a default order on a column: the table, under the alias the columns' SQL uses, that a default
   * token's value is read back from by its id (`chain.nfts n`).
   */
  from?: string;
  /**
   * With `from`: the column (under the same alias) that names a row's owner. The value is read back only
   * from the caller's own rows (keysetOf's `owner`), so a token naming another account's item tells nothing
   * about it.
   */
  owner?: string;
}

/** The order a page is read in (`orderOf`): the field's column (none for id), direction and token tag. */
export interface ListingOrder {
  readonly tag: string;
  readonly column: OrderColumn | undefined;
  readonly descending: boolean;
  readonly id: ListingOrders['id'];
  /** The tag of the listing's default order, whose tokens carry no order (a token without one is in it). */
  readonly defaultTag: string;
  readonly from: string | undefined;
  readonly owner: string | undefined;
}

/**
 * The order a request asks for (page_order; absent: the listing's default, ascending id unless it names
 * another). A field the listing does not offer is INVALID_ARGUMENT naming the ones it does.
 */
export function orderOf(orders: ListingOrders, requested: { field: string; descending: boolean } | undefined): ListingOrder {
  const fallback = orders.default ?? ID_ASCENDING;
  const asked = requested === undefined || requested.field === '' ? fallback : requested;
  const field = asked.field;
  if (field !== 'id' && !Object.hasOwn(orders.columns, field)) {
    const names = ['id', ...Object.keys(orders.columns)].join(', ');
    throw new InvalidArgumentError(`page_order.field must be one of ${names}, got ${JSON.stringify(field)}.`, { field: 'page_order.field' });
  }
  return {
    tag: tagOf(asked),
    column: field === 'id' ? undefined : orders.columns[field],
    descending: asked.descending,
    id: orders.id,
    defaultTag: tagOf(fallback),
    from: orders.from,
    owner: orders.owner,
  };
}

/**
 * The keyset of one page in an order: the SQL to append to a WHERE (empty on a first page or a page from
 * the end), the ORDER BY, the select item that names the order value (`orderKey`, as text, for the
 * tokens) and the parameters, numbered from firstParam. A backward page (page_before) is read against
 * the order and turned around by pageBeforeOf. A token given out in another order is refused, as any
 * token not of this listing is. `owner`: the caller, where the listing names its rows' owner
 * (ListingOrders.owner): a default token's value is read back from the caller's rows only.
 */
export function keysetOf(
  order: ListingOrder,
  token: PageToken<unknown> | undefined,
  firstParam: number,
  backward = false,
  owner?: string,
): { where: string; orderBy: string; select: string; params: unknown[] } {
  const down = order.descending !== backward;
  const dir = down ? 'DESC' : 'ASC';
  const column = order.column;
  const orderBy = column ? `${column.sql} ${dir}, ${order.id.sql} ${dir}` : `${order.id.sql} ${dir}`;
  const select = column ? `, (${column.sql})::text AS "${ORDER_KEY}"` : '';
  if (token === undefined || (backward && isEndOfList(token))) return { where: '', orderBy, select, params: [] };
  if ((token.order ?? order.defaultTag) !== order.tag) {
    throw new InvalidArgumentError(`${backward ? 'page_before' : 'page_token'} must be a next_page_token of this listing in the same order.`);
  }
  const cmp = down ? '<' : '>';
  if (column && token.key === undefined) {
    // A default-order token (as given out before orderBy) names only its item: its value is read back.
    if (order.from === undefined) throw new Error(`The listing's default order ${order.tag} needs ListingOrders.from.`);
    const id = `$${firstParam}::${order.id.type}`;
    if (order.owner !== undefined && owner === undefined) throw new Error(`The listing's tokens are read back per owner (${order.owner}): keysetOf needs the caller.`);
    const scoped = order.owner === undefined ? '' : ` AND ${order.owner} = $${firstParam + 1}`;
    const value = `(SELECT ${column.sql} FROM ${order.from} WHERE ${order.id.sql} = ${id}${scoped})`;
    const params = order.owner === undefined ? [String(token.id)] : [String(token.id), owner];
    return { where: ` AND (${column.sql}, ${order.id.sql}) ${cmp} (${value}, ${id})`, orderBy, select, params };
  }
  const id = `$${firstParam + (column ? 1 : 0)}::${order.id.type}`;
  if (!column) return { where: ` AND ${order.id.sql} ${cmp} ${id}`, orderBy, select, params: [String(token.id)] };
  return {
    where: ` AND (${column.sql}, ${order.id.sql}) ${cmp} ($${firstParam}::${column.type}, ${id})`,
    orderBy,
    select,
    params: [token.key, String(token.id)],
  };
}

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
  if (!Array.isArray(value) || value.length !== 2) throw invalid();
  const [offset, id] = value as unknown[];
  if (!Number.isSafeInteger(offset) || (offset as number) < 0) throw invalid();
  if (typeof id !== 'string' || !idPattern.test(id)) throw invalid();
  return { offset: offset as number, id };
}

/** A listing keyed by a bigint serial. Absent or empty: the first page; anything but a token of such a listing is INVALID_ARGUMENT. */
export function decodePageToken(token: string | undefined): PageToken | undefined {
  if (token === undefined || token === '') return undefined;
  const raw = decodeRaw(token, SERIAL_ID);
  return { offset: raw.offset, id: Number(raw.id) };
}

/** A listing keyed by text ids of the given shape (a GUID, say), compared as the database orders them. */
export function decodeTextPageToken(token: string | undefined, idPattern: RegExp): PageToken<string> | undefined {
  if (token === undefined || token === '') return undefined;
  return decodeRaw(token, idPattern);
}

export function encodePageToken(token: PageToken<number | string>): string {
  return Buffer.from(JSON.stringify([token.offset, String(token.id)])).toString('base64url');
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
): { items: T[]; nextPageToken: string } {
  const items = rows.slice(0, size);
  const last = items.at(-1);
  const nextPageToken = rows.length > size && last !== undefined ? encodePageToken({ offset: (after?.offset ?? 0) + items.length, id: idOf(last) }) : '';
  return { items, nextPageToken };
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
  if (pageBefore === undefined || pageBefore === '') return undefined;
  if (pageToken !== undefined && pageToken !== '') throw new InvalidArgumentError('page_token and page_before cannot be given together: a page is read forward or backward.');
  return decodePageToken(pageBefore);
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
): { items: T[]; nextPageToken: string; hasPreviousPage: boolean } {
  const items = rowsDescending.slice(0, size).reverse();
  const last = items.at(-1);
  const base = Math.max(before.offset - 1 - items.length, 0);
  const nextPageToken = last === undefined ? '' : encodePageToken({ offset: base + items.length, id: idOf(last) });
  return { items, nextPageToken, hasPreviousPage: rowsDescending.length > size };
}

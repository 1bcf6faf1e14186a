import { InvalidArgumentError } from '@green-impact/shared/errors';

/**
 * Page tokens of the paged listings (positions, investors). The format is the gateway's connection cursor (pagination.ts):
 * base64url of JSON [offset, "id"], the position after the page and the id of its last item, so the
 * cursors clients already hold stay valid. Only the id is used here (keyset: the page starts after it);
 * the offset is carried along for the gateway.
 */

/** The gateway's largest page (pagination.ts MAX_PAGE). */
export const MAX_PAGE_SIZE = 1_000;

export interface PageToken {
  offset: number;
  id: number;
}

export function pageSize(size: number): number {
  if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE_SIZE) {
    throw new InvalidArgumentError(`page_size must be an integer from 1 to ${MAX_PAGE_SIZE}, got ${size}.`);
  }
  return size;
}

/** Absent or empty: the first page. Anything but a token of this listing is INVALID_ARGUMENT. */
export function decodePageToken(token: string | undefined): PageToken | undefined {
  if (token === undefined || token === '') return undefined;
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
  if (typeof id !== 'string' || !/^[1-9][0-9]{0,14}$/.test(id)) throw invalid();
  return { offset: offset as number, id: Number(id) };
}

export function encodePageToken(token: PageToken): string {
  return Buffer.from(JSON.stringify([token.offset, String(token.id)])).toString('base64url');
}

import { decodePageToken, pageOf, pageSize } from '@green-impact/shared/paging';

/**
 * A page of a fake's listing as the services page theirs (services/shared/src/paging.ts): items in id
 * order after the page_token's id, page_size 1..1000, next_page_token empty on the last page, and the
 * count of the whole listing. Malformed tokens and sizes are INVALID_ARGUMENT with the services' texts.
 */
export function fakeServicePage<T extends { id: number }>(
  list: readonly T[],
  req: { pageSize?: number | undefined; pageToken?: string | undefined },
): { items: T[]; nextPageToken: string; totalCount: number } {
  const size = pageSize(req.pageSize ?? 0);
  const after = decodePageToken(req.pageToken);
  const rest = [...list].sort((a, b) => a.id - b.id).filter((x) => after === undefined || x.id > after.id);
  const { items, nextPageToken } = pageOf(rest.slice(0, size + 1), size, after, (x) => x.id);
  return { items, nextPageToken, totalCount: list.length };
}

/**
 * Lists on /v1/call answer the spec's bare arrays, which have no room for "there is more". A listing the
 * service cut at its cap (MAX_LIST_ITEMS) says so in headers instead: `X-Result-Truncated: true` and
 * `X-Total-Count` (how many items matched), so the body keeps the spec's shape (docs/api-operations.md).
 */
export const RESULT_TRUNCATED_HEADER = 'X-Result-Truncated';
export const TOTAL_COUNT_HEADER = 'X-Total-Count';

/** What a handler may add to its 200 answer besides the body. */
export interface AnswerHeaders {
  /** The answer holds fewer items than the `total` that matched. */
  truncated(total: number): void;
}

/**
 * The items of an unpaged listing, marking the answer truncated when the service set `totalCount` (it
 * does so only when it cut the list) above the number of items it sent.
 */
export function listed<T>(ctx: { answer?: AnswerHeaders | undefined }, response: { totalCount?: number | undefined }, items: T[]): T[] {
  if (response.totalCount !== undefined && response.totalCount > items.length) ctx.answer?.truncated(response.totalCount);
  return items;
}

/** AnswerHeaders writing to an express response. */
export function answerHeaders(res: { setHeader(name: string, value: string): unknown }): AnswerHeaders {
  return {
    truncated(total) {
      res.setHeader(RESULT_TRUNCATED_HEADER, 'true');
      res.setHeader(TOTAL_COUNT_HEADER, String(total));
    },
  };
}

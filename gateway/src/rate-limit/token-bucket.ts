import type { BucketRule } from '@green-impact/shared/token-bucket';

/**
 * Token buckets: a bucket holds at most `burst` tokens, gains `perSecond` a second, and a request takes
 * one. A bucket nobody has touched is full, so a bucket that has filled up again can be forgotten. The
 * arithmetic is services/shared/src/token-bucket.ts; redis-buckets.ts does the same in Lua.
 */

/** One bucket of a check: take `cost` tokens from it, or with cost 0 only require one to be there. */
export interface BucketTake {
  key: string;
  rule: BucketRule;
  cost: 0 | 1;
}

/** Allowed, or the index of the first bucket that refused and the milliseconds until it would not. */
export type Verdict = { allowed: true } | { allowed: false; refused: number; retryAfterMs: number };

/** Where buckets live: this process's memory or Redis. */
export interface BucketStore {
  /** Checks every bucket and only if all allow takes from each: all or nothing, atomically. */
  take(takes: readonly BucketTake[]): Promise<Verdict>;
  close(): Promise<void>;
}

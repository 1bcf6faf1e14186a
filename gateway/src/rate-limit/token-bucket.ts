import type { BucketRule } from '../config.js';

/**
 * Token buckets: a bucket holds at most `burst` tokens, gains `perSecond` a second, and a request takes
 * one. A bucket nobody has touched is full, so a bucket that has filled up again can be forgotten. The
 * arithmetic is here once; redis-buckets.ts does the same in Lua.
 */

/** A bucket's saved state: `tokens` held at `at` (epoch milliseconds). */
export interface BucketState {
  tokens: number;
  at: number;
}

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

/** Tokens in a bucket at `now`: what it held plus what flowed in since, at most a burst. */
export function tokensAt(state: BucketState | undefined, rule: BucketRule, now: number): number {
  if (!state) return rule.burst;
  return Math.min(rule.burst, state.tokens + (Math.max(0, now - state.at) * rule.perSecond) / 1000);
}

/** Milliseconds until a bucket holding `tokens` holds `need`. */
export function msUntil(tokens: number, need: number, rule: BucketRule): number {
  return Math.max(0, Math.ceil(((need - tokens) * 1000) / rule.perSecond));
}

/**
 * Token-bucket arithmetic: a bucket holds at most `burst` tokens, gains `perSecond` a second, and a request
 * takes one. A bucket nobody has touched is full. The one place this is computed in TypeScript: the
 * gateway's rate limits (gateway/src/rate-limit, whose Redis store does the same in Lua) and the chain
 * relay's quota (services/chain/src/networks/relay-quota.ts).
 */

/** A bucket's rule: `perSecond` tokens added each second, at most `burst` held. */
export interface BucketRule {
  perSecond: number;
  burst: number;
}

/** A bucket's saved state: `tokens` held at `at` (milliseconds, on the caller's clock). */
export interface BucketState {
  tokens: number;
  at: number;
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

import { Counter } from 'prom-client';
import { metricsRegistry } from '@green-impact/shared/metrics';
import { msUntil, tokensAt, type BucketState } from '@green-impact/shared/token-bucket';
import type { RpcCall } from './json-rpc-relay.js';

/** One budget of the relay on a network's node. */
export interface RelayBucket {
  /** Calls a second the relay may send to the node (a batch counts each call); 0 turns the quota off. */
  perSecond: number;
  /** Calls it may send at once after a quiet spell. */
  burst: number;
  /** Calls it may have waiting on the node at the same time. */
  maxConcurrent: number;
}

/**
 * The public relay's own share of a network's node (CHAIN_RELAY_*); the workers' provider is not counted in
 * it. Anonymous /rpc calls draw from this budget, the gateway's pages from `pages` (CHAIN_RELAY_PAGES_*);
 * eth_call and eth_estimateGas are bounded in gas and time (relay-bounds.ts).
 */
export interface RelayQuotaSettings extends RelayBucket {
  /** The pages' budget; the same numbers as the public one when not given. */
  pages?: RelayBucket | undefined;
  /** Largest gas an eth_call or eth_estimateGas may ask for (CHAIN_RELAY_MAX_GAS); a call without gas gets this. */
  maxGas?: number | undefined;
  /** Longest the relay waits for an eth_call or eth_estimateGas (CHAIN_RELAY_CALL_TIMEOUT_MS). */
  callTimeoutMs?: number | undefined;
}

export const DEFAULT_RELAY_QUOTA: RelayQuotaSettings = { perSecond: 10, burst: 50, maxConcurrent: 4 };

/** EIP-1474's "limit exceeded", as hosted nodes answer when a quota is spent. */
export const LIMIT_EXCEEDED = -32005;

const refused = new Counter({
  name: 'chain_relay_refused_calls_total',
  help: 'JSON-RPC calls of the public relay refused by its bounds (CHAIN_RELAY_*), by network, quota (public /rpc or pages) and reason (rate, concurrency, gas, time).',
  labelNames: ['network', 'quota', 'reason'] as const,
  registers: [metricsRegistry],
});

/** Which budget a relayed call draws from: anonymous /rpc, or the gateway's pages. */
export type RelaySource = 'public' | 'pages';

export function countRelayRefusal(network: string, quota: RelaySource, reason: 'rate' | 'concurrency' | 'gas' | 'time'): void {
  refused.inc({ network, quota, reason });
}

/**
 * The relay's budget on one network: a token bucket (perSecond, burst) and a cap on calls in flight.
 * The relay is public, and the node's quota at a hosted provider is shared with the workers that send
 * and track every job: without a budget of its own, a flood through /rpc/<network> (or the pages that
 * read through it) would stall every tenant's jobs. Beyond the budget a call is answered at once with a
 * JSON-RPC error, never queued, so a flood holds neither memory nor the node.
 */
export class RelayQuota {
  /** The bucket's state; undefined while it has never been drawn from (full). */
  private bucket: BucketState | undefined;
  private inFlight = 0;

  constructor(
    private readonly network: string,
    private readonly settings: RelayBucket,
    private readonly now: () => number = () => performance.now(),
    private readonly source: RelaySource = 'public',
  ) {}

  /** `call` with the budget in front of it. */
  guard(call: RpcCall): RpcCall {
    if (this.settings.perSecond <= 0) return call;
    return async (method, params) => {
      if (this.inFlight >= this.settings.maxConcurrent) return this.refuse('concurrency', 1);
      const now = this.now();
      const tokens = tokensAt(this.bucket, this.settings, now);
      if (tokens < 1) return this.refuse('rate', Math.ceil(msUntil(tokens, 1, this.settings) / 1000));
      this.bucket = { tokens: tokens - 1, at: now };
      this.inFlight++;
      try {
        return await call(method, params);
      } finally {
        this.inFlight--;
      }
    };
  }

  private refuse(reason: 'rate' | 'concurrency', seconds: number) {
    countRelayRefusal(this.network, this.source, reason);
    return { error: { code: LIMIT_EXCEEDED, message: `The relay's share of network ${this.network} is spent; retry in ${Math.max(1, seconds)} s` } };
  }
}

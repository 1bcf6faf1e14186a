import { msUntil, tokensAt, type BucketState } from '@green-impact/shared/token-bucket';
import type { BucketStore, BucketTake, Verdict } from './token-bucket.js';

interface Held extends BucketState {
  /** When the bucket is full again: from then on it is the same as no bucket. */
  fullAt: number;
}

/**
 * Buckets in this process's memory, for a single gateway (and while Redis is unreachable). Memory is
 * bounded twice: buckets that have filled up again are swept away, and past `maxBuckets` the bucket
 * written least recently is dropped (it starts full again: a flood of distinct keys or addresses
 * loosens the limit for the oldest of them rather than growing the process).
 */
export class MemoryBuckets implements BucketStore {
  private readonly buckets = new Map<string, Held>();
  private readonly sweeper: NodeJS.Timeout;
  private readonly maxBuckets: number;
  private readonly now: () => number;

  /** `now`: the clock in ms (tests move one by hand, as AuthCache's). */
  constructor(options: { maxBuckets?: number; sweepEveryMs?: number; now?: () => number } = {}) {
    this.maxBuckets = options.maxBuckets ?? 100_000;
    this.now = options.now ?? Date.now;
    this.sweeper = setInterval(() => this.sweep(this.now()), options.sweepEveryMs ?? 10_000).unref();
  }

  async take(takes: readonly BucketTake[]): Promise<Verdict> {
    const now = this.now();
    const tokens = takes.map((t) => tokensAt(this.buckets.get(t.key), t.rule, now));
    for (const [i, t] of takes.entries()) {
      const need = Math.max(t.cost, 1);
      if (tokens[i]! < need) return { allowed: false, refused: i, retryAfterMs: msUntil(tokens[i]!, need, t.rule) };
    }
    for (const [i, t] of takes.entries()) {
      if (t.cost === 0) continue;
      const left = tokens[i]! - t.cost;
      // Deleted first so the Map's order stays least recently written first.
      this.buckets.delete(t.key);
      this.buckets.set(t.key, { tokens: left, at: now, fullAt: now + msUntil(left, t.rule.burst, t.rule) });
    }
    while (this.buckets.size > this.maxBuckets) this.buckets.delete(this.buckets.keys().next().value!);
    return { allowed: true };
  }

  /** Forgets the buckets that are full again at `now`. */
  sweep(now: number): void {
    for (const [key, held] of this.buckets) if (held.fullAt <= now) this.buckets.delete(key);
  }

  get size(): number {
    return this.buckets.size;
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.buckets.clear();
  }
}

import { Counter, Gauge } from 'prom-client';
import { metricsRegistry } from '@green-impact/shared/metrics';

export interface NodeReadSettings {
  /** How long an answer that can change is served (an owner, a receipt not there yet); 0: not kept. */
  ttlMs: number;
  /** How long a mined transaction's receipt is served: it no longer changes (short of a deep reorg). */
  minedTtlMs: number;
  /** Answers kept at most; the least recently used goes first. */
  maxEntries: number;
}

/** NODE_READ_CACHE_*'s defaults: 10 s for what can change, an hour for a mined receipt, 10,000 answers. */
export const DEFAULT_NODE_READS: NodeReadSettings = { ttlMs: 10_000, minedTtlMs: 3_600_000, maxEntries: 10_000 };

const reads = new Counter({
  name: 'chain_page_node_reads_total',
  help: 'Chain reads the public pages need (explorer, certificate), by outcome: hit (cached), joined (an identical read in flight), relayed (sent to the node on the pages\' relay quota).',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});
const size = new Gauge({ name: 'chain_page_node_reads_cached', help: 'Chain reads of the public pages held in the cache (NODE_READ_CACHE_MAX_ENTRIES at most).', registers: [metricsRegistry] });

/**
 * The answers of the chain reads the anonymous pages make (/explorer/…/tx/…, /certificates/<guid>), so
 * a page opened a thousand times asks the node once: the relay's pages quota is shared by everyone, and a
 * page anybody may open must not spend it per view. Bounded (least recently used first) and expiring by
 * what was read; identical reads in flight at once are joined into one. Failures are never kept.
 */
export class NodeReadCache {
  private readonly entries = new Map<string, { value: unknown; expiresAt: number }>();
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(
    private readonly settings: NodeReadSettings,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The answer of `method(params)` on `network`, from the cache, a read in flight, or `relay`. */
  read(network: string, method: string, params: unknown[], relay: () => Promise<unknown>): Promise<unknown> {
    const key = `${network}\0${method}\0${JSON.stringify(params)}`;
    const cached = this.entries.get(key);
    if (cached && cached.expiresAt > this.now()) {
      // Map keeps insertion order: re-inserting makes this the most recently used.
      this.entries.delete(key);
      this.entries.set(key, cached);
      reads.inc({ outcome: 'hit' });
      return Promise.resolve(cached.value);
    }
    if (cached) this.entries.delete(key);
    const pending = this.inFlight.get(key);
    if (pending) {
      reads.inc({ outcome: 'joined' });
      return pending;
    }
    reads.inc({ outcome: 'relayed' });
    const read = relay()
      .then((value) => {
        this.store(key, value, this.ttlOf(method, value));
        return value;
      })
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, read);
    return read;
  }

  get size(): number {
    return this.entries.size;
  }

  private store(key: string, value: unknown, ttlMs: number): void {
    if (ttlMs <= 0 || this.settings.maxEntries <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });
    while (this.entries.size > this.settings.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    size.set(this.entries.size);
  }

  private ttlOf(method: string, value: unknown): number {
    const mined = method === 'eth_getTransactionReceipt' && typeof value === 'object' && value !== null && 'blockHash' in value;
    return mined ? this.settings.minedTtlMs : this.settings.ttlMs;
  }
}

import { Counter } from 'prom-client';
import { metricsRegistry } from '@green-impact/shared/metrics';
import { EpochLruCache } from '../lru-cache.js';

export interface NodeReadSettings {
  /** How long an answer that can change is served (an owner, a receipt not there yet); 0: not kept. */
  ttlMs: number;
  /** How long a mined transaction's receipt is served: it no longer changes (short of a deep reorg). */
  minedTtlMs: number;
  /** Answers kept at most; the least recently used goes first. */
  maxEntries: number;
}

const reads = new Counter({
  name: 'gateway_node_reads_total',
  help: 'Chain reads the public pages need, by outcome: hit (cached), joined (an identical read in flight), relayed (sent to the node).',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

/**
 * The answers of the chain reads the anonymous pages make (/explorer/…/tx/…, /certificates/<guid>), so
 * a page opened a thousand times asks the node once: the relay's quota is shared by everyone, and a page
 * anybody may open must not spend it per view. Bounded and expiring by what was read (the gateway's LRU,
 * lru-cache.ts); identical reads in flight at once are joined into one. Failures are never kept. Chain
 * reads have no change events, so the cache's epoch never moves.
 */
export class NodeReadCache {
  private readonly entries: EpochLruCache<unknown>;
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(
    private readonly settings: NodeReadSettings,
    now?: () => number,
  ) {
    // The longest any answer is kept; each answer is stored with its own (ttlOf).
    this.entries = new EpochLruCache('node_reads', { ttlMs: Math.max(settings.ttlMs, settings.minedTtlMs), maxEntries: settings.maxEntries }, now);
  }

  /** The answer of `method(params)` on `network`, from the cache, a read in flight, or `relay`. */
  read(network: string, method: string, params: unknown[], relay: () => Promise<unknown>): Promise<unknown> {
    const key = `${network}\0${method}\0${JSON.stringify(params)}`;
    const cached = this.entries.lookup(key);
    if (cached !== undefined) {
      reads.inc({ outcome: 'hit' });
      return Promise.resolve(cached);
    }
    const pending = this.inFlight.get(key);
    if (pending) {
      reads.inc({ outcome: 'joined' });
      return pending;
    }
    reads.inc({ outcome: 'relayed' });
    const read = relay()
      .then((value) => {
        this.entries.store(key, value, this.entries.epoch, this.ttlOf(method, value));
        return value;
      })
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, read);
    return read;
  }

  get size(): number {
    return this.entries.entryCount;
  }

  private ttlOf(method: string, value: unknown): number {
    const mined = method === 'eth_getTransactionReceipt' && typeof value === 'object' && value !== null && 'blockHash' in value;
    return mined ? this.settings.minedTtlMs : this.settings.ttlMs;
  }
}

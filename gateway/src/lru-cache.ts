import { Counter, Gauge } from 'prom-client';
import { metricsRegistry } from '@green-impact/shared/metrics';

export interface CacheSettings {
  /** How long an entry is served; 0 turns the cache off. */
  ttlMs: number;
  /** Entries kept at most; the least recently used goes first. */
  maxEntries: number;
}

const lookups = new Counter({
  name: 'gateway_cache_lookups_total',
  help: 'Lookups in the gateway caches (auth: API keys, reference: shared taxonomy data, known_keys: keys identity accepted, graphql_documents: parsed and validated GraphQL documents) by outcome (hit, miss).',
  labelNames: ['cache', 'outcome'] as const,
  registers: [metricsRegistry],
});
const invalidations = new Counter({
  name: 'gateway_cache_invalidations_total',
  help: 'Entries dropped from the gateway caches because a change was announced or made through this gateway.',
  labelNames: ['cache'] as const,
  registers: [metricsRegistry],
});
const sizes = new Gauge({ name: 'gateway_cache_entries', help: 'Entries held in each gateway cache.', labelNames: ['cache'] as const, registers: [metricsRegistry] });

interface Entry<V> {
  value: V;
  expiresAt: number;
}

/**
 * A bounded LRU map whose entries expire, for caches that change events invalidate. Every invalidation
 * moves `epoch`; `store` refuses a value fetched under an older epoch, so an answer read before a change
 * but arriving after its announcement is never kept.
 */
export class EpochLruCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private epochValue = 0;

  constructor(
    private readonly name: string,
    private readonly settings: CacheSettings,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get enabled(): boolean {
    return this.settings.ttlMs > 0 && this.settings.maxEntries > 0;
  }

  get epoch(): number {
    return this.epochValue;
  }

  get entryCount(): number {
    return this.entries.size;
  }

  lookup(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.expiresAt <= this.now()) {
      if (entry) this.entries.delete(key);
      lookups.inc({ cache: this.name, outcome: 'miss' });
      return undefined;
    }
    // Map keeps insertion order: re-inserting makes this the most recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    lookups.inc({ cache: this.name, outcome: 'hit' });
    return entry.value;
  }

  /**
   * Keeps `value` unless something was invalidated since `epoch` was read (the value may predate it), for
   * `ttlMs` (the settings' TTL unless the value says how long it stays true; 0: not kept).
   */
  store(key: string, value: V, epoch: number, ttlMs = this.settings.ttlMs): void {
    if (!this.enabled || ttlMs <= 0 || epoch !== this.epochValue) return;
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });
    while (this.entries.size > this.settings.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    sizes.set({ cache: this.name }, this.entries.size);
  }

  forgetWhere(match: (value: V, key: string) => boolean): void {
    this.epochValue++;
    for (const [k, e] of this.entries) {
      if (match(e.value, k)) {
        this.entries.delete(k);
        invalidations.inc({ cache: this.name });
      }
    }
    sizes.set({ cache: this.name }, this.entries.size);
  }

  clear(): void {
    this.epochValue++;
    invalidations.inc({ cache: this.name }, this.entries.size);
    this.entries.clear();
    sizes.set({ cache: this.name }, 0);
  }
}

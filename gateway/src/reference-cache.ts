import { changeScopeOf } from '@green-impact/shared/bus/taxonomy-events';
import type { TaxonomyClient } from './clients.js';
import { EpochLruCache, type CacheSettings } from './lru-cache.js';

export type ReferenceCacheSettings = CacheSettings;

/**
 * Taxonomy reads whose answer is the same for every caller (shared reference data: taxonomy items and
 * their translations per year and language, SDGs, EU objectives, languages, currencies, FX rates and
 * conversions). Frameworks and projects are not here: what they show depends on the caller's account.
 * The caller is still authenticated before any of these is read; the cache only replaces the round trip
 * to the taxonomy service.
 */
const SHARED_READS = [
  'getSdgs', 'getEuObjectives', 'getCategories', 'getSubCategories', 'getSuperIndicators', 'getIndicators', 'getUnits',
  'getTaxonomy', 'getLanguages', 'getCurrencies', 'getFxRates', 'getFxRate', 'convertAmounts',
] as const satisfies readonly (keyof TaxonomyClient)[];

type Unary = (request: unknown, options?: unknown) => Promise<unknown>;

/** Cached answers of the shared reference reads, dropped on every announced or local reference write. */
export class ReferenceCache extends EpochLruCache<unknown> {
  constructor(settings: ReferenceCacheSettings, now?: () => number) {
    super('reference', settings, now);
  }
}

/**
 * The taxonomy client with shared reads served from `cache` and reference writes made through this
 * gateway dropping the cache before they are answered (so the writer's next read is fresh here; other
 * replicas drop theirs on the taxonomy.changes event). Every answer is a copy: a caller that shapes its answer in place cannot change the cached one.
 */
export function cachingSharedReads(taxonomy: TaxonomyClient, cache: ReferenceCache): TaxonomyClient {
  if (!cache.enabled) return taxonomy;
  const client = taxonomy as unknown as Record<string, Unary>;
  const wrapped: Record<string, unknown> = { ...taxonomy };
  for (const method of SHARED_READS) {
    const read = client[method]!;
    wrapped[method] = async (request: unknown, options?: unknown) => {
      const key = `${method} ${JSON.stringify(request)}`;
      const hit = cache.lookup(key);
      if (hit !== undefined) return structuredClone(hit);
      const epoch = cache.epoch;
      // Each miss makes its own call (with its caller, deadline and cancellation), not one shared call.
      const value = await read(request, options);
      cache.store(key, structuredClone(value), epoch);
      return value;
    };
  }
  for (const method of Object.keys(taxonomy)) {
    if (changeScopeOf(method) !== 'reference') continue;
    const write = client[method]!;
    wrapped[method] = async (request: unknown, options?: unknown) => {
      try {
        return await write(request, options);
      } finally {
        // Also after a failure: the write may have committed before the answer was lost.
        cache.clear();
      }
    };
  }
  return wrapped as unknown as TaxonomyClient;
}

import type { DocumentNode } from 'graphql';
import { EpochLruCache } from '../lru-cache.js';

/** Distinct documents kept (the least recently used goes first). */
export const DOCUMENT_CACHE_ENTRIES = 500;
/** Documents longer than this (characters of source) are parsed and validated on every request instead of kept. */
export const DOCUMENT_CACHE_MAX_SOURCE = 8 * 1024;

/**
 * Apollo's documentStore: the parsed and validated document of each distinct query text, keyed by the
 * text's SHA-256 (Apollo's queryHash, after a prefix naming the schema), so a repeated document skips parse
 * and validation. Apollo stores a document only after every validation rule (the query limits of limits.ts
 * among them) passed, so a refused document is never kept and is validated again each time it is sent;
 * the limit rules look at the document alone (a variable counts as its largest value), never at the
 * variables, so a kept document stays within them whatever variables come with it.
 *
 * Bounded by entries and by each document's source length, rather than by Apollo's default (an LRU of
 * about 30 MB that sizes each entry by serialising it to JSON, a cost on every miss). Hits and misses are
 * counted in gateway_cache_lookups_total{cache="graphql_documents"}.
 */
export class DocumentCache {
  private readonly cache: EpochLruCache<DocumentNode>;

  constructor(
    maxEntries = DOCUMENT_CACHE_ENTRIES,
    private readonly maxSourceChars = DOCUMENT_CACHE_MAX_SOURCE,
  ) {
    this.cache = new EpochLruCache('graphql_documents', { ttlMs: Number.POSITIVE_INFINITY, maxEntries });
  }

  get size(): number {
    return this.cache.entryCount;
  }

  async get(key: string): Promise<DocumentNode | undefined> {
    return this.cache.lookup(key);
  }

  async set(key: string, document: DocumentNode): Promise<void> {
    // Apollo parses with locations, so loc.end is the source's length; a document without it is not kept.
    if ((document.loc?.end ?? Number.POSITIVE_INFINITY) > this.maxSourceChars) return;
    this.cache.store(key, document, this.cache.epoch);
  }

  async delete(key: string): Promise<boolean> {
    let found = false;
    this.cache.forgetWhere((_, k) => (k === key ? (found = true) : false));
    return found;
  }
}

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { TaxonomyClient } from './clients.js';
import { cachingSharedReads, ReferenceCache } from './reference-cache.js';

/** A stand-in for the generated client: counts calls, answers fresh objects like a gRPC client does. */
function countingClient() {
  const calls: string[] = [];
  let rate = 11;
  const client = {
    getFxRates: async (req: { reportingYear: number }) => (calls.push('getFxRates'), { fxRates: [{ reportingYear: req.reportingYear, fxRate: rate }] }),
    addFxRate: async () => {
      calls.push('addFxRate');
      rate++;
      return { message: 'ok' };
    },
    removeCurrency: async () => {
      calls.push('removeCurrency');
      throw new Error('answer lost');
    },
    getFrameworks: async () => (calls.push('getFrameworks'), { frameworks: [] }),
  };
  return { calls, client: client as unknown as TaxonomyClient };
}

describe('cachingSharedReads', () => {
  const settings = { ttlMs: 60_000, maxEntries: 100 };

  it('answers a repeated shared read from the cache, per request', async () => {
    const { calls, client } = countingClient();
    const cached = cachingSharedReads(client, new ReferenceCache(settings));
    await cached.getFxRates({ reportingYear: 2024 });
    await cached.getFxRates({ reportingYear: 2024 });
    await cached.getFxRates({ reportingYear: 2025 });
    assert.deepEqual(calls, ['getFxRates', 'getFxRates']);
  });

  it('never caches reads that depend on the caller (frameworks)', async () => {
    const { calls, client } = countingClient();
    const cached = cachingSharedReads(client, new ReferenceCache(settings));
    await cached.getFrameworks({ reportingYear: 2024, languageCode: '' } as never);
    await cached.getFrameworks({ reportingYear: 2024, languageCode: '' } as never);
    assert.deepEqual(calls, ['getFrameworks', 'getFrameworks']);
  });

  it('a reference write through it empties the cache before it answers, even when its answer is lost', async () => {
    const { calls, client } = countingClient();
    const cached = cachingSharedReads(client, new ReferenceCache(settings));
    assert.equal((await cached.getFxRates({ reportingYear: 2024 })).fxRates[0]!.fxRate, 11);
    await cached.addFxRate({} as never);
    assert.equal((await cached.getFxRates({ reportingYear: 2024 })).fxRates[0]!.fxRate, 12);
    await assert.rejects(cached.removeCurrency({} as never));
    await cached.getFxRates({ reportingYear: 2024 });
    assert.deepEqual(calls, ['getFxRates', 'addFxRate', 'getFxRates', 'removeCurrency', 'getFxRates']);
  });

  it('hands out copies: a caller changing its answer cannot change the cached one', async () => {
    const { client } = countingClient();
    const cached = cachingSharedReads(client, new ReferenceCache(settings));
    const first = await cached.getFxRates({ reportingYear: 2024 });
    first.fxRates[0]!.fxRate = 999;
    const second = await cached.getFxRates({ reportingYear: 2024 });
    second.fxRates.pop();
    assert.equal((await cached.getFxRates({ reportingYear: 2024 })).fxRates[0]!.fxRate, 11);
  });

  it('passes everything through when the cache is off', async () => {
    const { calls, client } = countingClient();
    const cached = cachingSharedReads(client, new ReferenceCache({ ttlMs: 0, maxEntries: 100 }));
    await cached.getFxRates({ reportingYear: 2024 });
    await cached.getFxRates({ reportingYear: 2024 });
    assert.equal(calls.length, 2);
  });
});

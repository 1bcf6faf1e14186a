import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'graphql';
import { metricsRegistry } from '@green-impact/shared/metrics';
import { startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { DocumentCache } from './document-cache.js';

/**
 * The GraphQL document cache (document-cache.ts) in a real gateway over HTTP: a repeated document is served
 * from the cache (a hit, no second parse and validation), and a document the query limits refuse is never
 * kept, so it is refused every time it is sent, also after a document that passed was kept.
 */

interface Body {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

/** gateway_cache_lookups_total{cache="graphql_documents"} by outcome (the registry is per process). */
async function lookups(): Promise<{ hit: number; miss: number }> {
  const metric = metricsRegistry.getSingleMetric('gateway_cache_lookups_total');
  assert.ok(metric, 'gateway_cache_lookups_total is not registered');
  const { values } = await metric.get();
  const of = (outcome: string) => values.find((v) => v.labels['cache'] === 'graphql_documents' && v.labels['outcome'] === outcome)?.value ?? 0;
  return { hit: of('hit'), miss: of('miss') };
}

let t: TestGateway;
before(async () => {
  t = await startTestGateway({ GRAPHQL_MAX_DEPTH: '4' });
});
after(async () => {
  await t.stop();
});

async function post(query: string, variables?: Record<string, unknown>): Promise<{ status: number; body: Body }> {
  const res = await fetch(`${t.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', 'x-api-key': t.userKey },
    body: JSON.stringify({ query, ...(variables ? { variables } : {}) }),
  });
  return { status: res.status, body: (await res.json()) as Body };
}

describe('GraphQL document cache', () => {
  test('a repeated document is a hit: parsed and validated once, answered the same', async () => {
    const query = '{ investorsOfUser { investors { id } } }';
    const start = await lookups();
    const first = await post(query);
    const afterFirst = await lookups();
    const second = await post(query);
    const afterSecond = await lookups();
    assert.equal(first.status, 200);
    assert.equal(first.body.errors, undefined);
    assert.deepEqual(second, first);
    assert.deepEqual({ hit: afterFirst.hit - start.hit, miss: afterFirst.miss - start.miss }, { hit: 0, miss: 1 });
    assert.deepEqual({ hit: afterSecond.hit - afterFirst.hit, miss: afterSecond.miss - afterFirst.miss }, { hit: 1, miss: 0 });
    assert.ok(t.gateway.graphqlDocuments.size >= 1);
  });

  test('a document the limits refuse is never kept: refused each time, never a hit', async () => {
    // Nested 5 levels with GRAPHQL_MAX_DEPTH 4: the depth rule (limits.ts) refuses it at validation.
    const deep = 'query Deep { jobs { nodes { receipt { logs { address } } } } }';
    const kept = t.gateway.graphqlDocuments.size;
    const start = await lookups();
    for (let i = 0; i < 3; i++) {
      const res = await post(deep);
      assert.equal(res.status, 400);
      assert.deepEqual(res.body.errors?.map((e) => e.extensions?.['code']), ['QUERY_TOO_COMPLEX']);
    }
    const end = await lookups();
    assert.deepEqual({ hit: end.hit - start.hit, miss: end.miss - start.miss }, { hit: 0, miss: 3 });
    assert.equal(t.gateway.graphqlDocuments.size, kept);
  });

  test('a kept document meets each request\'s variables afresh: the service still judges the page size it gets', async () => {
    const query = 'query($n: Int) { users(first: $n) { nodes { id } } }';
    const small = await post(query, { n: 1 });
    const start = await lookups();
    const large = await post(query, { n: 1_000_000 });
    const end = await lookups();
    assert.equal(small.status, 200);
    assert.equal(small.body.errors, undefined);
    assert.equal(end.hit - start.hit, 1);
    // The same text, so a hit; the variable it came with is the identity service's to refuse (a 4xx code, never a 500).
    assert.deepEqual(large.body.errors?.map((e) => e.extensions?.['code']), ['BAD_USER_INPUT']);
  });
});

describe('DocumentCache bounds', () => {
  test('keeps at most maxEntries, the least recently used going first, and no document over maxSourceChars', async () => {
    const cache = new DocumentCache(2, 40);
    const doc = (text: string) => parse(text);
    await cache.set('a', doc('{ a }'));
    await cache.set('b', doc('{ b }'));
    assert.ok(await cache.get('a')); // a is now the most recently used
    await cache.set('c', doc('{ c }'));
    assert.equal(cache.size, 2);
    assert.equal(await cache.get('b'), undefined);
    assert.ok(await cache.get('a'));
    assert.ok(await cache.get('c'));
    await cache.set('long', doc(`{ ${'x '.repeat(30)}}`));
    assert.equal(await cache.get('long'), undefined);
    assert.equal(await cache.delete('a'), true);
    assert.equal(await cache.delete('a'), false);
    assert.equal(cache.size, 1);
  });
});

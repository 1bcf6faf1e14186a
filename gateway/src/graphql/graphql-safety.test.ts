import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { getIntrospectionQuery } from 'graphql';
import { startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { aliasesIn } from './limits.js';

/**
 * The request-level safety of /graphql over real HTTP: query limits (tokens, depth, cost), automatic
 * persisted queries, and the explorer page with its assets. Validation runs before any resolver, so the
 * identity service alone is behind this gateway; the chain fields are refused before they would need it.
 */

interface Body {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

let t: TestGateway;
before(async () => {
  t = await startTestGateway({ GRAPHQL_MAX_DEPTH: '4', GRAPHQL_MAX_COST: '1100' });
});
after(async () => {
  await t.stop();
});

/** A modern client's request: it accepts application/graphql-response+json, so a refused document is a 400. */
async function post(body: object, apiKey = t.userKey): Promise<{ status: number; body: Body }> {
  const res = await fetch(`${t.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json;q=0.9', 'x-api-key': apiKey },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Body };
}

const errorsOf = (body: Body) => body.errors?.map((e) => [e.message, e.extensions?.['code']]);

describe('query limits', () => {
  test('depth: GRAPHQL_MAX_DEPTH levels pass, one more is refused before anything runs', async () => {
    const ok = await post({ query: '{ investorsOfUser { investors { id } } }' });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.errors, undefined);
    const deep = await post({ query: 'query Deep { jobs { nodes { receipt { logs { address } } } } }' });
    assert.equal(deep.status, 400);
    assert.deepEqual(errorsOf(deep.body), [['Operation Deep is nested 5 levels deep; at most 4 are allowed.', 'QUERY_TOO_COMPLEX']]);
  });

  test("introspection is not measured: GraphiQL's full introspection query passes", async () => {
    const res = await post({ query: getIntrospectionQuery() });
    assert.equal(res.status, 200);
    assert.equal(res.body.errors, undefined);
  });

  test('depth counts through fragments', async () => {
    const res = await post({
      query: 'query { jobs { ...J } } fragment J on JobConnection { nodes { receipt { ...R } } } fragment R on TransactionReceipt { logs { address } }',
    });
    assert.deepEqual(errorsOf(res.body), [['The operation is nested 5 levels deep; at most 4 are allowed.', 'QUERY_TOO_COMPLEX']]);
  });

  test('cost: a page size multiplies what is under it', async () => {
    // jobs (1) + nodes (1 + 500 × 2 fields) = 1002, + 10 for the call jobs makes, ≤ 1100 passes validation
    // (and then needs the chain backend)…
    const page = await post({ query: '{ jobs(first: 500) { nodes { id status } } }' });
    assert.deepEqual(errorsOf(page.body), [
      ['The chain service is not available: this deployment runs without it (CHAIN_GRPC_ADDR is not set; npm start: CHAIN_ENABLED=false).', 'SERVICE_UNAVAILABLE'],
    ]);
    // …a third field per node does not.
    const wide = await post({ query: '{ jobs(first: 500) { nodes { id status kind } } }' });
    assert.equal(wide.status, 400);
    assert.deepEqual(errorsOf(wide.body), [
      ['The operation could return about 1512 fields; at most 1100 are allowed. Ask for fewer fields or smaller pages (first).', 'QUERY_TOO_COMPLEX'],
    ]);
    // A list without first counts as 10; a connection without first as its default page (100):
    // users (1 + nodes (1 + 100 × (1 + groups 10 × 1))) = 1 102 > 1 100; with first: 50, 552.
    assert.equal((await post({ query: '{ users { nodes { groups { name } } } }' })).body.errors?.[0]?.extensions?.['code'], 'QUERY_TOO_COMPLEX');
    assert.equal((await post({ query: '{ users(first: 50) { nodes { groups { name } } } }' })).body.errors, undefined);
    // A page size given as a variable is not known yet: it counts as the largest page.
    const variable = await post({ query: 'query($n: Int) { users(first: $n) { nodes { id } } }', variables: { n: 2 } });
    assert.equal(variable.body.errors, undefined);
    const variableWide = await post({ query: 'query($n: Int) { users(first: $n) { nodes { id identifier } } }', variables: { n: 2 } });
    assert.equal(variableWide.body.errors?.[0]?.extensions?.['code'], 'QUERY_TOO_COMPLEX');
    // A backward page (last) is sized as a forward one: assets (1 + nodes (1 + 1000 × 2)) > 1 100.
    const backward = await post({ query: 'query($n: Int) { assets(last: $n) { nodes { id identifier } } }', variables: { n: 2 } });
    assert.equal(backward.body.errors?.[0]?.extensions?.['code'], 'QUERY_TOO_COMPLEX');
  });

  test('cost: aliases repeat a field and count each time', async () => {
    const aliases = Array.from({ length: 600 }, (_, i) => `a${i}: me { id }`).join(' ');
    const res = await post({ query: `{ ${aliases} }` });
    assert.equal(res.status, 400);
    assert.equal(res.body.errors?.[0]?.extensions?.['code'], 'QUERY_TOO_COMPLEX');
  });

  test('aliases: at most GRAPHQL_MAX_ALIASES (30) per operation, through fragments; the refusal names the limit', async () => {
    const aliases = (n: number) => Array.from({ length: n }, (_, i) => `a${i}: id`).join(' ');
    const ok = await post({ query: `{ me { ${aliases(30)} } }` });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.errors, undefined);
    assert.equal((ok.body.data?.['me'] as Record<string, unknown>)['a29'], t.user.accountId);
    const refused = await post({ query: `query Bomb { me { ...F } } fragment F on Account { ${aliases(31)} }` });
    assert.equal(refused.status, 400);
    assert.deepEqual(errorsOf(refused.body), [
      [
        // Counted on the text before Apollo parses it; the validation rule counts again (spreads, WebSocket).
        'The document has more than 30 aliased fields; at most 30 are allowed (GRAPHQL_MAX_ALIASES). Ask for a field once and reuse its answer.',
        'QUERY_TOO_COMPLEX',
      ],
    ]);
  });

  test('aliases are counted through fragment spreads by the validation rule (a fragment spread twice counts twice)', async () => {
    const aliases = Array.from({ length: 16 }, (_, i) => `a${i}: id`).join(' ');
    const res = await post({ query: `query Twice { x: me { ...F } y: me { ...F } } fragment F on Account { ${aliases} }` });
    assert.equal(res.status, 400);
    assert.deepEqual(errorsOf(res.body), [
      ['Operation Twice has 34 aliased fields; at most 30 are allowed (GRAPHQL_MAX_ALIASES). Ask for a field once and reuse its answer.', 'QUERY_TOO_COMPLEX'],
    ]);
  });

  test('root fields: at most GRAPHQL_MAX_ROOT_FIELDS (20) per operation; the refusal names the limit', async () => {
    const roots = (n: number) => Array.from({ length: n }, (_, i) => `r${i}: me { id }`).join(' ');
    const ok = await post({ query: `{ ${roots(20)} __typename }` });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.errors, undefined);
    const refused = await post({ query: `{ ${roots(20)} ...More } fragment More on Query { r20: me { id } }` });
    assert.equal(refused.status, 400);
    assert.deepEqual(errorsOf(refused.body), [
      ['The operation asks for 21 root fields; at most 20 are allowed (GRAPHQL_MAX_ROOT_FIELDS). Split it into several requests.', 'QUERY_TOO_COMPLEX'],
    ]);
  });

  test('the alias bomb of issue 36 (500 aliases of one root field) is refused before any backend call', async () => {
    const before = t.identity.calls.length;
    const bomb = Array.from({ length: 500 }, (_, i) => `a${i}: groups { name }`).join(' ');
    const res = await post({ query: `{ ${bomb} }` });
    assert.equal(res.status, 400);
    assert.match(res.body.errors?.[0]?.message ?? '', /aliased fields; at most 30 are allowed \(GRAPHQL_MAX_ALIASES\)/);
    assert.equal(t.identity.calls.slice(before).filter((c) => c.method === 'getGroups').length, 0);
    // The scan stops at the first alias beyond the limit, so refusing a bomb costs the same whatever its size:
    // it counts 31 of the 500 aliases and reads no further.
    assert.equal(aliasesIn(`{ ${bomb} }`, 30), 31);
  });

  test('a deeply nested document is refused before parse (whose recursion would overflow the stack)', async () => {
    const nested = '{m'.repeat(4_000) + '}'.repeat(4_000);
    const res = await post({ query: nested });
    assert.equal(res.status, 400);
    assert.deepEqual(errorsOf(res.body), [['The document nests brackets more than 100 levels deep; it was not parsed.', 'QUERY_TOO_COMPLEX']]);
    // Brackets inside strings and comments do not count.
    const quoted = await post({ query: `{ me { id } } # ${'{'.repeat(500)}\n` });
    assert.equal(quoted.body.errors, undefined);
  });

  test('a document of more than 10,000 tokens is refused at parse', async () => {
    const res = await post({ query: `{${'m{i}'.repeat(2_600)}}` });
    assert.equal(res.status, 400);
    assert.deepEqual(errorsOf(res.body), [['Syntax Error: Document contains more that 10000 tokens. Parsing aborted.', 'GRAPHQL_PARSE_FAILED']]);
  });
});

describe('automatic persisted queries', () => {
  const query = '{ me { id name } }';
  const sha256Hash = createHash('sha256').update(query).digest('hex');
  const persisted = { persistedQuery: { version: 1, sha256Hash } };

  test('an unknown hash asks for the query; once sent with it, the hash alone runs it', async () => {
    const unknown = await post({ extensions: persisted });
    assert.deepEqual(errorsOf(unknown.body), [['PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND']]);
    const registered = await post({ query, extensions: persisted });
    assert.deepEqual(registered.body, { data: { me: { id: t.user.accountId, name: 'Acme' } } });
    const byHash = await post({ extensions: persisted });
    assert.deepEqual(byHash.body, { data: { me: { id: t.user.accountId, name: 'Acme' } } });
    // The hash names the query, not the caller: another key runs it as itself.
    const other = await post({ extensions: persisted }, t.operatorKey);
    assert.deepEqual(other.body, { data: { me: { id: t.operator.accountId, name: 'bootstrap operator' } } });
  });

  test('a hash that does not match the query is refused', async () => {
    const res = await post({ query: '{ me { id } }', extensions: { persistedQuery: { version: 1, sha256Hash: 'f'.repeat(64) } } });
    assert.equal(res.status, 400);
    assert.deepEqual(errorsOf(res.body), [['provided sha does not match query', 'BAD_REQUEST']]);
  });

  test('a persisted query can be run with GET (cacheable), with the CSRF preflight header', async () => {
    const url = `${t.baseUrl}/graphql?extensions=${encodeURIComponent(JSON.stringify(persisted))}`;
    const res = await fetch(url, { headers: { accept: 'application/json', 'x-api-key': t.userKey, 'apollo-require-preflight': 'true' } });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { data: { me: { id: t.user.accountId, name: 'Acme' } } });
  });
});

describe('explorer page', () => {
  test('browsers get GraphiQL with a strict CSP; every asset it loads is served from here', async () => {
    const res = await fetch(`${t.baseUrl}/graphql`, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'self'/);
    assert.match(csp, /connect-src 'self'/);
    const html = await res.text();
    assert.match(html, /<input id="api-key"/);
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!).filter((url) => !url.startsWith('data:'));
    assert.equal(assets.length, 6);
    for (const asset of assets) {
      assert.doesNotMatch(asset, /^(https?:)?\/\//, 'nothing from another origin');
      const served = await fetch(new URL(asset, `${t.baseUrl}/graphql`));
      assert.equal(served.status, 200, asset);
      assert.match(served.headers.get('content-type') ?? '', asset.endsWith('.css') ? /^text\/css/ : /^text\/javascript/);
      assert.ok((await served.arrayBuffer()).byteLength > 100, asset);
    }
  });

  test('JSON clients asking with GET still reach GraphQL; unknown assets are 404', async () => {
    const res = await fetch(`${t.baseUrl}/graphql?query=${encodeURIComponent('{ __typename }')}`, {
      headers: { accept: 'application/json', 'apollo-require-preflight': 'true' },
    });
    assert.deepEqual(await res.json(), { data: { __typename: 'Query' } });
    assert.equal((await fetch(`${t.baseUrl}/graphql/assets/..%2Fpackage.json`)).status, 404);
    assert.equal((await fetch(`${t.baseUrl}/graphql/assets/..%2F..%2Fpackage.json`)).status, 404);
    assert.equal((await fetch(`${t.baseUrl}/graphql/assets/nope.js`)).status, 404);
  });
});

test('production: no explorer page by default and no introspection', async () => {
  const prod = await startTestGateway({ NODE_ENV: 'production', DOCUMENT_LINK_SECRET: 'NH88mkRWhyS8zi6REeYACEf1UbMTLCjR5S-9QZSKdug' });
  try {
    const page = await fetch(`${prod.baseUrl}/graphql`, { headers: { accept: 'text/html' } });
    assert.doesNotMatch(await page.text(), /api-key/);
    assert.equal((await fetch(`${prod.baseUrl}/graphql/assets/graphiql.min.js`)).status, 404);
  } finally {
    await prod.stop();
  }
  const forced = await startTestGateway({ NODE_ENV: 'production', DOCUMENT_LINK_SECRET: 'NH88mkRWhyS8zi6REeYACEf1UbMTLCjR5S-9QZSKdug', GRAPHQL_EXPLORER: 'true' });
  try {
    const page = await fetch(`${forced.baseUrl}/graphql`, { headers: { accept: 'text/html' } });
    assert.match(await page.text(), /api-key/);
  } finally {
    await forced.stop();
  }
});

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { postCall } from '@green-impact/testing/gateway/v1-calls';
import { jsonHeaders, startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { callsDuring, data, gqlAt } from '@green-impact/testing/gateway/graphql-calls';

/**
 * The guards around the gateway's backend calls (backend-calls.ts), over real HTTP and gRPC: identical
 * reads of one request are one call, and an account holding its share of in-flight calls is refused
 * (503, Retry-After) while another account still gets through.
 */

/** Waits until `check` holds, polling: the calls arrive on another socket. */
async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('identical backend calls are made once per request', () => {
  let t: TestGateway;
  before(async () => {
    t = await startTestGateway({}, { taxonomy: true });
  });
  after(async () => {
    await t.stop();
  });

  test('aliases of one field with the same arguments cost one call; other arguments another', async () => {
    const count = (method: string) => t.taxonomy!.count(method);
    const gql = (query: string) => gqlAt(t.baseUrl, query, {}, t.userKey);
    const [currencies, fxRates] = [count('getCurrencies'), count('getFxRates')];
    const d = data(
      await gql(
        `{ a: currencies { code } b: currencies { id } c: currencies { code id }
           x: fxRates(year: 2024) { rate } y: fxRates(year: 2024) { id } z: fxRates(year: 2023) { rate } }`,
      ),
    );
    assert.deepEqual(d['a'].map((c: { code: string }) => c.code), d['c'].map((c: { code: string }) => c.code));
    assert.equal(count('getCurrencies') - currencies, 1, 'three aliases of currencies, one call');
    assert.equal(count('getFxRates') - fxRates, 2, 'fxRates of 2024 twice and of 2023 once: two calls');
    // Nothing outlives the request: the next one asks again.
    data(await gql('{ currencies { code } }'));
    assert.equal(count('getCurrencies') - currencies, 2);
  });

  test('a write in between is not answered from before it: every write empties the memo', async () => {
    // Each payload reads the currency list after its write; the second must not get the first's list.
    const res = data(
      await gqlAt(
        t.baseUrl,
        `mutation { a: addCurrency(currencyCode: "nok") { currency { code } } b: addCurrency(currencyCode: "dkk") { currency { code } }
                    x: removeCurrency(currencyCode: "NOK") { message } y: removeCurrency(currencyCode: "DKK") { message } }`,
        {},
        t.operatorKey,
      ),
    );
    assert.deepEqual([res['a'].currency, res['b'].currency], [{ code: 'NOK' }, { code: 'DKK' }]);
  });
});

describe('one item reached by two paths is one call', () => {
  let t: TestGateway;
  before(async () => {
    t = await startTestGateway({}, { portfolio: true });
    data(
      await gqlAt(
        t.baseUrl,
        `mutation {
          f: addFramework(input: { identifier: "GBF", name: "Green Bond Framework", currencyCode: "EUR", visibility: PUBLIC }) { id }
          a: addAsset(input: { identifier: "SE0001", name: "Green bond", issuerIdentifier: "ISS-1", frameworkIdentifier: "GBF", currencyCode: "EUR" }) { id }
        }`,
        {},
        t.userKey,
      ),
    );
  });
  after(async () => {
    await t.stop();
  });

  test('an asset by identifier and by its node id, and its framework at the root and under it: one read each', async () => {
    const id = data(await gqlAt(t.baseUrl, '{ asset(identifier: "SE0001") { nodeId } }', {}, t.userKey))['asset'].nodeId;
    // The gateway's calls only: portfolio reads taxonomy's frameworks on its own behalf, signed as portfolio.
    const counts = await callsDuring([t.portfolio!, t.taxonomy!], async () => {
      const d = data(
        await gqlAt(
          t.baseUrl,
          `query($id: ID!) {
            asset(identifier: "SE0001") { identifier framework(year: 2024) { identifier } }
            node(id: $id) { ... on Asset { name } }
            framework(identifier: "GBF", year: 2024) { name }
          }`,
          { id },
          t.userKey,
        ),
      );
      assert.equal(d['node'].name, 'Green bond');
      assert.equal(d['asset'].framework.identifier, 'GBF');
    }, (call) => call.issuer === 'gateway');
    assert.equal(counts['getAssetsByIdentifiers'], 1, JSON.stringify(counts));
    assert.equal((counts['getFrameworksByIdentifiers'] ?? 0) + (counts['getFrameworks'] ?? 0), 1, JSON.stringify(counts));
  });
});

describe('bulkheads: per-account share of in-flight backend calls', () => {
  let t: TestGateway;
  before(async () => {
    // Two places per account and no queue: the third concurrent call of an account is refused at once.
    t = await startTestGateway({ BACKEND_CALLS_PER_CALLER: '2', BACKEND_CALLS_CALLER_QUEUE: '0', BACKEND_CALLS_CALLER_WAIT_MS: '0' });
  });
  after(async () => {
    await t.stop();
  });

  test('an account beyond its share gets 503 with Retry-After on /graphql and /v1/call; another account gets through', async () => {
    // Slow's getGroups never answers until cancelled (identity holds it): two of them hold both of its account's places.
    const slow = await t.createAccount('Slow');
    t.identity.hold((c) => c.method === 'getGroups' && c.caller?.accountId === slow.caller.accountId);
    const stalled = new AbortController();
    const hold = () =>
      fetch(`${t.baseUrl}/graphql`, {
        method: 'POST',
        headers: jsonHeaders(slow.apiKey),
        body: JSON.stringify({ query: '{ groups { name } }' }),
        signal: stalled.signal,
      }).catch(() => undefined);
    const held = [hold(), hold()];
    const slowGroups = () => t.identity.calls.filter((c) => c.method === 'getGroups' && c.caller?.accountId === slow.caller.accountId).length;
    try {
      await until(() => slowGroups() === 2, 'both slow calls reach identity');

      const refused = await gqlAt(t.baseUrl, '{ groups { name } }', {}, slow.apiKey);
      assert.equal(refused.status, 503);
      assert.equal(refused.headers.get('retry-after'), '1');
      assert.equal(refused.body.errors?.[0]?.extensions?.['code'], 'SERVICE_UNAVAILABLE');
      assert.match(refused.body.errors?.[0]?.message ?? '', /at most 2, BACKEND_CALLS_PER_CALLER/);

      const v1 = await postCall(t.baseUrl, { solution: 'SVC.ESG.Credits', operation: 'getGroups' }, jsonHeaders(slow.apiKey));
      assert.equal(v1.status, 503, v1.text);
      assert.equal(v1.headers.get('retry-after'), '1');
      assert.equal(v1.json['code'], 'UNAVAILABLE');
      assert.equal(slowGroups(), 2, 'the refused calls never reached identity');

      // Another account is not behind the slow one.
      const other = data(await gqlAt(t.baseUrl, '{ groups { name } }', {}, t.userKey));
      assert.ok(other['groups'].length > 0);
    } finally {
      stalled.abort();
      await Promise.all(held);
    }
    // The client going away cancels the held calls and frees the places.
    await until(() => t.identity.cancelled.length >= 2, 'held calls cancelled');
  });
});

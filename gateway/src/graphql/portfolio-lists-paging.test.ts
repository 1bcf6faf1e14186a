import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { startPortfolioGateway } from '@green-impact/testing/gateway/portfolio-gateway';
import { data, gqlAt, onlyError, type GqlResponse } from '@green-impact/testing/gateway/graphql-calls';
import { checkPage, paginate } from './pagination.js';

/**
 * The assets, portfolios and impactRecomputeJobs connections are paged by the portfolio service (the real
 * one, seeded through the gateway): first/after go to GetAssets / GetPortfolios / ListImpactRecomputeJobs
 * as page_size/page_token, the whole list is never asked for, and the cursors are those the gateway-side
 * paging gave out.
 */

type Page = { nodes: { id: string }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null }; totalCount: number };

let t: TestGateway;
const gql = (query: string, variables: Record<string, unknown> = {}): Promise<GqlResponse> => gqlAt(t.baseUrl, query, variables, t.userKey);
const callsOf = (method: string) => t.portfolio!.calls.filter((c) => c.method === method && c.issuer === 'gateway').map((c) => JSON.parse(JSON.stringify(c.request)));
const GUID_CURSOR = Buffer.from(JSON.stringify([1, 'a3f1c2d4-guid'])).toString('base64url');
const SERIAL_CURSOR = Buffer.from(JSON.stringify([1, '7'])).toString('base64url');

before(async () => {
  t = await startPortfolioGateway();
  data(
    await gql(`mutation {
      i: addInvestor(input: { identifier: "inv_1", name: "Ann", currencyCode: "EUR" }) { message }
      j: addInvestor(input: { identifier: "inv_2", name: "Bo", currencyCode: "EUR" }) { message }
    }`),
  );
  for (let n = 1; n <= 5; n++) {
    data(await gql(`mutation { addAsset(input: { identifier: "SE000${n}", name: "Bond ${n}", issuerIdentifier: "ISS-${n % 2}", frameworkIdentifier: "GBF", currencyCode: "EUR" }) { message } }`));
    data(await gql(`mutation { a: addPortfolio(investorIdentifier: "inv_1", identifier: "a-${n}") { message } b: addPortfolio(investorIdentifier: "inv_2", identifier: "b-${n}") { message } }`));
  }
  // Seven jobs (a recompute of the account for each of seven years), each completed by the service's runner.
  for (let year = 2018; year <= 2024; year++) data(await gql(`mutation { startImpactRecompute(scope: ACCOUNT, year: ${year}) { created } }`));
  const completed = async () => data(await gql('{ impactRecomputeJobs(first: 10, status: COMPLETED) { totalCount } }'))['impactRecomputeJobs'].totalCount;
  while ((await completed()) < 7) await sleep(50);
});
after(async () => {
  await t.stop();
});

const lists = [
  { field: 'assets', method: 'getAssets', args: 'issuerIdentifier: $filter', filter: 'ISS-1', total: 5, filtered: 3, foreign: GUID_CURSOR },
  { field: 'portfolios', method: 'getPortfolios', args: 'investorIdentifier: $filter', filter: 'inv_2', total: 10, filtered: 5, foreign: GUID_CURSOR },
  { field: 'impactRecomputeJobs', method: 'listImpactRecomputeJobs', args: 'status: $filter', filter: 'COMPLETED', total: 7, filtered: 7, foreign: SERIAL_CURSOR },
] as const;

for (const list of lists) {
  describe(`${list.field} connection paged by the service`, () => {
    const filterType = list.field === 'impactRecomputeJobs' ? 'RecomputeStatus' : 'String';
    const QUERY = `query($first: Int, $after: String, $filter: ${filterType}) { ${list.field}(first: $first, after: $after, ${list.args}) { nodes { id } edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount } }`;
    const page = async (variables: Record<string, unknown>): Promise<Page> => data(await gql(QUERY, variables))[list.field];

    test('first/after go to the service as page_size/page_token; pages and cursors are those of the gateway-side paging', async () => {
      const callsBefore = callsOf(list.method).length;
      const all = (await page({ first: 1000 })).nodes;
      assert.equal(all.length, list.total);
      let cursor: string | null = null;
      const seen: string[] = [];
      for (;;) {
        const p: Page = await page({ first: 3, after: cursor });
        assert.deepEqual(p, paginate(all, checkPage({ first: 3, after: cursor }), (n) => n.id));
        assert.deepEqual([callsOf(list.method).at(-1).pageSize, callsOf(list.method).at(-1).pageToken], [3, cursor ?? undefined]);
        seen.push(...p.nodes.map((n) => n.id));
        if (!p.pageInfo.hasNextPage) break;
        cursor = p.pageInfo.endCursor;
      }
      assert.deepEqual(seen, all.map((n) => n.id));
      const filtered = await page({ first: 2, filter: list.filter });
      assert.deepEqual([filtered.totalCount, filtered.nodes.length], [list.filtered, 2]);
      assert.ok(callsOf(list.method).slice(callsBefore).every((c) => c.pageSize !== undefined), 'the whole list is never asked for');
    });

    test("bad first, a malformed cursor or another list's cursor are BAD_USER_INPUT before any call", async () => {
      const callsBefore = callsOf(list.method).length;
      for (const [variables, message] of [
        [{ first: 0 }, 'first must be an integer from 1 to 1000, got 0.'],
        [{ after: 'nope!' }, 'after must be a pageInfo.endCursor of this list.'],
        [{ after: list.foreign }, 'after must be a pageInfo.endCursor of this list.'],
      ] as const) {
        assert.deepEqual(onlyError(await gql(QUERY, variables)), { message, code: 'BAD_USER_INPUT' });
      }
      assert.equal(callsOf(list.method).length, callsBefore);
    });
  });
}

test('impactRecomputeJobs pages newest first', async () => {
  const all = data(await gql('{ impactRecomputeJobs(first: 1000) { nodes { createdAt } } }'))['impactRecomputeJobs'].nodes.map((n: { createdAt: string }) => n.createdAt);
  assert.deepEqual(all, [...all].sort().reverse());
});

describe('assets connection paged backward (last/before) by the service', () => {
  const QUERY = `query($first: Int, $after: String, $last: Int, $before: String) { assets(first: $first, after: $after, last: $last, before: $before) { nodes { id } edges { cursor } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount } }`;
  const page = async (variables: Record<string, unknown>): Promise<Page & { edges: { cursor: string }[]; pageInfo: { hasPreviousPage: boolean; startCursor: string | null } }> =>
    data(await gql(QUERY, variables))['assets'];

  test('paging backward gives the items of paging forward, reversed, with their cursors; Relay pageInfo', async () => {
    const forward = await page({ first: 1000 });
    const backward: string[] = [];
    let before: string | null = null;
    for (;;) {
      const p = await page({ last: 2, before });
      assert.equal(callsOf('getAssets').at(-1).pageBefore !== undefined, true, 'the service pages backward itself');
      backward.unshift(...p.nodes.map((n) => n.id));
      assert.equal(p.pageInfo.hasNextPage, before !== null);
      // Each backward edge carries the cursor the forward paging gives the same item.
      for (const [i, node] of p.nodes.entries()) {
        assert.equal(p.edges[i]!.cursor, forward.edges[forward.nodes.findIndex((n) => n.id === node.id)]!.cursor);
      }
      if (!p.pageInfo.hasPreviousPage) break;
      before = p.pageInfo.startCursor;
    }
    assert.deepEqual(backward, forward.nodes.map((n) => n.id));
    // A forward endCursor is a before cursor, and a backward one resumes forward.
    const first = await page({ first: 3 });
    const back = await page({ last: 5, before: first.pageInfo.endCursor });
    assert.deepEqual([back.nodes, back.pageInfo.hasPreviousPage, back.totalCount], [first.nodes.slice(0, 2), false, forward.totalCount]);
    const resumed = await page({ first: 1000, after: back.pageInfo.endCursor });
    assert.deepEqual(resumed.nodes, forward.nodes.slice(2));
  });

  test('first with last, after with before, a bad last or a foreign before are BAD_USER_INPUT before any call', async () => {
    const callsBefore = callsOf('getAssets').length;
    for (const [variables, message] of [
      [{ first: 2, last: 2 }, 'first and last cannot be given together: a page is read forward or backward.'],
      [{ last: 2, after: SERIAL_CURSOR, before: SERIAL_CURSOR }, 'after and before cannot be given together.'],
      [{ last: 0 }, 'last must be an integer from 1 to 1000, got 0.'],
      [{ last: 1001 }, 'last must be an integer from 1 to 1000, got 1001.'],
      [{ last: 2, before: GUID_CURSOR }, 'before must be a cursor of this list.'],
    ] as const) {
      assert.deepEqual(onlyError(await gql(QUERY, variables)), { message, code: 'BAD_USER_INPUT' });
    }
    assert.equal(callsOf('getAssets').length, callsBefore);
  });
});

describe('assets connection ordered (orderBy) by the service', () => {
  const QUERY = `query($first: Int, $after: String, $last: Int, $before: String, $orderBy: AssetOrder) {
    assets(first: $first, after: $after, last: $last, before: $before, orderBy: $orderBy) { nodes { identifier issuer { identifier } } edges { cursor } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount } }`;
  type OrderedPage = { nodes: { identifier: string; issuer: { identifier: string } }[]; edges: { cursor: string }[]; pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null }; totalCount: number };
  const page = async (variables: Record<string, unknown>): Promise<OrderedPage> => data(await gql(QUERY, variables))['assets'];
  // SE0001..SE0005 with issuers ISS-1, ISS-0, ISS-1, ISS-0, ISS-1 (seeded above).
  const byIssuerDesc = ['SE0005', 'SE0003', 'SE0001', 'SE0004', 'SE0002'];

  test('orderBy reaches the service as page_order; pages forward and backward follow the order, the id breaking ties', async () => {
    const orderBy = { field: 'ISSUER_IDENTIFIER', direction: 'DESC' };
    const whole = await page({ first: 100, orderBy });
    assert.deepEqual(JSON.parse(JSON.stringify(callsOf('getAssets').at(-1).pageOrder)), { field: 'issuer_identifier', descending: true });
    assert.deepEqual(whole.nodes.map((n) => n.identifier), byIssuerDesc);
    const forward: string[] = [];
    let after: string | null = null;
    do {
      const p: OrderedPage = await page({ first: 2, after, orderBy });
      forward.push(...p.nodes.map((n) => n.identifier));
      after = p.pageInfo.hasNextPage ? p.pageInfo.endCursor : null;
    } while (after);
    assert.deepEqual(forward, byIssuerDesc);
    const last = await page({ last: 2, orderBy });
    assert.deepEqual([last.nodes.map((n) => n.identifier), last.pageInfo.hasPreviousPage, last.edges.map((e) => e.cursor)], [byIssuerDesc.slice(3), true, whole.edges.slice(3).map((e) => e.cursor)]);
    const before = await page({ last: 10, before: last.pageInfo.startCursor, orderBy });
    assert.deepEqual(before.nodes.map((n) => n.identifier), byIssuerDesc.slice(0, 3));
    // Direction defaults to ASC: the reverse, ties included.
    assert.deepEqual((await page({ first: 100, orderBy: { field: 'ISSUER_IDENTIFIER' } })).nodes.map((n) => n.identifier), ['SE0002', 'SE0004', 'SE0001', 'SE0003', 'SE0005']);
  });

  test("a cursor of another order is BAD_USER_INPUT before any call; an unknown field is the schema's refusal", async () => {
    const byName = await page({ first: 1, orderBy: { field: 'NAME' } });
    const callsBefore = callsOf('getAssets').length;
    assert.deepEqual(onlyError(await gql(QUERY, { first: 1, after: byName.pageInfo.endCursor })), {
      message: 'after must be a pageInfo.endCursor of this list in the same orderBy.',
      code: 'BAD_USER_INPUT',
    });
    assert.deepEqual(onlyError(await gql(QUERY, { last: 1, before: byName.pageInfo.endCursor, orderBy: { field: 'NAME', direction: 'DESC' } })), {
      message: 'before must be a cursor of this list in the same orderBy.',
      code: 'BAD_USER_INPUT',
    });
    assert.equal(callsOf('getAssets').length, callsBefore);
    const unknown = await gql(QUERY, { first: 1, orderBy: { field: 'CURRENCY' } });
    assert.match(unknown.body.errors?.[0]?.message ?? '', /Value "CURRENCY" does not exist in "AssetOrderField" enum/);
  });
});

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { startPortfolioGateway } from '@green-impact/testing/gateway/portfolio-gateway';
import { data, gqlAt, onlyError, type GqlResponse } from '@green-impact/testing/gateway/graphql-calls';
import { checkPage, paginate } from './pagination.js';

/**
 * The positions connection is paged by the portfolio service (the real one, seeded through the gateway):
 * first/after go to GetPositions as page_size/page_token, the whole list is never asked for, and the
 * cursors are those the gateway-side paging gave out.
 */

const PAGE = 'query($first: Int, $after: String, $investor: String) { positions(first: $first, after: $after, investorIdentifier: $investor) { nodes { id investorIdentifier } edges { cursor node { id investorIdentifier } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount } }';

let t: TestGateway;
const gql = (query: string, variables: Record<string, unknown> = {}): Promise<GqlResponse> => gqlAt(t.baseUrl, query, variables, t.userKey);
const getPositionsCalls = () => t.portfolio!.calls.filter((c) => c.method === 'getPositions' && c.issuer === 'gateway').map((c) => JSON.parse(JSON.stringify(c.request)));
type Page = { nodes: { id: string; investorIdentifier: string }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null }; totalCount: number };
const page = async (variables: Record<string, unknown>): Promise<Page> => data(await gql(PAGE, variables))['positions'];

before(async () => {
  t = await startPortfolioGateway();
  data(
    await gql(`mutation {
      a: addAsset(input: { identifier: "SE0001", name: "Green bond", issuerIdentifier: "ISS-1", frameworkIdentifier: "GBF", currencyCode: "EUR" }) { message }
      i: addInvestor(input: { identifier: "inv_1", name: "Ann", currencyCode: "EUR" }) { message }
      j: addInvestor(input: { identifier: "inv_2", name: "Bo", currencyCode: "EUR" }) { message }
    }`),
  );
  for (const investor of ['inv_1', 'inv_2', 'inv_1']) {
    for (let n = 0; n < 3; n++) {
      data(await gql(`mutation { addPosition(input: { investorIdentifier: "${investor}", assetIdentifier: "SE0001", amount: 1000, currencyCode: "EUR" }) { message } }`));
    }
  }
});
after(async () => {
  await t.stop();
});

describe('positions connection paged by the service', () => {
  test('first/after become page_size/page_token; pages cover the list once, in order, with totalCount and hasNextPage', async () => {
    const callsBefore = getPositionsCalls().length;
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    for (;;) {
      const p: Page = await page({ first: 4, after: cursor });
      pages++;
      assert.equal(p.totalCount, 9);
      seen.push(...p.nodes.map((n) => n.id));
      const sent = getPositionsCalls().at(-1);
      assert.equal(sent.pageSize, 4);
      assert.equal(sent.pageToken, cursor ?? undefined);
      if (!p.pageInfo.hasNextPage) break;
      assert.equal(p.nodes.length, 4);
      cursor = p.pageInfo.endCursor;
    }
    assert.equal(pages, 3);
    assert.equal(new Set(seen).size, 9);
    assert.deepEqual([...seen].sort((a, b) => Number(a) - Number(b)), seen);
    assert.ok(getPositionsCalls().slice(callsBefore).every((c) => c.pageSize !== undefined), 'the whole list is never asked for');
  });

  test('cursors are the ones the gateway-side paging gave out, and those resume where they did', async () => {
    const all = (await page({ first: 1000 })).nodes;
    for (const first of [1, 2, 4]) {
      const byGateway = paginate(all, checkPage({ first }), (n) => n.id);
      const byService = await page({ first });
      assert.deepEqual(byService, byGateway);
      const next = paginate(all, checkPage({ first, after: byGateway.pageInfo.endCursor }), (n) => n.id);
      assert.deepEqual(await page({ first, after: byGateway.pageInfo.endCursor }), next);
    }
  });

  test('filters go with the page; a removal between pages neither repeats nor skips', async () => {
    const one = await page({ first: 2, investor: 'inv_2' });
    assert.deepEqual([one.nodes.map((n) => n.investorIdentifier), one.totalCount, one.pageInfo.hasNextPage], [['inv_2', 'inv_2'], 3, true]);
    assert.equal(getPositionsCalls().at(-1).investorIdentifier, 'inv_2');
    // The last position seen is removed: the next page resumes after its id.
    data(await gql(`mutation { removePosition(investorIdentifier: "inv_2", positionId: ${one.nodes[1]!.id}) { message } }`));
    const two = await page({ first: 2, investor: 'inv_2', after: one.pageInfo.endCursor });
    assert.equal(two.nodes.length, 1);
    assert.ok(Number(two.nodes[0]!.id) > Number(one.nodes[1]!.id));
    assert.deepEqual([two.totalCount, two.pageInfo.hasNextPage], [2, false]);
  });

  test("bad first, a malformed cursor or another list's cursor are BAD_USER_INPUT before any call", async () => {
    const callsBefore = getPositionsCalls().length;
    const nftCursor = Buffer.from(JSON.stringify([1, 'a3f1c2d4-guid'])).toString('base64url');
    for (const [variables, message] of [
      [{ first: 0 }, 'first must be an integer from 1 to 1000, got 0.'],
      [{ first: 1001 }, 'first must be an integer from 1 to 1000, got 1001.'],
      [{ after: 'nope!' }, 'after must be a pageInfo.endCursor of this list.'],
      [{ after: nftCursor }, 'after must be a pageInfo.endCursor of this list.'],
    ] as const) {
      assert.deepEqual(onlyError(await gql(PAGE, variables)), { message, code: 'BAD_USER_INPUT' });
    }
    assert.equal(getPositionsCalls().length, callsBefore);
  });
});

describe('investors connection paged by the service', () => {
  const INVESTORS = 'query($first: Int, $after: String) { investors(first: $first, after: $after) { nodes { id identifier } edges { cursor node { id identifier } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount } }';
  type InvestorPage = { nodes: { id: string; identifier: string }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null }; totalCount: number };
  const investors = async (variables: Record<string, unknown>): Promise<InvestorPage> => data(await gql(INVESTORS, variables))['investors'];
  const calls = () => t.portfolio!.calls.filter((c) => c.method === 'getInvestors' && c.issuer === 'gateway').map((c) => JSON.parse(JSON.stringify(c.request)));

  test('first/after go to GetInvestors; the pages and cursors are those of the gateway-side paging', async () => {
    data(await gql('mutation { a: addInvestor(input: { identifier: "inv_3", name: "Cy", currencyCode: "EUR" }) { message } }'));
    const callsBefore = calls().length;
    const all = (await investors({ first: 1000 })).nodes;
    assert.deepEqual(all.map((i) => i.identifier), ['inv_1', 'inv_2', 'inv_3']);
    let cursor: string | null = null;
    for (const expected of [['inv_1', 'inv_2'], ['inv_3']]) {
      const p: InvestorPage = await investors({ first: 2, after: cursor });
      assert.deepEqual(p, paginate(all, checkPage({ first: 2, after: cursor }), (n) => n.id));
      assert.deepEqual(p.nodes.map((n) => n.identifier), expected);
      assert.deepEqual([calls().at(-1).pageSize, calls().at(-1).pageToken], [2, cursor ?? undefined]);
      cursor = p.pageInfo.endCursor;
    }
    assert.ok(calls().slice(callsBefore).every((c) => c.pageSize !== undefined), 'the whole list is never asked for');
    const nftCursor = Buffer.from(JSON.stringify([1, 'a3f1c2d4-guid'])).toString('base64url');
    assert.deepEqual(onlyError(await gql(INVESTORS, { after: nftCursor })), { message: 'after must be a pageInfo.endCursor of this list.', code: 'BAD_USER_INPUT' });
  });

  test('last/before page investors backward: the items of paging forward, reversed, with the same cursors', async () => {
    const BACK = 'query($last: Int, $before: String) { investors(last: $last, before: $before) { nodes { id identifier } edges { cursor } pageInfo { hasNextPage hasPreviousPage startCursor } totalCount } }';
    const forward = data(await gql('{ investors(first: 1000) { nodes { id } edges { cursor } } }'))['investors'];
    const seen: string[] = [];
    const cursors: string[] = [];
    let before: string | null = null;
    for (;;) {
      const p: { nodes: { id: string }[]; edges: { cursor: string }[]; pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null } } = data(
        await gql(BACK, { last: 2, before }),
      )['investors'];
      assert.notEqual(calls().at(-1).pageBefore, undefined, 'the service pages backward itself');
      assert.equal(p.pageInfo.hasNextPage, before !== null);
      seen.unshift(...p.nodes.map((n) => n.id));
      cursors.unshift(...p.edges.map((e) => e.cursor));
      if (!p.pageInfo.hasPreviousPage) break;
      before = p.pageInfo.startCursor;
    }
    assert.deepEqual(seen, forward.nodes.map((n: { id: string }) => n.id));
    assert.deepEqual(cursors, forward.edges.map((e: { cursor: string }) => e.cursor));
  });
});

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { startPortfolioGateway } from '@green-impact/testing/gateway/portfolio-gateway';
import { data, gqlAt, onlyError, type GqlResponse } from '@green-impact/testing/gateway/graphql-calls';

/**
 * The investors, positions and portfolios connections ordered (orderBy) and paged both ways (first/after,
 * last/before) by the portfolio service (the real one, seeded through the gateway): orderBy reaches
 * GetInvestors / GetPositions / GetPortfolios as page_order, the pages follow the order, and a cursor of
 * another order is refused before any call.
 */

let t: TestGateway;
const gql = (query: string, variables: Record<string, unknown> = {}): Promise<GqlResponse> => gqlAt(t.baseUrl, query, variables, t.userKey);
const callsOf = (method: string) => t.portfolio!.calls.filter((c) => c.method === method && c.issuer === 'gateway').map((c) => JSON.parse(JSON.stringify(c.request)));

before(async () => {
  t = await startPortfolioGateway();
  data(
    await gql(`mutation {
      a: addAsset(input: { identifier: "SE0001", name: "Green bond", issuerIdentifier: "ISS-1", frameworkIdentifier: "GBF", currencyCode: "EUR" }) { message }
      c: addInvestor(input: { identifier: "inv_c", name: "Cy", currencyCode: "EUR" }) { message }
    }`),
  );
  data(await gql('mutation { addInvestor(input: { identifier: "inv_a", name: "Ann", currencyCode: "SEK" }) { message } }'));
  data(await gql('mutation { addInvestor(input: { identifier: "inv_b", name: "Bo", currencyCode: "EUR" }) { message } }'));
  for (const [investor, amount, days] of [['inv_c', 300, 365], ['inv_a', 7, 90], ['inv_b', 300, 180], ['inv_a', 50, 91]] as const) {
    data(await gql(`mutation { addPosition(input: { investorIdentifier: "${investor}", assetIdentifier: "SE0001", amount: ${amount}, currencyCode: "EUR", days: ${days} }) { message } }`));
  }
  for (const [investor, identifier] of [['inv_b', 'pf_m'], ['inv_a', 'pf_z'], ['inv_c', 'pf_a'], ['inv_a', 'pf_k']] as const) {
    data(await gql(`mutation { addPortfolio(investorIdentifier: "${investor}", identifier: "${identifier}") { message } }`));
  }
});
after(async () => {
  await t.stop();
});

/**
 * Each list with one order, its node's label, and the labels in that order descending (ties by id,
 * descending too); ascending is the exact reverse.
 */
const lists = [
  { field: 'investors', type: 'InvestorOrder', method: 'getInvestors', node: 'identifier', orderBy: 'CURRENCY_CODE', descending: ['inv_a', 'inv_b', 'inv_c'] },
  { field: 'positions', type: 'PositionOrder', method: 'getPositions', node: 'days', orderBy: 'AMOUNT', descending: [180, 365, 91, 90] },
  { field: 'portfolios', type: 'PortfolioOrder', method: 'getPortfolios', node: 'identifier', orderBy: 'INVESTOR_IDENTIFIER', descending: ['pf_a', 'pf_m', 'pf_k', 'pf_z'] },
] as const;

type Page = {
  nodes: Record<string, unknown>[];
  edges: { cursor: string }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  totalCount: number;
};

for (const list of lists) {
  describe(`${list.field} connection ordered and paged both ways by the service`, () => {
    const QUERY = `query($first: Int, $after: String, $last: Int, $before: String, $orderBy: ${list.type}) {
      ${list.field}(first: $first, after: $after, last: $last, before: $before, orderBy: $orderBy) { nodes { ${list.node} } edges { cursor } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount } }`;
    const page = async (variables: Record<string, unknown>): Promise<Page> => data(await gql(QUERY, variables))[list.field];
    const labels = (p: Page) => p.nodes.map((n) => n[list.node]);
    const down = { field: list.orderBy, direction: 'DESC' };
    const n = list.descending.length;

    test('orderBy reaches the service as page_order; pages forward and backward follow the order, the id breaking ties', async () => {
      const whole = await page({ first: 100, orderBy: down });
      assert.deepEqual(callsOf(list.method).at(-1).pageOrder, { field: list.orderBy.toLowerCase(), descending: true });
      assert.deepEqual(labels(whole), list.descending);
      const forward: unknown[] = [];
      let after: string | null = null;
      do {
        const p: Page = await page({ first: 2, after, orderBy: down });
        forward.push(...labels(p));
        after = p.pageInfo.hasNextPage ? p.pageInfo.endCursor : null;
      } while (after);
      assert.deepEqual(forward, list.descending);
      const last = await page({ last: 2, orderBy: down });
      assert.notEqual(callsOf(list.method).at(-1).pageBefore, undefined, 'the service pages backward itself');
      assert.deepEqual([labels(last), last.pageInfo.hasPreviousPage, last.edges.map((e) => e.cursor)], [list.descending.slice(n - 2), true, whole.edges.slice(n - 2).map((e) => e.cursor)]);
      const before = await page({ last: 10, before: last.pageInfo.startCursor, orderBy: down });
      assert.deepEqual([labels(before), before.pageInfo.hasPreviousPage, before.totalCount], [list.descending.slice(0, n - 2), false, n]);
      // Direction defaults to ASC: the reverse, ties included.
      assert.deepEqual(labels(await page({ first: 100, orderBy: { field: list.orderBy } })), [...list.descending].reverse());
    });

    test('without orderBy, paging backward gives the items of paging forward (creation order), reversed, with their cursors', async () => {
      const forward = await page({ first: 100 });
      assert.equal(callsOf(list.method).at(-1).pageOrder, undefined, 'no orderBy, no page_order');
      const backward: unknown[] = [];
      const cursors: string[] = [];
      let before: string | null = null;
      for (;;) {
        const p: Page = await page({ last: 3, before });
        backward.unshift(...labels(p));
        cursors.unshift(...p.edges.map((e) => e.cursor));
        assert.equal(p.pageInfo.hasNextPage, before !== null);
        if (!p.pageInfo.hasPreviousPage) break;
        before = p.pageInfo.startCursor;
      }
      assert.deepEqual([backward, cursors], [labels(forward), forward.edges.map((e) => e.cursor)]);
    });

    test('a cursor of another order is BAD_USER_INPUT before any call', async () => {
      const ordered = await page({ first: 1, orderBy: down });
      const plain = await page({ first: 1 });
      const callsBefore = callsOf(list.method).length;
      assert.deepEqual(onlyError(await gql(QUERY, { first: 1, after: ordered.pageInfo.endCursor })), {
        message: 'after must be a pageInfo.endCursor of this list in the same orderBy.',
        code: 'BAD_USER_INPUT',
      });
      assert.deepEqual(onlyError(await gql(QUERY, { first: 1, after: ordered.pageInfo.endCursor, orderBy: { field: list.orderBy } })), {
        message: 'after must be a pageInfo.endCursor of this list in the same orderBy.',
        code: 'BAD_USER_INPUT',
      });
      assert.deepEqual(onlyError(await gql(QUERY, { last: 1, before: plain.pageInfo.endCursor, orderBy: down })), {
        message: 'before must be a cursor of this list in the same orderBy.',
        code: 'BAD_USER_INPUT',
      });
      assert.equal(callsOf(list.method).length, callsBefore);
    });
  });
}

test("investors are never ordered by their (possibly sealed) name: the schema offers no such field", async () => {
  const res = await gql('{ investors(first: 1, orderBy: { field: NAME }) { totalCount } }');
  assert.match(res.body.errors?.[0]?.message ?? '', /Value "NAME" does not exist in "InvestorOrderField" enum/);
});

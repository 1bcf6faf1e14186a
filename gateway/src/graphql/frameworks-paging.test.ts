import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { data, gqlAt, onlyError, type GqlResponse } from '@green-impact/testing/gateway/graphql-calls';
import { checkPage, paginate } from './pagination.js';

/**
 * The frameworks and projects connections are paged by the taxonomy service (the real one): first/after
 * go to GetFrameworks / GetProjects as page_size/page_token (last/before as page_before, orderBy as
 * page_order), the whole list is never asked for, pages are in id order unless orderBy says otherwise,
 * and a write the caller was answered is in its next page. `user` (t.userKey) and `other` are two USER
 * accounts.
 */

let t: TestGateway;
let user: string;
let other: string;
const gql = (query: string, variables: Record<string, unknown> = {}, apiKey = user): Promise<GqlResponse> => gqlAt(t.baseUrl, query, variables, apiKey);
const callsOf = (method: string) => t.taxonomy!.calls.filter((c) => c.method === method).map((c) => JSON.parse(JSON.stringify(c.request)));
type Page = { nodes: { id: string; identifier: string; owned: boolean }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null }; totalCount: number };
const listing = (field: 'frameworks' | 'projects') =>
  `query($first: Int, $after: String, $visibility: Visibility) { ${field}(year: 2024, first: $first, after: $after, visibility: $visibility) { nodes { id identifier owned } edges { cursor node { id identifier owned } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount } }`;
const page = async (field: 'frameworks' | 'projects', variables: Record<string, unknown>, apiKey = user): Promise<Page> =>
  data(await gql(listing(field), variables, apiKey))[field];
const addFramework = (identifier: string, visibility: 'PUBLIC' | 'PRIVATE', apiKey = user) =>
  gql(`mutation { addFramework(input: { identifier: "${identifier}", name: "${identifier}", currencyCode: "EUR", visibility: ${visibility} }) { id } }`, {}, apiKey).then(data);
const addProject = (identifier: string, framework: string, visibility: 'PUBLIC' | 'PRIVATE', apiKey = user) =>
  gql(`mutation { addProject(input: { identifier: "${identifier}", name: "${identifier}", currencyCode: "EUR", frameworkIdentifier: "${framework}", visibility: ${visibility} }) { message } }`, {}, apiKey).then(data);

/** Every page of a connection, checking what each call carried. */
async function walk(field: 'frameworks' | 'projects', first: number, apiKey = user): Promise<Page['nodes']> {
  const method = field === 'frameworks' ? 'getFrameworks' : 'getProjects';
  const seen: Page['nodes'] = [];
  let cursor: string | null = null;
  for (;;) {
    const p: Page = await page(field, { first, after: cursor }, apiKey);
    const sent = callsOf(method).at(-1);
    assert.deepEqual([sent.pageSize, sent.pageToken], [first, cursor ?? undefined]);
    seen.push(...p.nodes);
    if (!p.pageInfo.hasNextPage) return seen;
    assert.equal(p.nodes.length, first);
    cursor = p.pageInfo.endCursor;
  }
}

before(async () => {
  t = await startTestGateway({}, { taxonomy: true });
  user = t.userKey;
  other = (await t.createAccount('Other issuer')).apiKey;
  await t.taxonomy!.client.addCurrency({ currencyCode: 'EUR' }, { caller: t.operator });
  // Interleaved ids: the user's of both visibilities, the other account's public (listed) and private (never).
  for (let n = 1; n <= 3; n++) {
    await addFramework(`Z-MINE-${n}`, n === 2 ? 'PRIVATE' : 'PUBLIC');
    await addFramework(`A-THEIRS-${n}`, 'PUBLIC', other);
    await addFramework(`A-HIDDEN-${n}`, 'PRIVATE', other);
  }
  await addProject('P-MINE', 'Z-MINE-1', 'PRIVATE');
  await addProject('P-THEIRS', 'A-THEIRS-1', 'PUBLIC', other);
  await addProject('P-HIDDEN', 'A-HIDDEN-1', 'PRIVATE', other);
});
after(async () => {
  await t.stop();
});

describe('frameworks and projects connections paged by the taxonomy service', () => {
  test('first/after become page_size/page_token; pages cover the visible list once, in id order, never the whole list', async () => {
    const before = { frameworks: callsOf('getFrameworks').length, projects: callsOf('getProjects').length };
    const frameworks = await walk('frameworks', 2);
    assert.deepEqual(frameworks.map((f) => f.identifier), ['Z-MINE-1', 'A-THEIRS-1', 'Z-MINE-2', 'A-THEIRS-2', 'Z-MINE-3', 'A-THEIRS-3']);
    assert.deepEqual([...frameworks].sort((a, b) => Number(a.id) - Number(b.id)), frameworks);
    assert.equal((await page('frameworks', { first: 2 })).totalCount, 6);
    assert.deepEqual((await walk('frameworks', 1, other)).map((f) => f.identifier),
      ['Z-MINE-1', 'A-THEIRS-1', 'A-HIDDEN-1', 'A-THEIRS-2', 'A-HIDDEN-2', 'Z-MINE-3', 'A-THEIRS-3', 'A-HIDDEN-3']);
    assert.deepEqual((await walk('projects', 1)).map((p) => [p.identifier, p.owned]), [['P-MINE', true], ['P-THEIRS', false]]);
    const filtered = await page('frameworks', { first: 10, visibility: 'PRIVATE' });
    assert.deepEqual([filtered.nodes.map((f) => f.identifier), filtered.totalCount], [['Z-MINE-2'], 1]);
    assert.ok(callsOf('getFrameworks').slice(before.frameworks).every((c) => c.pageSize !== undefined), 'the whole frameworks list is never asked for');
    assert.ok(callsOf('getProjects').slice(before.projects).every((c) => c.pageSize !== undefined), 'the whole projects list is never asked for');
  });

  test('pages and cursors are those the gateway-side paging gave out, so cursors clients hold resume where they did', async () => {
    for (const field of ['frameworks', 'projects'] as const) {
      const all = (await page(field, { first: 1000 })).nodes;
      for (const first of [1, 2, 4]) {
        const byGateway = paginate(all, checkPage({ first }), (n) => n.id);
        assert.deepEqual(await page(field, { first }), byGateway);
        const next = paginate(all, checkPage({ first, after: byGateway.pageInfo.endCursor }), (n) => n.id);
        assert.deepEqual(await page(field, { first, after: byGateway.pageInfo.endCursor }), next);
      }
    }
  });

  test('a write answered to the caller is in its next page; a framework made private leaves the other account\'s pages', async () => {
    const one = await page('frameworks', { first: 3 });
    await addFramework('Z-MINE-4', 'PRIVATE');
    await addFramework('A-THEIRS-3', 'PRIVATE', other);
    const two = await page('frameworks', { first: 3, after: one.pageInfo.endCursor });
    assert.deepEqual([two.nodes.map((f) => f.identifier), two.totalCount, two.pageInfo.hasNextPage], [['A-THEIRS-2', 'Z-MINE-3', 'Z-MINE-4'], 6, false]);
    data(await gql('mutation { removeFramework(identifier: "Z-MINE-4") { message } }'));
    assert.equal((await page('frameworks', { first: 3, after: one.pageInfo.endCursor })).totalCount, 5);
  });

  test("bad first, a malformed cursor or another list's cursor are BAD_USER_INPUT before any call", async () => {
    const calls = () => callsOf('getFrameworks').length + callsOf('getProjects').length;
    const callsBefore = calls();
    const nftCursor = Buffer.from(JSON.stringify([1, 'a3f1c2d4-guid'])).toString('base64url');
    for (const field of ['frameworks', 'projects'] as const) {
      for (const [variables, message] of [
        [{ first: 0 }, 'first must be an integer from 1 to 1000, got 0.'],
        [{ first: 1001 }, 'first must be an integer from 1 to 1000, got 1001.'],
        [{ after: 'nope!' }, 'after must be a pageInfo.endCursor of this list.'],
        [{ after: nftCursor }, 'after must be a pageInfo.endCursor of this list.'],
      ] as const) {
        assert.deepEqual(onlyError(await gql(listing(field), variables)), { message, code: 'BAD_USER_INPUT' });
      }
    }
    assert.equal(calls(), callsBefore);
  });
});

describe('frameworks and projects connections ordered (orderBy) and paged backward (last/before) by the taxonomy service', () => {
  type OrderedPage = Page & { edges: { cursor: string }[]; pageInfo: { hasPreviousPage: boolean; startCursor: string | null } };
  const ordered = (field: 'frameworks' | 'projects') =>
    `query($first: Int, $after: String, $last: Int, $before: String, $orderBy: ${field === 'frameworks' ? 'Framework' : 'Project'}Order) {
      ${field}(year: 2024, visibility: PRIVATE, first: $first, after: $after, last: $last, before: $before, orderBy: $orderBy) {
        nodes { id identifier owned } edges { cursor } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount } }`;
  let third: string;
  const read = async (field: 'frameworks' | 'projects', variables: Record<string, unknown>): Promise<OrderedPage> => data(await gql(ordered(field), variables, third))[field];
  const identifiers = (p: Page) => p.nodes.map((n) => n.identifier);
  // An account of its own, read with the private filter: ids in the order O-2, O-1, O-3, O-4 (P-2, P-1, P-3).
  const lists = [
    { field: 'frameworks', method: 'getFrameworks', orderBy: { field: 'NAME', direction: 'DESC' }, service: { field: 'name', descending: true }, expected: ['O-3', 'O-2', 'O-4', 'O-1'] },
    { field: 'projects', method: 'getProjects', orderBy: { field: 'COUNTRY_CODE' }, service: { field: 'country_code', descending: false }, expected: ['P-3', 'P-2', 'P-1'] },
  ] as const;

  before(async () => {
    third = (await t.createAccount('Third issuer')).apiKey;
    for (const [identifier, name] of [['O-2', 'Beta'], ['O-1', 'Alpha'], ['O-3', 'Beta'], ['O-4', 'Alpha']]) {
      data(await gql(`mutation { addFramework(input: { identifier: "${identifier}", name: "${name}", currencyCode: "EUR", visibility: PRIVATE }) { id } }`, {}, third));
    }
    for (const [identifier, country] of [['P-2', '"SE"'], ['P-1', 'null'], ['P-3', '"DE"']]) {
      data(await gql(`mutation { addProject(input: { identifier: "${identifier}", name: "${identifier}", currencyCode: "EUR", frameworkIdentifier: "O-1", countryCode: ${country} }) { message } }`, {}, third));
    }
  });

  for (const list of lists) {
    test(`${list.field}: orderBy reaches the service as page_order; pages forward and backward follow the order, the id breaking ties`, async () => {
      const whole = await read(list.field, { first: 100, orderBy: list.orderBy });
      assert.deepEqual(callsOf(list.method).at(-1).pageOrder, list.service);
      assert.deepEqual([identifiers(whole), whole.totalCount], [list.expected, list.expected.length]);
      const forward: string[] = [];
      let after: string | null = null;
      do {
        const p: OrderedPage = await read(list.field, { first: 1, after, orderBy: list.orderBy });
        forward.push(...identifiers(p));
        after = p.pageInfo.hasNextPage ? p.pageInfo.endCursor : null;
      } while (after);
      assert.deepEqual(forward, list.expected);
      const last = await read(list.field, { last: 2, orderBy: list.orderBy });
      assert.equal(callsOf(list.method).at(-1).pageBefore !== undefined, true, 'the service pages backward itself');
      assert.deepEqual(
        [identifiers(last), last.pageInfo.hasPreviousPage, last.pageInfo.hasNextPage, last.edges.map((e) => e.cursor)],
        [list.expected.slice(-2), true, false, whole.edges.slice(-2).map((e) => e.cursor)],
      );
      const before = await read(list.field, { last: 10, before: last.pageInfo.startCursor, orderBy: list.orderBy });
      assert.deepEqual([identifiers(before), before.pageInfo.hasPreviousPage, before.pageInfo.hasNextPage], [list.expected.slice(0, -2), false, true]);
      // Without orderBy, backward pages are the forward ones (ascending id) with the same cursors.
      const byId = await read(list.field, { first: 100 });
      const lastById = await read(list.field, { last: 2 });
      assert.deepEqual([lastById.nodes, lastById.edges], [byId.nodes.slice(-2), byId.edges.slice(-2)]);
    });
  }

  test("a cursor of another order is BAD_USER_INPUT before any call; an unknown field is the schema's refusal", async () => {
    for (const list of lists) {
      const byName = await read(list.field, { first: 1, orderBy: { field: 'NAME' } });
      const callsBefore = callsOf(list.method).length;
      for (const [variables, message] of [
        [{ first: 1, after: byName.pageInfo.endCursor }, 'after must be a pageInfo.endCursor of this list in the same orderBy.'],
        [{ first: 1, after: byName.pageInfo.endCursor, orderBy: { field: 'NAME', direction: 'DESC' } }, 'after must be a pageInfo.endCursor of this list in the same orderBy.'],
        [{ last: 1, before: byName.pageInfo.endCursor, orderBy: { field: 'IDENTIFIER' } }, 'before must be a cursor of this list in the same orderBy.'],
        [{ first: 2, last: 2, orderBy: { field: 'NAME' } }, 'first and last cannot be given together: a page is read forward or backward.'],
      ] as const) {
        assert.deepEqual(onlyError(await gql(ordered(list.field), variables, third)), { message, code: 'BAD_USER_INPUT' });
      }
      assert.equal(callsOf(list.method).length, callsBefore);
      const unknown = await gql(ordered(list.field), { first: 1, orderBy: { field: 'VISIBILITY' } }, third);
      assert.match(unknown.body.errors?.[0]?.message ?? '', new RegExp(`Value "VISIBILITY" does not exist in "${list.field === 'frameworks' ? 'Framework' : 'Project'}OrderField" enum`));
    }
  });
});

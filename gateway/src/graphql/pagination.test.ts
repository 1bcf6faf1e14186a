import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DomainError } from '@green-impact/shared/errors';
import { startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { gqlAt } from '@green-impact/testing/gateway/graphql-calls';
import { checkPage, paginate } from './pagination.js';

const items = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id }));
const ids = (c: { nodes: { id: string }[] }) => c.nodes.map((n) => n.id);

describe('paginate', () => {
  test('walks a list page by page to the end', () => {
    const one = paginate(items, checkPage({ first: 2 }), (i) => i.id);
    assert.deepEqual([ids(one), one.pageInfo.hasNextPage, one.totalCount], [['a', 'b'], true, 5]);
    const two = paginate(items, checkPage({ first: 2, after: one.pageInfo.endCursor }), (i) => i.id);
    assert.deepEqual([ids(two), two.pageInfo.hasNextPage], [['c', 'd'], true]);
    const three = paginate(items, checkPage({ first: 2, after: two.pageInfo.endCursor }), (i) => i.id);
    assert.deepEqual([ids(three), three.pageInfo.hasNextPage], [['e'], false]);
    const past = paginate(items, checkPage({ first: 2, after: three.pageInfo.endCursor }), (i) => i.id);
    assert.deepEqual([ids(past), past.pageInfo], [[], { hasNextPage: false, hasPreviousPage: true, startCursor: null, endCursor: null }]);
  });

  test('edges carry a cursor per item that resumes right after it; pageInfo brackets the page', () => {
    const one = paginate(items, checkPage({ first: 3 }), (i) => i.id);
    assert.deepEqual(one.edges.map((e) => e.node), one.nodes);
    assert.deepEqual([one.pageInfo.hasPreviousPage, one.pageInfo.startCursor, one.pageInfo.endCursor], [false, one.edges[0]!.cursor, one.edges[2]!.cursor]);
    for (const [i, edge] of one.edges.entries()) {
      const rest = paginate(items, checkPage({ first: 5, after: edge.cursor }), (x) => x.id);
      assert.deepEqual(ids(rest), items.slice(i + 1).map((x) => x.id));
      assert.equal(rest.pageInfo.hasPreviousPage, true);
    }
  });

  test('resumes after the last item seen when items before it were removed or added', () => {
    const one = paginate(items, checkPage({ first: 2 }), (i) => i.id);
    const removed = items.filter((i) => i.id !== 'a');
    assert.deepEqual(ids(paginate(removed, checkPage({ first: 2, after: one.pageInfo.endCursor }), (i) => i.id)), ['c', 'd']);
    const added = [{ id: '0' }, ...items];
    assert.deepEqual(ids(paginate(added, checkPage({ first: 2, after: one.pageInfo.endCursor }), (i) => i.id)), ['c', 'd']);
    // The last item seen is gone: resume at the same position.
    const lost = items.filter((i) => i.id !== 'b');
    assert.deepEqual(ids(paginate(lost, checkPage({ first: 2, after: one.pageInfo.endCursor }), (i) => i.id)), ['d', 'e']);
  });

  test('bad page arguments are INVALID_ARGUMENT, BAD_USER_INPUT in GraphQL', () => {
    for (const [args, message] of [
      [{ first: 0 }, 'first must be an integer from 1 to 1000, got 0.'],
      [{ first: 1001 }, 'first must be an integer from 1 to 1000, got 1001.'],
      [{ after: 'not a cursor!' }, 'after must be a pageInfo.endCursor of this list.'],
      [{ after: Buffer.from('{"x":1}').toString('base64url') }, 'after must be a pageInfo.endCursor of this list.'],
      [{ after: Buffer.from('[-1,"a"]').toString('base64url') }, 'after must be a pageInfo.endCursor of this list.'],
    ] as const) {
      assert.throws(() => checkPage(args), (err: DomainError) => err.code === 'INVALID_ARGUMENT' && err.message === message);
    }
  });
});

describe('a paged root list over real HTTP', () => {
  let t: TestGateway;
  before(async () => {
    t = await startTestGateway();
  });
  after(async () => {
    await t.stop();
  });

  const gql = async (query: string, variables: Record<string, unknown> = {}) => (await gqlAt(t.baseUrl, query, variables, t.userKey)).body as { data?: any; errors?: { message: string; extensions: { code: string } }[] };

  test('users: pages of two, each resuming at the cursor, until hasNextPage is false', async () => {
    const add = Array.from({ length: 5 }, (_, i) => `u${i}: addUser(input: { userIdentifier: "page-${i}" }) { message }`).join(' ');
    assert.equal((await gql(`mutation { ${add} }`)).errors, undefined);
    const seen: string[] = [];
    let after: string | null = null;
    for (let pages = 1; ; pages++) {
      const res: { data?: any } = await gql('query($after: String) { users(first: 2, after: $after) { nodes { identifier } pageInfo { hasNextPage endCursor } totalCount } }', { after });
      const page = res.data.users;
      assert.equal(page.totalCount, 5);
      seen.push(...page.nodes.map((u: { identifier: string }) => u.identifier));
      if (!page.pageInfo.hasNextPage) {
        assert.equal(pages, 3);
        break;
      }
      after = page.pageInfo.endCursor;
    }
    assert.deepEqual(seen, ['page-0', 'page-1', 'page-2', 'page-3', 'page-4']);
    const bad = await gql('{ users(after: "nope") { nodes { identifier } } }');
    assert.deepEqual(bad.errors?.map((e) => [e.message, e.extensions.code]), [['after must be a pageInfo.endCursor of this list.', 'BAD_USER_INPUT']]);
  });
});

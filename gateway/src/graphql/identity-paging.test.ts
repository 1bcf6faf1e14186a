import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { data, gqlAt, onlyError, type GqlResponse } from '@green-impact/testing/gateway/graphql-calls';
import { checkPage, paginate } from './pagination.js';

/**
 * The users and accounts connections are paged by the identity service: first/after go to GetUsers /
 * ListAccounts as page_size/page_token (seen at the service's gRPC face), the whole list is never asked
 * for, and the cursors are those the gateway-side paging gave out.
 */

let t: TestGateway;
const gql = (query: string, variables: Record<string, unknown> = {}, apiKey = t.userKey): Promise<GqlResponse> => gqlAt(t.baseUrl, query, variables, apiKey);
const requests = (method: string) => t.identity.calls.filter((c) => c.method === method).map((c) => JSON.parse(JSON.stringify(c.request ?? {})));
type Page = { nodes: { id: string; name: string }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null }; totalCount: number };
const USERS = 'query($first: Int, $after: String, $user: String) { users(first: $first, after: $after, userIdentifier: $user) { nodes { id name: identifier } edges { cursor node { id name: identifier } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount } }';
const ACCOUNTS = 'query($first: Int, $after: String) { accounts(first: $first, after: $after) { nodes { id name } edges { cursor node { id name } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount } }';
const users = async (variables: Record<string, unknown>): Promise<Page> => data(await gql(USERS, variables))['users'];
const accounts = async (variables: Record<string, unknown>): Promise<Page> => data(await gql(ACCOUNTS, variables, t.operatorKey))['accounts'];

before(async () => {
  t = await startTestGateway();
  const add = Array.from({ length: 5 }, (_, i) => `u${i}: addUser(input: { userIdentifier: "user-${i}" }) { message }`).join(' ');
  data(await gql(`mutation { ${add} }`));
  data(await gql('mutation { other: addUser(input: { userIdentifier: "theirs" }) { message } }', {}, t.operatorKey));
  data(await gql('mutation { a: createAccount(input: { name: "Beta", role: USER }) { apiKey } b: createAccount(input: { name: "Gamma", role: USER }) { apiKey } }', {}, t.operatorKey));
});
after(async () => {
  await t.stop();
});

describe('users and accounts connections paged by the identity service', () => {
  test('users: first/after become page_size/page_token; pages cover the account once, in id order, never the whole list', async () => {
    const before = requests('getUsers').length;
    const seen: string[] = [];
    let cursor: string | null = null;
    for (;;) {
      const p: Page = await users({ first: 2, after: cursor });
      assert.equal(p.totalCount, 5);
      assert.deepEqual([requests('getUsers').at(-1).pageSize, requests('getUsers').at(-1).pageToken], [2, cursor ?? undefined]);
      seen.push(...p.nodes.map((n) => n.name));
      if (!p.pageInfo.hasNextPage) break;
      cursor = p.pageInfo.endCursor;
    }
    assert.deepEqual(seen, ['user-0', 'user-1', 'user-2', 'user-3', 'user-4']);
    const one = await users({ first: 10, user: 'user-3' });
    assert.deepEqual([one.nodes.map((n) => n.name), one.totalCount], [['user-3'], 1]);
    assert.equal(requests('getUsers').at(-1).userIdentifier, 'user-3');
    assert.ok(requests('getUsers').slice(before).every((c) => c.pageSize !== undefined), 'the whole list is never asked for');
  });

  test('accounts: pages in creation order with the cursors of the gateway-side paging; operators only', async () => {
    const before = requests('listAccounts').length;
    const all = (await accounts({ first: 1000 })).nodes;
    assert.deepEqual(all.map((a) => a.name), ['bootstrap operator', 'Acme', 'Beta', 'Gamma']);
    for (const first of [1, 2, 4]) {
      const byGateway = paginate(all, checkPage({ first }), (n) => n.id);
      assert.deepEqual(await accounts({ first }), byGateway);
      assert.deepEqual(await accounts({ first, after: byGateway.pageInfo.endCursor }), paginate(all, checkPage({ first, after: byGateway.pageInfo.endCursor }), (n) => n.id));
    }
    assert.ok(requests('listAccounts').slice(before).every((c) => c.pageSize !== undefined), 'the whole list is never asked for');
    assert.deepEqual(onlyError(await gql(ACCOUNTS, {})), { message: 'Not authorized.', code: 'FORBIDDEN' });
  });

  test("bad first, a malformed cursor or another list's cursor are BAD_USER_INPUT", async () => {
    const calls = () => requests('getUsers').length + requests('listAccounts').length;
    const callsBefore = calls();
    const accountCursor = Buffer.from(JSON.stringify([1, t.user.accountId])).toString('base64url');
    const userCursor = Buffer.from(JSON.stringify([1, '3'])).toString('base64url');
    const refused = { message: 'after must be a pageInfo.endCursor of this list.', code: 'BAD_USER_INPUT' };
    assert.deepEqual(onlyError(await gql(USERS, { first: 1001 })), { message: 'first must be an integer from 1 to 1000, got 1001.', code: 'BAD_USER_INPUT' });
    assert.deepEqual(onlyError(await gql(USERS, { after: accountCursor })), refused);
    assert.deepEqual(onlyError(await gql(ACCOUNTS, { after: userCursor }, t.operatorKey)), refused);
    assert.deepEqual(onlyError(await gql(ACCOUNTS, { after: 'nope!' }, t.operatorKey)), refused);
    assert.equal(calls(), callsBefore, 'refused before any call');
    // An id of the right shape that names no account: the service refuses it.
    const unknown = Buffer.from(JSON.stringify([1, randomUUID()])).toString('base64url');
    assert.deepEqual(onlyError(await gql(ACCOUNTS, { after: unknown }, t.operatorKey)), { message: 'page_token must be a next_page_token of this listing.', code: 'BAD_USER_INPUT' });
  });
});

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonHeaders, startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { postCall } from '@green-impact/testing/gateway/v1-calls';
import { data, gqlAt, onlyError } from '@green-impact/testing/gateway/graphql-calls';

/**
 * The identity declarations against the real identity service (catalogue/identity/): the service owns the
 * bounds and the e-mail format, and its refusals reach /v1/call under the spec's parameter names and
 * GraphQL under the caller's own labels (userErrors' field); the gateway keeps only the type checks and
 * the spec's missing-text.
 */

const ESG = 'SVC.ESG.Credits';
let t: TestGateway;

before(async () => {
  t = await startTestGateway();
});
after(async () => {
  await t?.stop();
});

const call = (operation: string, parameters: Record<string, unknown>) => postCall(t.baseUrl, { solution: ESG, operation, parameters }, jsonHeaders(t.userKey));

async function refused(operation: string, parameters: Record<string, unknown>, message: string) {
  const res = await call(operation, parameters);
  assert.equal(res.status, 400, res.text);
  assert.equal(res.json['code'], 'INVALID_ARGUMENT', res.text);
  assert.equal(res.json['message'], message);
}

describe('/v1/call: the service\'s rules under the spec\'s names', () => {
  test('lengths, the e-mail address and the keys are the identity service\'s refusals', async () => {
    const long = 'u'.repeat(256);
    await refused('removeUser', { user_identifier: long }, 'user_identifier must be at most 255 characters.');
    await refused('getUsers', { user_identifier: long }, 'user_identifier must be at most 255 characters.');
    await refused('addUser', { user_identifier: 'u1', user_email: 'not-an-address' }, 'user_email must be an e-mail address.');
    await refused('addUser', { user_identifier: 'u1', user_first_name: 'n'.repeat(256) }, 'user_first_name must be at most 255 characters.');
    await refused('addUser', { user_identifier: 'u1', encryption_key: 'short' }, 'encryption_key must be 64 hexadecimal characters, as generateEncryptionKey returns.');
    await refused('addGroupToUser', { user_identifier: 'u1', group: 'g'.repeat(256) }, 'group must be at most 255 characters.');
    await refused('addInvestorToUser', { user_identifier: 'u1', investor_identifier: long }, 'investor_identifier must be at most 255 characters.');
    // The misspelt alias of decryption_key reaches the service as decryption_key.
    await refused('getUsers', { depryption_key: 'k' }, 'decryption_key must be 64 hexadecimal characters, as generateEncryptionKey returns.');
  });

  test('the gateway keeps the spec\'s missing-text and the type checks', async () => {
    await refused('addUser', { user_first_name: 'Ann' }, 'User identifier is missing.');
    await refused('removeUser', {}, 'user_identifier is required.');
    await refused('addUser', { user_identifier: 'u1', user_role: 'root' }, 'user_role must be user or admin.');
    await refused('removeUser', { user_identifier: 'u1\r\nX-Injected: 1' }, 'user_identifier must not contain control characters.');
  });

  test('a user is added, read, grouped and removed with the spec\'s rows and texts', async () => {
    assert.deepEqual((await call('getUsers', {})).json, { message: 'No users are registered.' });
    assert.deepEqual((await call('addUser', { user_identifier: 'ann', user_first_name: 'Ann', user_email: 'ann@example.org', user_role: 'ADMIN' })).json, { message: 'User added.' });
    assert.deepEqual((await call('addGroupToUser', { user_identifier: 'ann', group: 'investors' })).json, { message: 'Group added to user.' });
    const [row] = (await call('getUsers', { user_identifier: 'ann' })).json as unknown as Record<string, unknown>[];
    assert.deepEqual({ ...row, user_id: 0, user_groups: (row!['user_groups'] as { group: string }[]).map((g) => g.group) }, {
      user_id: 0,
      user_identifier: 'ann',
      user_first_name: 'Ann',
      user_last_name: null,
      user_email: 'ann@example.org',
      user_role: 'admin',
      user_groups: ['investors'],
    });
    const key = (await call('generateEncryptionKey', {})).json as unknown as { message: string };
    assert.match(key.message, /^[0-9a-f]{64}$/);
    assert.deepEqual((await call('removeUser', { user_identifier: 'ann' })).json, { message: 'User removed.' });
  });
});

describe('GraphQL: the same rules, labelled as the caller named the field', () => {
  const ADD = `mutation($input: AddUserInput!) { addUser(input: $input) { user { identifier email } userErrors { path message } } }`;

  test('a refusal of the service names the input field', async () => {
    const bad = data(await gqlAt(t.baseUrl, ADD, { input: { userIdentifier: 'bo', email: 'bo@nowhere' } }, t.userKey));
    assert.deepEqual(bad['addUser'].userErrors, [{ path: ['input', 'email'], message: 'input.email must be an e-mail address.' }]);
    const long = data(await gqlAt(t.baseUrl, ADD, { input: { userIdentifier: 'b'.repeat(256) } }, t.userKey));
    assert.deepEqual(long['addUser'].userErrors, [{ path: ['input', 'userIdentifier'], message: 'input.userIdentifier must be at most 255 characters.' }]);
    // Without userErrors selected, the refusal is the response's error, with the same label and code.
    const unselected = await gqlAt(t.baseUrl, 'mutation ($input: AddUserInput!) { addUser(input: $input) { message } }', { input: { userIdentifier: 'u9', email: 'nope' } }, t.userKey);
    assert.deepEqual(onlyError(unselected), { message: 'input.email must be an e-mail address.', code: 'BAD_USER_INPUT' });
    const ok = data(await gqlAt(t.baseUrl, ADD, { input: { userIdentifier: 'bo', email: 'bo@example.org' } }, t.userKey));
    assert.deepEqual(ok['addUser'], { user: { identifier: 'bo', email: 'bo@example.org' }, userErrors: [] });
  });

  test('createAccount: the service\'s text, the field as the caller named it', async () => {
    const CREATE = `mutation($input: CreateAccountInput!) { createAccount(input: $input) { account { name role } apiKey userErrors { path message } } }`;
    const res = data(await gqlAt(t.baseUrl, CREATE, { input: { name: 'n'.repeat(256), role: 'USER' } }, t.operatorKey));
    assert.deepEqual(res['createAccount'].userErrors, [{ path: ['input', 'name'], message: 'input.name must be 1 to 255 characters.' }]);
    const made = data(await gqlAt(t.baseUrl, CREATE, { input: { name: 'Beta', role: 'USER' } }, t.operatorKey));
    assert.deepEqual(made['createAccount'].account, { name: 'Beta', role: 'USER' });
    assert.match(made['createAccount'].apiKey, /^gi_/);
  });

  test('accounts and users are paged by the service', async () => {
    const accounts = data(await gqlAt(t.baseUrl, `{ accounts(first: 1) { totalCount nodes { name } pageInfo { hasNextPage endCursor } } }`, {}, t.operatorKey))['accounts'];
    assert.equal(accounts.nodes.length, 1);
    assert.equal(accounts.pageInfo.hasNextPage, accounts.totalCount > 1);
    const next = data(await gqlAt(t.baseUrl, `query($a: String) { accounts(first: 1, after: $a) { nodes { name } } }`, { a: accounts.pageInfo.endCursor }, t.operatorKey))['accounts'];
    assert.notEqual(next.nodes[0]?.name, accounts.nodes[0].name);
    const keys = data(await gqlAt(t.baseUrl, `{ apiKeys { id revokedAt } }`, {}, t.userKey))['apiKeys'];
    assert.ok(keys.some((k: { id: string }) => k.id === t.userKeyId));
  });
});

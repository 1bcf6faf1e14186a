import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { callsDuring as callsOf, data, gqlAt, onlyError, type GqlResponse } from '@green-impact/testing/gateway/graphql-calls';

/**
 * User, group and investor-access changes answer payloads carrying the user as users(userIdentifier,
 * decryptionKey) shows it, or the user's entry of investorsOfUser(userIdentifier) (payloads.ts), against the
 * real identity and portfolio services over gRPC. The user's key and the operator's belong to different
 * accounts; user and investor names are PII, shown in clear only with the change's own key.
 */

const KEY = 'd'.repeat(64);
const MASK = '********';

let t: TestGateway;

const gql = (query: string, variables: Record<string, unknown> = {}, apiKey: string | null = t.userKey): Promise<GqlResponse> =>
  gqlAt(t.baseUrl, query, variables, apiKey);
/** Calls the identity service receives besides authenticating the key. */
async function identityCalls(run: () => Promise<unknown>) {
  const { authenticate: _authenticate, ...calls } = await callsOf([t.identity], run);
  return calls;
}
before(async () => {
  t = await startTestGateway({}, { portfolio: true });
});
after(async () => {
  await t.stop();
});

const USER = 'id identifier firstName lastName email role groups { name } encrypted masked';

/** The user as users(userIdentifier, decryptionKey) shows it, read by a separate request. */
async function userRead(userIdentifier: string, decryptionKey?: string, apiKey = t.userKey) {
  const res = data(await gql(`query ($u: String!, $k: String) { users(userIdentifier: $u, decryptionKey: $k) { nodes { ${USER} } } }`, { u: userIdentifier, k: decryptionKey }, apiKey));
  return res['users'].nodes[0];
}

describe('identity payloads', () => {
  test('addUser carries the user as a following read shows it: with its own encryptionKey in clear', async () => {
    const res = data(
      await gql(
        `mutation ($key: String!) {
          e: addUser(input: { userIdentifier: "u-enc", firstName: "Eva", lastName: "Secret", email: "eva@example.org", role: ADMIN, encryptionKey: $key }) { message id user { ${USER} } }
          p: addUser(input: { userIdentifier: "u-plain", firstName: "Per" }) { user { ${USER} } }
        }`,
        { key: KEY },
      ),
    );
    assert.equal(res['e'].message, 'User added.');
    assert.deepEqual(res['e'].user, await userRead('u-enc', KEY));
    assert.deepEqual(res['e'].user, { id: res['e'].id, identifier: 'u-enc', firstName: 'Eva', lastName: 'Secret', email: 'eva@example.org', role: 'ADMIN', groups: [], encrypted: true, masked: false });
    assert.deepEqual(res['p'].user, await userRead('u-plain'));
    assert.equal(res['p'].user.firstName, 'Per');
  });

  test('group changes carry the user without a key: encrypted names masked, as users(userIdentifier) shows them', async () => {
    const res = data(
      await gql(`mutation {
        a: addGroupToUser(userIdentifier: "u-enc", group: "investors") { message user { ${USER} } }
        b: addGroupToUser(userIdentifier: "u-enc", group: "agents") { user { groups { name } } }
        r: removeGroupFromUser(userIdentifier: "u-enc", group: "investors") { user { groups { name } } }
      }`),
    );
    assert.equal(res['a'].message, 'Group added to user.');
    assert.deepEqual(res['a'].user, { ...(await userRead('u-enc')), groups: [{ name: 'investors' }] });
    assert.deepEqual([res['a'].user.firstName, res['a'].user.lastName, res['a'].user.email, res['a'].user.masked], [MASK, MASK, MASK, true]);
    assert.deepEqual(res['b'].user.groups, [{ name: 'investors' }, { name: 'agents' }], 'each change reads after itself');
    assert.deepEqual(res['r'].user.groups, [{ name: 'agents' }]);
  });

  test("investor access changes carry the user's entry of investorsOfUser, investor names masked without a key", async () => {
    data(await gql(`mutation { addInvestor(input: { identifier: "inv_u1", name: "Ida Investor", currencyCode: "EUR", encryptionKey: "${KEY}" }) { id } }`));
    const res = data(
      await gql(`mutation {
        a: addInvestorToUser(userIdentifier: "u-plain", investorIdentifier: "inv_u1") { message userInvestors { userId userIdentifier investors { id identifier name } } }
        b: addInvestorToUser(userIdentifier: "u-plain", investorIdentifier: "inv_none") { userInvestors { investors { identifier name } } }
      }`),
    );
    const read = data(await gql('{ investorsOfUser(userIdentifier: "u-plain") { userId userIdentifier investors { id identifier name } } }'))['investorsOfUser'][0];
    assert.equal(res['a'].message, 'Investor added to user.');
    assert.deepEqual(res['a'].userInvestors, { ...read, investors: read.investors.slice(0, 1) });
    assert.equal(res['a'].userInvestors.investors[0].name, MASK);
    assert.doesNotMatch(JSON.stringify(res), /Ida Investor/);
    assert.deepEqual(res['b'].userInvestors.investors, [{ identifier: 'inv_u1', name: MASK }, { identifier: 'inv_none', name: null }]);
    const removed = data(await gql('mutation { removeInvestorFromUser(userIdentifier: "u-plain", investorIdentifier: "inv_u1") { userInvestors { investors { identifier } } } }'));
    assert.deepEqual(removed['removeInvestorFromUser'].userInvestors.investors, [{ identifier: 'inv_none' }]);
  });

  test('the entity is read only when selected; removeUser reads nothing unless removedId is selected', async () => {
    assert.deepEqual(await identityCalls(() => gql('mutation { addUser(input: { userIdentifier: "u-quiet" }) { message id } }')), { addUser: 1 });
    assert.deepEqual(await identityCalls(() => gql('mutation { addGroupToUser(userIdentifier: "u-quiet", group: "agents") { message } }')), { addGroupToUser: 1 });
    assert.deepEqual(await identityCalls(() => gql('mutation { removeUser(userIdentifier: "u-quiet") { message } }')), { removeUser: 1 });
  });

  test('removeUser carries the removed user\'s id and no user', async () => {
    const added = data(await gql('mutation { addUser(input: { userIdentifier: "u-gone", firstName: "Gus" }) { id } }'));
    const res = data(await gql('mutation { removeUser(userIdentifier: "u-gone") { message id removedId } }'));
    // id is what the service answers (identity names the user it removed), removedId the gateway's read before the removal.
    assert.deepEqual(res['removeUser'], { message: 'User removed.', id: added['addUser'].id, removedId: added['addUser'].id });
    // Gone: identity answers a read of it as of any user it does not have.
    assert.deepEqual(onlyError(await gql('{ users(userIdentifier: "u-gone") { nodes { id } } }')), { message: 'No such user.', code: 'NOT_FOUND' });
  });

  test("another account's users are never revealed through a payload", async () => {
    const denied = await gql(`mutation { addGroupToUser(userIdentifier: "u-enc", group: "agents") { user { ${USER} } } }`, {}, t.operatorKey);
    assert.equal(denied.body.data, null);
    assert.equal(denied.body.errors?.[0]?.extensions?.['code'], 'NOT_FOUND');
    const removal = await gql('mutation { removeUser(userIdentifier: "u-enc") { removedId } }', {}, t.operatorKey);
    assert.equal(removal.body.data, null);
    assert.doesNotMatch(JSON.stringify([denied.body, removal.body]), /Eva|Secret|eva@example/);
    // The other account's own user of the same identifier: its payload shows that one, never acme's.
    const own = data(await gql('mutation { addUser(input: { userIdentifier: "u-enc", firstName: "Olle" }) { user { firstName encrypted } } }', {}, t.operatorKey));
    assert.deepEqual(own['addUser'].user, { firstName: 'Olle', encrypted: false });
    assert.equal((await userRead('u-enc', KEY)).firstName, 'Eva');
  });

  test("revokeApiKey and generateEncryptionKey answer payloads: a caller's mistake in userErrors with a path (issue 29)", async () => {
    const REVOKE = 'mutation($id: ID!) { revokeApiKey(keyId: $id) { key { id } userErrors { message code path } } }';
    const unknown = await gql(REVOKE, { id: '00000000-0000-4000-8000-000000000000' });
    assert.equal(unknown.body.errors, undefined, JSON.stringify(unknown.body.errors));
    assert.deepEqual(data(unknown)['revokeApiKey'], { key: null, userErrors: [{ message: 'No such API key.', code: 'NOT_FOUND', path: null }] });
    const long = data(await gql(REVOKE, { id: 'k'.repeat(256) }))['revokeApiKey'];
    assert.deepEqual(long, { key: null, userErrors: [{ message: 'keyId must be at most 255 characters.', code: 'BAD_USER_INPUT', path: ['keyId'] }] });
    // Another account's key is as unknown as one that does not exist, and stays active.
    const other = await t.createAccount('Other keys');
    assert.deepEqual(data(await gql(REVOKE, { id: other.keyId }))['revokeApiKey'].userErrors.map((e: { code: string }) => e.code), ['NOT_FOUND']);
    assert.equal(data(await gql('{ me { name } }', {}, other.apiKey))['me'].name, 'Other keys');
    // Not selected: the same mistake in errors, as before.
    assert.deepEqual(onlyError(await gql('mutation($id: ID!) { revokeApiKey(keyId: $id) { key { id } } }', { id: other.keyId })), { message: 'No such API key.', code: 'NOT_FOUND' });
    const key = data(await gql('mutation { generateEncryptionKey { encryptionKey userErrors { message } } }'))['generateEncryptionKey'];
    assert.match(key.encryptionKey, /^[0-9a-f]{64}$/);
    assert.deepEqual(key.userErrors, []);
  });
});

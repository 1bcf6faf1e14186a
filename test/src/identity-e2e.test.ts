import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import type { RunningSystem } from '@green-impact/embedded/system';
import { graphqlClient, startTestSystem } from './support/system.js';
import { conformingV1Client } from './support/answer-conformance.js';

const ESG = 'SVC.ESG.Credits';
const BOOTSTRAP = 'k';

for (const db of testDatabases) {
  describe(`identity end to end through the gateway on ${db.name}`, { skip: await skipReason(db) }, () => {
    let system: RunningSystem;
    let opCall: ReturnType<typeof conformingV1Client>;
    let aliceKey: string;
    let bobKey: string;

    before(async () => {
      system = await startTestSystem(db, BOOTSTRAP);
      opCall = conformingV1Client(system.gatewayUrl, BOOTSTRAP);
    });
    after(async () => system?.stop());

    it('answers getGroups with the seven groups for the bootstrap key', async () => {
      const r = await opCall(ESG, 'getGroups');
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.map((g: { group: string }) => g.group), [
        'bankers', 'investors', 'capitalists', 'issuers', 'agents', 'exchanges', 'regulators',
      ]);
    });

    it('refuses calls without a key or with a bad key', async () => {
      const none = await fetch(`${system.gatewayUrl}/v1/call`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ solution: ESG, operation: 'getGroups' }),
      });
      assert.equal(none.status, 401);
      assert.deepEqual(await none.json(), { message: 'Please submit client identifier.', code: 'UNAUTHENTICATED' });
      const bad = await conformingV1Client(system.gatewayUrl, 'wrong')(ESG, 'getGroups');
      assert.equal(bad.status, 401);
    });

    it('creates accounts through GraphQL whose keys work on /v1/call; only operators may', async () => {
      const gql = graphqlClient(system.gatewayUrl, BOOTSTRAP);
      const create = `mutation($name: String!) { createAccount(input: {name: $name, role: USER}) { account { id name role } apiKey } }`;
      const a = await gql(create, { name: 'Alice Issuer' });
      assert.equal(a.errors, undefined, JSON.stringify(a.errors));
      assert.equal(a.data.createAccount.account.role, 'USER');
      aliceKey = a.data.createAccount.apiKey;
      bobKey = (await gql(create, { name: 'Bob Investor' })).data.createAccount.apiKey;
      const me = await graphqlClient(system.gatewayUrl, aliceKey)('{ me { name role } }');
      assert.deepEqual(me.data, { me: { name: 'Alice Issuer', role: 'USER' } });
      const denied = await graphqlClient(system.gatewayUrl, aliceKey)(create, { name: 'Mallory' });
      assert.equal(denied.errors?.[0]?.extensions?.code, 'FORBIDDEN');
      assert.equal(denied.errors?.[0]?.message, 'Not authorized.');
    });

    it('rotates and revokes keys through GraphQL', async () => {
      const gql = graphqlClient(system.gatewayUrl, bobKey);
      const rotated = await gql('mutation { rotateApiKey { apiKey key { id } revokedKeyIds } }');
      assert.equal(rotated.errors, undefined, JSON.stringify(rotated.errors));
      assert.equal((await conformingV1Client(system.gatewayUrl, bobKey)(ESG, 'getGroups')).status, 401);
      bobKey = rotated.data.rotateApiKey.apiKey;
      assert.equal((await conformingV1Client(system.gatewayUrl, bobKey)(ESG, 'getGroups')).status, 200);
      const extra = await graphqlClient(system.gatewayUrl, bobKey)('mutation { issueApiKey { apiKey key { id } } }');
      const revoked = await graphqlClient(system.gatewayUrl, bobKey)('mutation($id: ID!) { revokeApiKey(keyId: $id) { key { revokedAt } } }', {
        id: extra.data.issueApiKey.key.id,
      });
      assert.ok(revoked.data.revokeApiKey.key.revokedAt);
      assert.equal((await conformingV1Client(system.gatewayUrl, extra.data.issueApiKey.apiKey)(ESG, 'getGroups')).status, 401);
    });

    it('runs every §4.11 operation through /v1/call with the spec messages', async () => {
      const alice = conformingV1Client(system.gatewayUrl, aliceKey);
      assert.deepEqual((await alice(ESG, 'getUsers', {})).body, { message: 'No users are registered.' });
      assert.deepEqual((await alice(ESG, 'getInvestorsOfUser', {})).body, { message: 'No users are registered.' });
      const missing = await alice(ESG, 'addUser', { user_first_name: 'Ada' });
      assert.equal(missing.status, 400);
      assert.equal(missing.body.message, 'User identifier is missing.');
      assert.equal((await alice(ESG, 'addUser', { user_identifier: 'ada', user_first_name: 'Ada', user_last_name: 'Lovelace', user_email: 'ada@example.org', user_role: 'admin' })).status, 200);
      const users = await alice(ESG, 'getUsers', { user_identifier: 'ada' });
      assert.deepEqual(users.body, [
        { user_id: users.body[0].user_id, user_identifier: 'ada', user_first_name: 'Ada', user_last_name: 'Lovelace', user_email: 'ada@example.org', user_role: 'admin', user_groups: [] },
      ]);
      assert.equal((await alice(ESG, 'addGroupToUser', { user_identifier: 'ada', group: 'issuers' })).status, 200);
      const dupGroup = await alice(ESG, 'addGroupToUser', { user_identifier: 'ada', group: 'issuers' });
      assert.deepEqual([dupGroup.status, dupGroup.body.message], [409, 'Group is already connected to user.']);
      assert.deepEqual((await alice(ESG, 'getUsers', { user_identifier: 'ada' })).body[0].user_groups, [{ group_id: 4, group: 'issuers' }]);
      const noUserGroup = await alice(ESG, 'removeGroupFromUser', { user_identifier: 'nobody', group: 'issuers' });
      assert.deepEqual([noUserGroup.status, noUserGroup.body.message], [404, 'No such user.']);
      assert.equal((await alice(ESG, 'removeGroupFromUser', { user_identifier: 'ada', group: 'issuers' })).status, 200);
      assert.equal((await alice(ESG, 'addInvestorToUser', { user_identifier: 'ada', investor_identifier: 'inv-1' })).status, 200);
      const dupInv = await alice(ESG, 'addInvestorToUser', { user_identifier: 'ada', investor_identifier: 'inv-1' });
      assert.deepEqual([dupInv.status, dupInv.body.message], [409, 'Investor is already connected to user.']);
      const ofUser = await alice(ESG, 'getInvestorsOfUser', { user_identifier: 'ada' });
      assert.equal(ofUser.body[0].user_identifier, 'ada');
      assert.deepEqual(ofUser.body[0].investors.map((i: { investor_identifier: string }) => i.investor_identifier), ['inv-1']);
      const noInv = await alice(ESG, 'removeInvestorFromUser', { user_identifier: 'ada', investor_identifier: 'inv-9' });
      assert.deepEqual([noInv.status, noInv.body.message], [404, 'No such investor.']);
      assert.equal((await alice(ESG, 'removeInvestorFromUser', { user_identifier: 'ada', investor_identifier: 'inv-1' })).status, 200);
      const noUser = await alice(ESG, 'removeUser', { user_identifier: 'nobody' });
      assert.deepEqual([noUser.status, noUser.body.message], [404, 'No such user.']);
    });

    it('encrypts user PII with generateEncryptionKey and reads it in clear only with the key', async () => {
      const alice = conformingV1Client(system.gatewayUrl, aliceKey);
      const key = (await alice(ESG, 'generateEncryptionKey')).body.message;
      assert.match(key, /^[0-9a-f]{64}$/);
      await alice(ESG, 'addUser', { user_identifier: 'grace', user_first_name: 'Grace', user_email: 'grace@example.org', encryption_key: key });
      const masked = (await alice(ESG, 'getUsers', { user_identifier: 'grace' })).body[0];
      assert.notEqual(masked.user_first_name, 'Grace');
      assert.notEqual(masked.user_email, 'grace@example.org');
      const clear = (await alice(ESG, 'getUsers', { user_identifier: 'grace', decryption_key: key })).body[0];
      assert.deepEqual([clear.user_first_name, clear.user_email], ['Grace', 'grace@example.org']);
      const other = (await alice(ESG, 'generateEncryptionKey')).body.message;
      const wrong = await alice(ESG, 'getUsers', { user_identifier: 'grace', depryption_key: other });
      assert.equal(wrong.status, 400);
      assert.match(wrong.body.message, /decryption key/i);
    });

    it('shows a second account none of the first account’s users, on both faces', async () => {
      const bob = conformingV1Client(system.gatewayUrl, bobKey);
      assert.deepEqual((await bob(ESG, 'getUsers', {})).body, { message: 'No users are registered.' });
      const r = await bob(ESG, 'removeUser', { user_identifier: 'ada' });
      assert.deepEqual([r.status, r.body.message], [404, 'No such user.']);
      const g = await graphqlClient(system.gatewayUrl, bobKey)('{ users { nodes { identifier } } }');
      assert.deepEqual(g.data, { users: { nodes: [] } });
      const stillThere = await conformingV1Client(system.gatewayUrl, aliceKey)(ESG, 'getUsers', { user_identifier: 'ada' });
      assert.equal(stillThere.status, 200);
    });

    it('runs the same operations through GraphQL', async () => {
      const gql = graphqlClient(system.gatewayUrl, bobKey);
      const added = await gql(`mutation { addUser(input: {userIdentifier: "carol", firstName: "Carol", role: ADMIN}) { message } }`);
      assert.equal(added.errors, undefined, JSON.stringify(added.errors));
      await gql(`mutation { addGroupToUser(userIdentifier: "carol", group: "investors") { message } }`);
      const dup = await gql(`mutation { addGroupToUser(userIdentifier: "carol", group: "investors") { message } }`);
      assert.equal(dup.errors?.[0]?.extensions?.code, 'CONFLICT');
      assert.equal(dup.errors?.[0]?.message, 'Group is already connected to user.');
      await gql(`mutation { addInvestorToUser(userIdentifier: "carol", investorIdentifier: "inv-7") { message } }`);
      const read = await gql(`{ users(userIdentifier: "carol") { nodes { identifier firstName role groups { id name } } } investorsOfUser { userIdentifier investors { identifier } } groups { name } }`);
      assert.equal(read.errors, undefined, JSON.stringify(read.errors));
      assert.deepEqual(read.data.users.nodes, [{ identifier: 'carol', firstName: 'Carol', role: 'ADMIN', groups: [{ id: '2', name: 'investors' }] }]);
      assert.deepEqual(read.data.investorsOfUser, [{ userIdentifier: 'carol', investors: [{ identifier: 'inv-7' }] }]);
      assert.equal(read.data.groups.length, 7);
      const key = (await gql('mutation { generateEncryptionKey { encryptionKey } }')).data.generateEncryptionKey.encryptionKey;
      assert.match(key, /^[0-9a-f]{64}$/);
      await gql(`mutation { removeInvestorFromUser(userIdentifier: "carol", investorIdentifier: "inv-7") { message } }`);
      await gql(`mutation { removeGroupFromUser(userIdentifier: "carol", group: "investors") { message } }`);
      const removed = await gql(`mutation { removeUser(userIdentifier: "carol") { message } }`);
      assert.equal(removed.data.removeUser.message, 'User removed.');
      const gone = await gql(`mutation { removeUser(userIdentifier: "carol") { message } }`);
      assert.deepEqual([gone.errors?.[0]?.extensions?.code, gone.errors?.[0]?.message], ['NOT_FOUND', 'No such user.']);
    });
  });
}

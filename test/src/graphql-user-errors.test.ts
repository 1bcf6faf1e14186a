import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import type { RunningSystem } from '@green-impact/embedded/system';
import { createUserAccount, graphqlClient, startTestSystem } from './support/system.js';

const OPERATOR = 'graphql-user-errors-operator-key';
const USER_ERRORS = 'userErrors { message code path field }';

/**
 * User errors as data (issues 21 and 29, gateway/src/graphql/user-errors.ts) against the whole system: a change
 * that selects `userErrors` gets the caller's mistake in its payload — the same message and code the
 * response's errors carry when it is not selected — with nothing written and the request's later changes
 * still made; a refusal of the key stays a response error whatever is selected. On PGlite and PostgreSQL.
 */
for (const db of testDatabases) {
  describe(`GraphQL user errors on ${db.name}`, { skip: await skipReason(db) }, () => {
    let system: RunningSystem;
    let operator: ReturnType<typeof graphqlClient>;
    let user: ReturnType<typeof graphqlClient>;

    before(async () => {
      system = await startTestSystem(db, OPERATOR);
      operator = graphqlClient(system.gatewayUrl, OPERATOR);
      user = graphqlClient(system.gatewayUrl, await createUserAccount(system.gatewayUrl, OPERATOR, 'User errors issuer'));
    });
    after(async () => {
      await system?.stop();
    });

    it('answers a validation mistake in the payload, as the error it is when userErrors is not selected', async () => {
      const asError = await operator('mutation { addCurrency(currencyCode: "EURO") { message } }');
      assert.equal(asError.data, null);
      assert.equal(asError.errors?.length, 1);
      const { message, extensions } = asError.errors![0];
      assert.deepEqual(extensions, { code: 'BAD_USER_INPUT', grpcStatus: 'INVALID_ARGUMENT' });

      const asData = await operator(`mutation { addCurrency(currencyCode: "EURO") { message id currency { code } ${USER_ERRORS} } }`);
      assert.equal(asData.errors, undefined, JSON.stringify(asData.errors));
      assert.deepEqual(asData.data.addCurrency, {
        message,
        id: null,
        currency: null,
        userErrors: [{ message, code: 'BAD_USER_INPUT', path: ['currencyCode'], field: 'currencyCode' }],
      });
    });

    it('nulls what a refused payload cannot carry, empties its lists, and writes nothing', async () => {
      const before = await operator('{ accounts(first: 100) { totalCount } }');
      const long = 'x'.repeat(256);
      const res = await operator(`mutation { createAccount(input: { name: "${long}", role: USER }) { account { id } apiKey key { id } ${USER_ERRORS} } }`);
      assert.equal(res.errors, undefined, JSON.stringify(res.errors));
      assert.deepEqual(res.data.createAccount.account, null);
      assert.equal(res.data.createAccount.apiKey, null);
      assert.equal(res.data.createAccount.key, null);
      assert.deepEqual(res.data.createAccount.userErrors, [
        { message: 'input.name must be 1 to 255 characters.', code: 'BAD_USER_INPUT', path: ['input', 'name'], field: 'input.name' },
      ]);
      const afterwards = await operator('{ accounts(first: 100) { totalCount } }');
      assert.equal(afterwards.data.accounts.totalCount, before.data.accounts.totalCount, 'no account was created');

      const impacts = await user(`mutation { addPosition(input: { investorIdentifier: "nobody", assetIdentifier: "none", amount: 10, currencyCode: "EURO" }) { message impacts { year } ${USER_ERRORS} } }`);
      assert.equal(impacts.errors, undefined, JSON.stringify(impacts.errors));
      assert.deepEqual(impacts.data.addPosition.impacts, []);
      assert.equal(impacts.data.addPosition.userErrors.length, 1);
      assert.equal(impacts.data.addPosition.userErrors[0].code, 'BAD_USER_INPUT');
    });

    it("reports the services' own refusals (unknown item, duplicate) with no field, and keeps the existing item", async () => {
      const missing = await user(`mutation { removeFramework(identifier: "NO-SUCH-FRAMEWORK") { removedId ${USER_ERRORS} } }`);
      assert.equal(missing.errors, undefined, JSON.stringify(missing.errors));
      assert.equal(missing.data.removeFramework.removedId, null);
      assert.equal(missing.data.removeFramework.userErrors.length, 1);
      assert.equal(missing.data.removeFramework.userErrors[0].code, 'NOT_FOUND');
      assert.equal(missing.data.removeFramework.userErrors[0].path, null);
      assert.equal(missing.data.removeFramework.userErrors[0].field, null);

      await user('mutation { addUser(input: { userIdentifier: "ue-ada", firstName: "Ada" }) { id } }');
      const join = () => user(`mutation { addGroupToUser(userIdentifier: "ue-ada", group: "issuers") { user { groups { name } } ${USER_ERRORS} } }`);
      const first = await join();
      assert.deepEqual(first.data.addGroupToUser, { user: { groups: [{ name: 'issuers' }] }, userErrors: [] });
      const second = await join();
      assert.equal(second.errors, undefined, JSON.stringify(second.errors));
      assert.deepEqual(second.data.addGroupToUser, {
        user: null,
        userErrors: [{ message: 'Group is already connected to user.', code: 'CONFLICT', path: null, field: null }],
      });
      const kept = await user('{ users(userIdentifier: "ue-ada", first: 10) { nodes { groups { name } } } }');
      assert.deepEqual(kept.data.users.nodes, [{ groups: [{ name: 'issuers' }] }]);
    });

    it("still makes the request's later changes after one answered a user error", async () => {
      const res = await operator(`mutation {
        bad: addCurrency(currencyCode: "12") { ${USER_ERRORS} }
        good: addCurrency(currencyCode: "QUE") { currency { code } ${USER_ERRORS} }
      }`);
      assert.equal(res.errors, undefined, JSON.stringify(res.errors));
      assert.equal(res.data.bad.userErrors[0].code, 'BAD_USER_INPUT');
      assert.deepEqual(res.data.good, { currency: { code: 'QUE' }, userErrors: [] });
    });

    it('keeps refusals of the key in the response errors even when userErrors is selected', async () => {
      const res = await user(`mutation { createAccount(input: { name: "Not mine to make", role: USER }) { account { id } ${USER_ERRORS} } }`);
      assert.equal(res.data, null);
      assert.deepEqual(res.errors?.[0]?.extensions, { code: 'FORBIDDEN', grpcStatus: 'PERMISSION_DENIED' });
      const anonymous = await graphqlClient(system.gatewayUrl, 'no-such-key')(`mutation { addCurrency(currencyCode: "QUF") { ${USER_ERRORS} } }`);
      assert.equal(anonymous.data ?? null, null);
      assert.equal(anonymous.errors?.[0]?.extensions?.code, 'UNAUTHENTICATED');
    });
  });
}

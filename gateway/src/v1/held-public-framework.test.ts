import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { data, gqlAt, onlyError } from '@green-impact/testing/gateway/graphql-calls';
import { startPortfolioGateway } from '@green-impact/testing/gateway/portfolio-gateway';
import { jsonHeaders, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { postCall } from '@green-impact/testing/gateway/v1-calls';

/**
 * A public framework that other accounts' assets refer to keeps its currency (issue 46): the portfolio
 * service records each reference with the taxonomy service (RecordFrameworkHolder), and the publisher's
 * currency change is refused until the last such asset is removed or points elsewhere, on /v1/call and
 * GraphQL, on PGlite and PostgreSQL. Real identity, taxonomy and portfolio services.
 */

const ESG = 'SVC.ESG.Credits';
const HELD = 'Framework "GBF" is held by other accounts\' assets: its currency (EUR) stays as it is. Add a framework under a new identifier instead.';

for (const db of testDatabases) {
  describe(`a public framework other accounts' assets hold, on ${db.name}`, { skip: await skipReason(db) }, () => {
    let t: TestGateway;
    let holderKey: string;

    before(async () => {
      t = await startPortfolioGateway({}, { database: db });
      await t.taxonomy!.client.addCurrency({ currencyCode: 'SEK' }, { caller: t.operator });
      holderKey = (await t.createAccount('Holder')).apiKey;
      // The publisher's own asset on its framework holds nothing against it.
      await ok(t.userKey, 'addAsset', asset('OWN1'));
      await ok(holderKey, 'addFramework', { framework_identifier: 'HF', framework_name: "Holder's framework", framework_currency_code: 'EUR' });
    });
    after(async () => {
      await t?.stop();
    });

    function asset(identifier: string, framework = 'GBF') {
      return { asset_identifier: identifier, asset_name: 'Green bond', issuer_identifier: 'ISS-1', framework_identifier: framework, asset_currency_code: 'EUR' };
    }

    async function ok(key: string, operation: string, parameters: Record<string, unknown>): Promise<Record<string, unknown>> {
      const res = await postCall(t.baseUrl, { solution: ESG, operation, parameters }, jsonHeaders(key));
      assert.equal(res.status, 200, `${operation}: ${res.text}`);
      return res.json as Record<string, unknown>;
    }

    const changeCurrency = (currency: string) =>
      postCall(t.baseUrl, { solution: ESG, operation: 'addFramework', parameters: { framework_identifier: 'GBF', framework_name: 'Green Bond Framework', framework_currency_code: currency } }, jsonHeaders(t.userKey));
    const changeCurrencyGql = (currency: string) =>
      gqlAt(t.baseUrl, `mutation { addFramework(input: { identifier: "GBF", name: "Green Bond Framework", currencyCode: "${currency}" }) { message } }`, {}, t.userKey);

    async function refused(): Promise<void> {
      const res = await changeCurrency('SEK');
      assert.equal(res.status, 400, res.text);
      assert.deepEqual(res.json, { message: HELD, code: 'FAILED_PRECONDITION' });
      assert.deepEqual(onlyError(await changeCurrencyGql('SEK')), { message: HELD, code: 'CONFLICT' });
    }

    async function currencySeenByHolder(): Promise<string> {
      const frameworks = (await ok(holderKey, 'getFrameworks', { reporting_year: 2024 })) as unknown as Array<Record<string, unknown>>;
      return frameworks.find((f) => f['framework_identifier'] === 'GBF')!['framework_currency_code'] as string;
    }

    test("another account's assets hold it: its currency stays on both faces, its name may change; removing or re-pointing the last one frees it", async () => {
      await ok(holderKey, 'addAsset', asset('SE0001'));
      const added = await gqlAt(t.baseUrl, 'mutation { addAsset(input: { identifier: "SE0002", name: "Green bond", issuerIdentifier: "ISS-1", frameworkIdentifier: "GBF", currencyCode: "EUR" }) { message } }', {}, holderKey);
      assert.match(data(added)['addAsset'].message, /^Asset added with id \d+\.$/);
      await refused();
      const renamed = await ok(t.userKey, 'addFramework', { framework_identifier: 'GBF', framework_name: 'Green Bond Framework 2024', framework_currency_code: 'EUR' });
      assert.equal(renamed['message'], 'Framework updated.');
      assert.equal(await currencySeenByHolder(), 'EUR');

      // Removing one of the two leaves the other holding it.
      assert.equal(data(await gqlAt(t.baseUrl, 'mutation { removeAsset(identifier: "SE0001") { message } }', {}, holderKey))['removeAsset'].message, 'Asset removed.');
      await refused();

      // The last one pointed at the holder's own framework: the publisher changes the currency, and back.
      await ok(holderKey, 'addAsset', asset('SE0002', 'HF'));
      assert.equal(data(await changeCurrencyGql('SEK'))['addFramework'].message, 'Framework updated.');
      assert.equal(await currencySeenByHolder(), 'SEK');
      assert.equal((await changeCurrency('EUR')).status, 200);

      // Held again, then the holder removes the asset (/v1/call): free again.
      await ok(holderKey, 'addAsset', asset('SE0003'));
      await refused();
      await ok(holderKey, 'removeAsset', { asset_identifier: 'SE0003' });
      const freed = await changeCurrency('SEK');
      assert.equal(freed.status, 200, freed.text);
      assert.equal(await currencySeenByHolder(), 'SEK');
    });
  });
}

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { data, gqlAt, onlyError } from '@green-impact/testing/gateway/graphql-calls';
import { startPortfolioGateway } from '@green-impact/testing/gateway/portfolio-gateway';
import { jsonHeaders, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { postCall } from '@green-impact/testing/gateway/v1-calls';

/**
 * A public asset that another account's positions hold keeps its key fields (issue 46): its publisher
 * may correct its name, but not point the holders' impacts at another framework or currency, on
 * /v1/call and GraphQL. Real identity, taxonomy and portfolio services.
 */

const ESG = 'SVC.ESG.Credits';
const HELD = 'Asset "SE0001" is held by other accounts\' positions: its framework ("GBF") and currency (EUR) stay as they are. Add an asset under a new identifier instead.';
let t: TestGateway;
let holderKey: string;

before(async () => {
  t = await startPortfolioGateway();
  await t.taxonomy!.client.addCurrency({ currencyCode: 'SEK' }, { caller: t.operator });
  holderKey = (await t.createAccount('Holder')).apiKey;
  await ok(t.userKey, 'addFramework', { framework_identifier: 'GBF2', framework_name: 'Second framework', framework_currency_code: 'EUR', framework_visibility: 'public' });
  await ok(t.userKey, 'addAsset', asset({ asset_visibility: 'public' }));
  await ok(t.userKey, 'addAsset', asset({ asset_identifier: 'SE0002', asset_visibility: 'public' }));
  await ok(holderKey, 'addInvestor', { investor_identifier: 'inv_h', investor_name: 'Holder', investor_currency_code: 'EUR' });
  await ok(holderKey, 'addPosition', { investor_identifier: 'inv_h', asset_identifier: 'SE0001', position_amount: 1_000, position_currency_code: 'EUR' });
});
after(async () => {
  await t?.stop();
});

function asset(more: Record<string, unknown> = {}) {
  return { asset_identifier: 'SE0001', asset_name: 'Green bond', issuer_identifier: 'ISS-1', framework_identifier: 'GBF', asset_currency_code: 'EUR', ...more };
}

async function ok(key: string, operation: string, parameters: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await postCall(t.baseUrl, { solution: ESG, operation, parameters }, jsonHeaders(key));
  assert.equal(res.status, 200, `${operation}: ${res.text}`);
  return res.json as Record<string, unknown>;
}

const addAssetGql = (identifier: string, framework: string, currency: string) =>
  gqlAt(t.baseUrl, `mutation { addAsset(input: { identifier: "${identifier}", name: "Green bond", issuerIdentifier: "ISS-1", frameworkIdentifier: "${framework}", currencyCode: "${currency}" }) { message } }`, {}, t.userKey);

test('another account holds it: its framework and currency stay, on /v1/call and GraphQL; its name may change', async () => {
  for (const change of [{ asset_currency_code: 'SEK' }, { framework_identifier: 'GBF2' }, { framework_identifier: 'GBF2', asset_currency_code: 'SEK' }]) {
    const res = await postCall(t.baseUrl, { solution: ESG, operation: 'addAsset', parameters: asset(change) }, jsonHeaders(t.userKey));
    assert.equal(res.status, 400, res.text);
    assert.deepEqual(res.json, { message: HELD, code: 'FAILED_PRECONDITION' });
  }
  assert.deepEqual(onlyError(await addAssetGql('SE0001', 'GBF', 'SEK')), { message: HELD, code: 'CONFLICT' });
  assert.deepEqual(onlyError(await addAssetGql('SE0001', 'GBF2', 'EUR')), { message: HELD, code: 'CONFLICT' });

  assert.deepEqual(await ok(t.userKey, 'addAsset', asset({ asset_name: 'Green bond 2029' })), { message: 'Asset updated.' });
  const seen = (await ok(holderKey, 'getAssets', {})) as unknown as Array<Record<string, unknown>>;
  assert.deepEqual(seen.filter((a) => a['asset_identifier'] === 'SE0001').map((a) => [a['asset_name'], a['framework_identifier'], a['asset_currency_code']]), [['Green bond 2029', 'GBF', 'EUR']]);
});

test('held by no other account (or only by its own): the publisher changes its framework and currency', async () => {
  await ok(t.userKey, 'addInvestor', { investor_identifier: 'inv_own', investor_name: 'Own', investor_currency_code: 'EUR' });
  await ok(t.userKey, 'addPosition', { investor_identifier: 'inv_own', asset_identifier: 'SE0002', position_amount: 1_000, position_currency_code: 'EUR' });
  assert.deepEqual(await ok(t.userKey, 'addAsset', asset({ asset_identifier: 'SE0002', asset_currency_code: 'SEK' })), { message: 'Asset updated.' });
  assert.equal(data(await addAssetGql('SE0002', 'GBF2', 'SEK'))['addAsset'].message, 'Asset updated.');
});

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { onlyError, type GqlResponse } from '@green-impact/testing/gateway/graphql-calls';
import { startTestIssuer, TEST_AUDIENCE, type TestIssuer } from '@green-impact/testing/gateway/oidc-issuer';
import { jsonHeaders, startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { taxonomyIds } from '@green-impact/testing/gateway/taxonomy-ids';
import { postCall } from '@green-impact/testing/gateway/v1-calls';

/**
 * compute_missing stores impact records (issue 46): a read-only bearer token may read impacts but not
 * store them through a read, on /v1/call (getPositionImpacts, getPortfolioImpacts, getInvestorImpacts)
 * and GraphQL (impacts(computeMissing: true)). Real identity, taxonomy and portfolio services, a real
 * OpenID provider.
 */

const ESG = 'SVC.ESG.Credits';
const REFUSAL = 'This bearer token is read-only (it lacks the write scope): it may not change anything.';
let t: TestGateway;
let issuer: TestIssuer;
let positionId: number;
let reader: string;

before(async () => {
  issuer = await startTestIssuer();
  const issuers = JSON.stringify([{ issuer: issuer.issuer, audience: TEST_AUDIENCE, algorithms: ['RS256'] }]);
  t = await startTestGateway({ OIDC_ISSUERS: issuers }, { portfolio: true });
  await t.loadExampleTaxonomy();
  const ids = await taxonomyIds(t);
  const solar = ids.subCategory['Solar power'];
  const ghg = ids.indicator['Annual GHG emissions reduced/avoided'];
  await ok('addFramework', { framework_identifier: 'GBF', framework_name: 'Green Bond Framework', framework_currency_code: 'EUR' });
  await ok('addYearSpecificsToFramework', { framework_identifier: 'GBF', value_outstanding: 1_000_000, allocated_amount: 800_000, value_outstanding_framework: 'yes', reporting_year: 2024 });
  await ok('addCategoryIndicatorToFramework', { framework_identifier: 'GBF', sub_category_id: solar, sub_category_volume: 600_000, indicator_id: ghg, indicator_value: 5_000, reporting_year: 2024 });
  await ok('addAsset', { asset_identifier: 'SE0001', asset_name: 'Green bond', issuer_identifier: 'ISS-1', framework_identifier: 'GBF', asset_currency_code: 'EUR', asset_value_outstanding: '10000' });
  await ok('addInvestor', { investor_identifier: 'inv_1', investor_name: 'Ann', investor_currency_code: 'EUR' });
  const added = await ok('addPosition', { investor_identifier: 'inv_1', asset_identifier: 'SE0001', position_amount: 100_000, position_currency_code: 'EUR' });
  positionId = Number(/(\d+)\.$/.exec(String(added['message']))![1]);
  await ok('addPortfolio', { investor_identifier: 'inv_1', portfolio_identifier: 'main' });
  await ok('addPositionToPortfolio', { investor_identfier: 'inv_1', portfolio_identifier: 'main', position_id: positionId });
  reader = await issuer.mint({ subject: 'auditor', account: t.user.accountId, scope: 'impact:read' });
});
after(async () => {
  await t?.stop();
  await issuer?.close();
});

async function ok(operation: string, parameters: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await postCall(t.baseUrl, { solution: ESG, operation, parameters }, jsonHeaders(t.userKey));
  assert.equal(res.status, 200, `${operation}: ${res.text}`);
  return res.json as Record<string, unknown>;
}

const asReader = (operation: string, parameters: Record<string, unknown>) =>
  postCall(t.baseUrl, { solution: ESG, operation, parameters }, { 'content-type': 'application/json', authorization: `Bearer ${reader}` });

async function gqlAsReader(query: string): Promise<GqlResponse> {
  const res = await fetch(`${t.baseUrl}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${reader}` }, body: JSON.stringify({ query }) });
  return { status: res.status, headers: res.headers, body: (await res.json()) as GqlResponse['body'] };
}

/** The positions of inv_1 without stored records of 2024, as the account's own key reads them (nothing computed). */
async function withoutRecords(): Promise<unknown> {
  return (await ok('getInvestorImpacts', { investor_identifier: 'inv_1', reporting_year: 2024 }))['position_ids_without_impacts'];
}

test('a read-only token is refused compute_missing on /v1/call and GraphQL, stores nothing, and still reads', async () => {
  const calls = t.portfolio!.calls.length;
  for (const [operation, parameters] of [
    ['getPositionImpacts', { investor_identifier: 'inv_1', position_id: positionId, reporting_year: 2024, compute_missing: 'yes' }],
    ['getPortfolioImpacts', { portfolio_identifier: 'main', reporting_year: 2024, compute_missing: 'yes' }],
    ['getInvestorImpacts', { investor_identifier: 'inv_1', reporting_year: 2024, compute_missing: 'yes' }],
  ] as const) {
    const res = await asReader(operation, parameters);
    assert.equal(res.status, 403, `${operation}: ${res.text}`);
    assert.deepEqual(res.json, { message: REFUSAL, code: 'PERMISSION_DENIED' });
  }
  for (const query of [
    '{ investor(identifier: "inv_1") { impacts(year: 2024, computeMissing: true) { totals { value } } } }',
    '{ portfolio(identifier: "main") { impacts(year: 2024, computeMissing: true) { totals { value } } } }',
  ]) {
    assert.deepEqual(onlyError(await gqlAsReader(query)), { message: REFUSAL, code: 'FORBIDDEN' }, query);
  }
  assert.equal(t.portfolio!.calls.filter((c, i) => i >= calls && /Impacts$/.test(c.method) && (c.request as { computeMissing?: boolean }).computeMissing).length, 0, 'no compute_missing reached portfolio');
  assert.deepEqual(await withoutRecords(), [positionId], 'nothing was stored');

  // Reading without compute_missing is what a read-only token is for.
  const read = await asReader('getInvestorImpacts', { investor_identifier: 'inv_1', reporting_year: 2024 });
  assert.equal(read.status, 200, read.text);
  assert.deepEqual((read.json as Record<string, unknown>)['position_ids_without_impacts'], [positionId]);
  const graph = await gqlAsReader('{ investor(identifier: "inv_1") { impacts(year: 2024) { positionIdsWithoutImpacts } } }');
  assert.equal(graph.body.errors, undefined, JSON.stringify(graph.body));

  // The account's key (a writer) does store them.
  await ok('getInvestorImpacts', { investor_identifier: 'inv_1', reporting_year: 2024, compute_missing: 'yes' });
  assert.deepEqual(await withoutRecords(), []);
});

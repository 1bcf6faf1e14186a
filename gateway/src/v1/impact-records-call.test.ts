import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { data, gqlAt, onlyError } from '@green-impact/testing/gateway/graphql-calls';
import { impactSummary } from '../catalogue/portfolio/rows.js';
import { RECORD_PAGE } from '../catalogue/portfolio/impacts.js';
import { jsonHeaders, startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { postCall } from '@green-impact/testing/gateway/v1-calls';
import { WHOLE_ANSWER_BYTES } from './streamed-json.js';
import { decimalText } from '../graphql/scalars.js';

/**
 * An investor's and a portfolio's impact records through both faces, against the real portfolio and
 * taxonomy services: /v1/call streams them (StreamImpactRecords, more than one page of RECORD_PAGE here)
 * and writes the very bytes the whole answer had (JSON.stringify of the summary with every record), sent
 * whole with Content-Length while small, chunked past WHOLE_ANSWER_BYTES; GraphQL pages them as
 * ImpactSummary.recordConnection.
 */

const ESG = 'SVC.ESG.Credits';
const YEAR = 2024;
const ROWS = 8;
/** Enough positions for more records than one stream page. */
const POSITIONS = Math.ceil((RECORD_PAGE + 1) / ROWS);

let t: TestGateway;
let headers: Record<string, string>;
const ok = async (operation: string, parameters: Record<string, unknown>) => {
  const res = await postCall(t.baseUrl, { solution: ESG, operation, parameters }, headers);
  assert.equal(res.status, 200, `${operation}: ${res.text}`);
  return res;
};
const gql = (query: string, variables: Record<string, unknown>) => gqlAt(t.baseUrl, query, variables, t.userKey);

before(async () => {
  t = await startTestGateway({}, { portfolio: true });
  headers = jsonHeaders(t.userKey);
  await t.loadExampleTaxonomy();
  const { rows } = await t.taxonomy!.client.getTaxonomy({ reportingYear: YEAR }, { caller: t.user });
  const pairs = [...new Map(rows.map((r) => [`${r.subCategoryId}/${r.indicatorId}`, r])).values()].slice(0, ROWS);
  assert.equal(pairs.length, ROWS);
  await ok('addFramework', { framework_identifier: 'GBF', framework_name: 'Green Bond Framework', framework_currency_code: 'EUR' });
  await ok('addYearSpecificsToFramework', { framework_identifier: 'GBF', value_outstanding: 1_000_000_000, allocated_amount: 800_000_000, value_outstanding_framework: 'no', reporting_year: YEAR });
  for (const [n, r] of pairs.entries()) {
    await ok('addCategoryIndicatorToFramework', { framework_identifier: 'GBF', sub_category_id: r.subCategoryId, sub_category_volume: 1_000_000 + n, indicator_id: r.indicatorId, indicator_value: 100 + n / 3, reporting_year: YEAR });
  }
  await ok('addAsset', { asset_identifier: 'SE-STREAM', asset_name: 'Streamed bond', issuer_identifier: 'ISS', framework_identifier: 'GBF', asset_currency_code: 'EUR', asset_value_outstanding: 100_000_000 });
  for (const investor of ['inv-small', 'inv-large']) await ok('addInvestor', { investor_identifier: investor, investor_name: investor, investor_currency_code: 'EUR' });
  await ok('addPortfolio', { investor_identifier: 'inv-large', portfolio_identifier: 'pf-large' });
  const add = (investor: string, n: number) =>
    t.portfolio!.client.addPosition({ investorIdentifier: investor, assetIdentifier: 'SE-STREAM', positionAmount: 10_000 + n, positionCurrencyCode: n % 2 ? 'SEK' : 'EUR', positionDays: 200 + n }, { caller: t.user });
  await add('inv-small', 0);
  await add('inv-small', 1);
  for (let n = 0; n < POSITIONS; n++) {
    const { id } = await add('inv-large', n);
    if (n % 3 === 0) await t.portfolio!.client.addPositionToPortfolio({ investorIdentifier: 'inv-large', portfolioIdentifier: 'pf-large', positionId: id! }, { caller: t.user });
  }
});
after(async () => {
  await t?.stop();
});

/** The answer as it was before streaming: the unary read with every record, rendered whole. */
async function wholeAnswer(investor: string) {
  const res = await t.portfolio!.client.getInvestorImpacts({ investorIdentifier: investor, reportingYear: YEAR, computeMissing: false, omitRecords: false }, { caller: t.user });
  return JSON.stringify({ investor_identifier: res.investorIdentifier, ...impactSummary(res) });
}

test('a small answer: the same bytes as the whole answer, with Content-Length; compute_missing computes before the records stream', async () => {
  const missing = await ok('getInvestorImpacts', { investor_identifier: 'inv-small', reporting_year: YEAR });
  assert.deepEqual(missing.json['impacts'], []);
  assert.equal((missing.json['position_ids_without_impacts'] as number[]).length, 2);
  const computed = await ok('getInvestorImpacts', { investor_identifier: 'inv-small', reporting_year: YEAR, compute_missing: 'yes' });
  assert.equal((computed.json['impacts'] as unknown[]).length, 2 * ROWS);
  const again = await ok('getInvestorImpacts', { investor_identifier: 'inv-small', reporting_year: YEAR });
  assert.equal(again.text, await wholeAnswer('inv-small'));
  assert.equal(again.headers.get('content-length'), String(Buffer.byteLength(again.text)));
  const totalsOnly = await ok('getInvestorImpacts', { investor_identifier: 'inv-small', reporting_year: YEAR, include_records: 'no' });
  assert.equal('impacts' in totalsOnly.json, false);
  assert.deepEqual(totalsOnly.json['totals'], again.json['totals']);
});

test('a large answer over several stream pages: chunked, the same bytes; a refusal still comes before any byte', async () => {
  await ok('getInvestorImpacts', { investor_identifier: 'inv-large', reporting_year: YEAR, compute_missing: 'yes', include_records: 'no' });
  const large = await ok('getInvestorImpacts', { investor_identifier: 'inv-large', reporting_year: YEAR });
  assert.ok((large.json['impacts'] as unknown[]).length > RECORD_PAGE, 'more records than one stream page');
  assert.ok(large.text.length > WHOLE_ANSWER_BYTES);
  assert.equal(large.text, await wholeAnswer('inv-large'));
  assert.equal(large.headers.get('content-length'), null);
  assert.equal(large.headers.get('transfer-encoding'), 'chunked');
  const portfolio = await ok('getPortfolioImpacts', { portfolio_identifier: 'pf-large', reporting_year: YEAR });
  const whole = await t.portfolio!.client.getPortfolioImpacts({ portfolioIdentifier: 'pf-large', reportingYear: YEAR, computeMissing: false, omitRecords: false }, { caller: t.user });
  assert.equal(portfolio.text, JSON.stringify({ portfolio_identifier: 'pf-large', investor_identifier: 'inv-large', ...impactSummary(whole) }));
  const refused = await postCall(t.baseUrl, { solution: ESG, operation: 'getInvestorImpacts', parameters: { investor_identifier: 'nobody', reporting_year: YEAR } }, headers);
  assert.equal(refused.status, 404);
  assert.deepEqual(refused.json, { message: 'No such investor.', code: 'NOT_FOUND' });
});

const PAGE = `query($i: String!, $y: Int!, $first: Int, $after: String) { investor(identifier: $i) { impacts(year: $y) {
  recordConnection(first: $first, after: $after) { totalCount nodes { positionId subCategory { id } indicator { id } value } edges { cursor } pageInfo { hasNextPage hasPreviousPage endCursor } } } } }`;

test('GraphQL: recordConnection pages the records in the /v1/call order, with totalCount and cursors that resume', async () => {
  const v1 = (await ok('getInvestorImpacts', { investor_identifier: 'inv-large', reporting_year: YEAR })).json['impacts'] as Record<string, unknown>[];
  const expected = v1.map((r) => [String(r['position_id']), String(r['sub_category_id']), String(r['indicator_id']), decimalText(r['value'] as number)]);
  const seen: unknown[] = [];
  let after: string | null = null;
  let pages = 0;
  for (;;) {
    const page: Record<string, any> = data(await gql(PAGE, { i: 'inv-large', y: YEAR, first: 300, after }))['investor']['impacts']['recordConnection'];
    pages++;
    assert.equal(page['totalCount'], v1.length);
    assert.equal(page['pageInfo']['hasPreviousPage'], after !== null);
    assert.equal(page['edges'].at(-1).cursor, page['pageInfo']['endCursor']);
    seen.push(...page['nodes'].map((n: any) => [n.positionId, n.subCategory.id, n.indicator.id, n.value]));
    if (!page['pageInfo']['hasNextPage']) break;
    after = page['pageInfo']['endCursor'];
  }
  assert.equal(pages, Math.ceil(v1.length / 300));
  assert.deepEqual(seen, expected);
  // A cursor from the middle of a page resumes right after its record.
  const first: Record<string, any> = data(await gql(PAGE, { i: 'inv-large', y: YEAR, first: 10, after: null }))['investor']['impacts']['recordConnection'];
  const resumed: Record<string, any> = data(await gql(PAGE, { i: 'inv-large', y: YEAR, first: 2, after: first['edges'][4].cursor }))['investor']['impacts']['recordConnection'];
  assert.deepEqual(resumed['nodes'], first['nodes'].slice(5, 7));
  assert.deepEqual(onlyError(await gql(PAGE, { i: 'inv-large', y: YEAR, first: 0, after: null })), { message: 'first must be an integer from 1 to 1000, got 0.', code: 'BAD_USER_INPUT' });
  assert.deepEqual(onlyError(await gql(PAGE, { i: 'inv-large', y: YEAR, first: 5, after: 'bm9wZQ' })), { message: 'after must be a pageInfo.endCursor of this list.', code: 'BAD_USER_INPUT' });
  // A portfolio's summary pages its own positions' records.
  const portfolio = data(
    await gql('query($p: String!) { portfolio(identifier: $p) { impacts(year: 2024) { totals { positionCount } recordConnection(first: 1000) { totalCount nodes { positionId } } } } }', { p: 'pf-large' }),
  )['portfolio']['impacts'];
  assert.equal(portfolio.recordConnection.totalCount, portfolio.recordConnection.nodes.length);
  assert.equal(new Set(portfolio.recordConnection.nodes.map((n: any) => n.positionId)).size, Math.ceil(POSITIONS / 3));
});

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { jsonHeaders, startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { data, gqlAt, onlyError, type GqlResponse } from '@green-impact/testing/gateway/graphql-calls';

/**
 * The EU Green Bond Standard's operations through both faces, against the real TaxonomyService: the taxonomy
 * layer goes in through /v1/call (flags as the spec's yes / no, or JSON booleans) and GraphQL (enums and
 * Booleans) alike; the three documents come back as the same HTML with the same hash on both; the service's
 * refusals keep the error model (status and code) and name the field as each caller did.
 *
 * Worked example, by hand: framework EUGB in EUR, 2024, value outstanding (proceeds) 1 000. P-1 allocated 400,
 * all three conditions met: aligned; P-2 allocated 300, DNSH not met; P-3 allocated 100 in the Article 5
 * pocket. Allocated 800, unallocated 200; aligned 400 / 800 = 50.00 %; Article 5 100 / 800 = 12.50 % (of
 * proceeds 10 %, within 15 %). With proceeds of 500 the pocket is 100 / 500 = 20.00 %: refused.
 */

let t: TestGateway;
const gql = (query: string, variables: Record<string, unknown> = {}): Promise<GqlResponse> => gqlAt(t.baseUrl, query, variables, t.userKey);
const v1 = async (operation: string, parameters: Record<string, unknown>) => {
  const res = await fetch(`${t.baseUrl}/v1/call`, { method: 'POST', headers: jsonHeaders(t.userKey), body: JSON.stringify({ solution: 'SVC.ESG.Credits', operation, parameters }) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const ok = async (operation: string, parameters: Record<string, unknown>) => {
  const res = await v1(operation, parameters);
  assert.equal(res.status, 200, `${operation}: ${JSON.stringify(res.body)}`);
  return res.body;
};
const LAYER = 'taxonomyLayer { activityCode activityName objective technicalScreeningMet doNoSignificantHarmMet minimumSafeguardsMet assetType article5 aligned }';
const total = (page: string, heading: string) => new RegExp(`<tr><th>${heading}</th><td class="n">([^<]*)</td></tr>`).exec(page)?.[1];

before(async () => {
  t = await startTestGateway({}, { taxonomy: true });
  await t.loadExampleTaxonomy();
  await ok('addFramework', { framework_identifier: 'EUGB', framework_name: 'European green bond', framework_currency_code: 'EUR', issuer_lei: 'HWUPKR0MPOU8FGXBT394' });
  await ok('addYearSpecificsToFramework', { framework_identifier: 'EUGB', value_outstanding: 1000, allocated_amount: 800, reporting_year: 2024, value_outstanding_framework: 'no' });
  for (const [id, amount] of [['P-1', 400], ['P-2', 300], ['P-3', 100]] as const) {
    await ok('addProject', { project_identifier: id, project_name: `Project ${id}`, project_currency_code: 'EUR', framework_identifier: 'EUGB' });
    await ok('addYearSpecificsToProject', { project_identifier: id, allocated_amount: amount, reporting_year: 2024 });
  }
});
after(async () => {
  await t?.stop();
});

describe('the EU taxonomy layer through both faces', () => {
  test('/v1/call takes yes / no and JSON booleans; GraphQL takes enums and Booleans and shows the layer on the project', async () => {
    const set = await v1('setProjectTaxonomyLayer', {
      project_identifier: 'P-1', reporting_year: 2024, taxonomy_activity_code: '4.1', taxonomy_activity_name: 'Electricity generation using solar photovoltaic technology',
      environmental_objective: 'Climate_Change_Mitigation', technical_screening_met: 'yes', do_no_significant_harm_met: 'YES', minimum_safeguards_met: true, asset_type: 'capex',
    });
    assert.deepEqual(set, { status: 200, body: { message: 'Taxonomy layer for 2024 set on project.' } });
    await ok('setProjectTaxonomyLayer', {
      project_identifier: 'P-2', reporting_year: 2024, taxonomy_activity_code: '4.3', taxonomy_activity_name: 'Electricity generation from wind power',
      environmental_objective: 'climate_change_mitigation', technical_screening_met: 'yes', do_no_significant_harm_met: 'no', minimum_safeguards_met: 'yes', asset_type: 'capex', article_5: false,
    });
    const res = data(
      await gql(`mutation {
        setProjectTaxonomyLayer(input: { identifier: "P-3", year: 2024, activityCode: "7.7", activityName: "Acquisition and ownership of buildings", objective: CLIMATE_CHANGE_ADAPTATION,
          technicalScreeningMet: true, doNoSignificantHarmMet: true, minimumSafeguardsMet: true, assetType: FIXED_ASSET, article5: true }) {
          message project { ${LAYER} }
        }
      }`),
    );
    assert.deepEqual(res['setProjectTaxonomyLayer'], {
      message: 'Taxonomy layer for 2024 set on project.',
      project: {
        taxonomyLayer: {
          activityCode: '7.7', activityName: 'Acquisition and ownership of buildings', objective: 'CLIMATE_CHANGE_ADAPTATION', technicalScreeningMet: true,
          doNoSignificantHarmMet: true, minimumSafeguardsMet: true, assetType: 'FIXED_ASSET', article5: true, aligned: false,
        },
      },
    });
    const p1 = data(await gql(`{ project(identifier: "P-1", year: 2024) { ${LAYER} } }`));
    assert.deepEqual([p1['project'].taxonomyLayer.objective, p1['project'].taxonomyLayer.aligned], ['CLIMATE_CHANGE_MITIGATION', true]);
    // The spec's answer keeps its keys.
    const details = await v1('getProjectDetails', { project_identifier: 'P-1', reporting_year: 2024 });
    assert.equal('taxonomy_layer' in (details.body as unknown as Record<string, unknown>[])[0]!, false);
  });

  test("bad input answers the error model, the field named as each face's caller did", async () => {
    const base = { project_identifier: 'P-1', reporting_year: 2024, taxonomy_activity_code: '4.1', taxonomy_activity_name: 'Solar', environmental_objective: 'circular_economy', technical_screening_met: 'yes', do_no_significant_harm_met: 'yes', minimum_safeguards_met: 'yes', asset_type: 'opex' };
    const code = await v1('setProjectTaxonomyLayer', { ...base, taxonomy_activity_code: '41' });
    assert.deepEqual([code.status, code.body['message'], code.body['code']], [400, 'taxonomy_activity_code must be an EU taxonomy activity number such as "4.1", got "41".', 'INVALID_ARGUMENT']);
    const gqlCode = onlyError(await gql('mutation { setProjectTaxonomyLayer(input: { identifier: "P-1", year: 2024, activityCode: "41", activityName: "Solar", objective: CIRCULAR_ECONOMY, technicalScreeningMet: true, doNoSignificantHarmMet: true, minimumSafeguardsMet: true, assetType: OPEX }) { message } }'));
    assert.deepEqual([gqlCode.message, gqlCode.code], ['input.activityCode must be an EU taxonomy activity number such as "4.1", got "41".', 'BAD_USER_INPUT']);
    const flag = await v1('setProjectTaxonomyLayer', { ...base, technical_screening_met: 'maybe' });
    assert.deepEqual([flag.status, flag.body['message']], [400, 'technical_screening_met must be yes or no.']);
    const missing = await v1('setProjectTaxonomyLayer', { ...base, asset_type: undefined });
    assert.deepEqual([missing.status, missing.body['message']], [400, 'asset_type is required.']);
    const noYear = await v1('setProjectTaxonomyLayer', { ...base, reporting_year: 2023 });
    assert.deepEqual([noYear.status, noYear.body['code']], [400, 'FAILED_PRECONDITION']);
    assert.equal(noYear.body['message'], 'Project "P-1" has no year specifics for 2023; add its allocated amount with addYearSpecificsToProject before its taxonomy layer.');
  });
});

describe("the EU Green Bond Standard's documents through both faces", () => {
  test('/v1/call and GraphQL answer the same page with its hash, with the hand-computed shares', async () => {
    const viaV1 = await ok('getEuGbsDocument', { framework_identifier: 'EUGB', reporting_year: 2024, document: 'allocation_report', publication_date: '2025-03-31' });
    const content = viaV1['content'] as string;
    assert.equal(viaV1['content_type'], 'text/html; charset=utf-8');
    assert.equal(viaV1['sha256'], createHash('sha256').update(content, 'utf8').digest('hex'));
    assert.equal(total(content, 'Allocated'), '800.00');
    assert.equal(total(content, 'Unallocated'), '200.00');
    assert.equal(total(content, 'Taxonomy-aligned share of allocated proceeds'), '50.00\u202f%');
    assert.equal(total(content, 'Article 5 share of allocated proceeds'), '12.50\u202f%');
    const viaGql = data(await gql('{ euGbsDocument(identifier: "EUGB", year: 2024, document: ALLOCATION_REPORT, publicationDate: "2025-03-31") { content contentType sha256 } }'));
    assert.deepEqual(viaGql['euGbsDocument'], { content, contentType: 'text/html; charset=utf-8', sha256: viaV1['sha256'] });
    // Each face hands out a signed link to the same page (eu-gbs-routes.browser.test.ts opens one).
    const links = data(await gql('{ euGbsDocument(identifier: "EUGB", year: 2024, document: ALLOCATION_REPORT) { url } }'));
    assert.match(links['euGbsDocument'].url, /^http:\/\/[^/]+\/reports\/frameworks\/EUGB\/2024\/allocation_report\.html\?acct=[^&]+&exp=\d+&sig=[A-Za-z0-9_-]{43}$/);
    assert.match(String(viaV1['url']), /allocation_report\.html\?acct=[^&]+&exp=\d+&sig=[A-Za-z0-9_-]{43}&publication_date=2025-03-31$/);
    for (const [document, heading] of [['FACTSHEET', 'European Green Bond factsheet'], ['IMPACT_REPORT', 'European Green Bond impact report']]) {
      const page = data(await gql(`{ euGbsDocument(identifier: "EUGB", year: 2024, document: ${document}) { content } }`));
      assert.match(page['euGbsDocument'].content, new RegExp(`<h1>${heading}</h1>`));
    }
  });

  test('refusals keep the error model on both faces', async () => {
    const bad = await v1('getEuGbsDocument', { framework_identifier: 'EUGB', reporting_year: 2024, document: 'annual' });
    assert.deepEqual([bad.status, bad.body['message']], [400, 'document must be one of factsheet, allocation_report, impact_report.']);
    const date = onlyError(await gql('{ euGbsDocument(identifier: "EUGB", year: 2024, document: FACTSHEET, publicationDate: "31.03.2025") { content } }'));
    assert.deepEqual([date.message, date.code], ['Date must be a calendar date YYYY-MM-DD such as "2025-06-30": got "31.03.2025".', 'BAD_USER_INPUT']);
    const none = await v1('getEuGbsDocument', { framework_identifier: 'NONE', reporting_year: 2024, document: 'factsheet' });
    assert.deepEqual([none.status, none.body['message']], [404, 'No such framework "NONE".']);
    await ok('addYearSpecificsToFramework', { framework_identifier: 'EUGB', value_outstanding: 500, allocated_amount: 800, reporting_year: 2024, value_outstanding_framework: 'no' });
    const cap = await v1('getEuGbsDocument', { framework_identifier: 'EUGB', reporting_year: 2024, document: 'impact_report' });
    assert.deepEqual([cap.status, cap.body['code'], cap.body['message']], [
      400, 'FAILED_PRECONDITION', "article_5 allocations must be at most 15 % of the bond's proceeds (Regulation (EU) 2023/2631, Article 5), got 20.00 %.",
    ]);
    const gqlCap = onlyError(await gql('{ euGbsDocument(identifier: "EUGB", year: 2024, document: FACTSHEET) { content } }'));
    assert.equal(gqlCap.code, 'CONFLICT');
  });

  test("removing the pocket's layer on either face lets the documents render again", async () => {
    assert.deepEqual(await ok('removeProjectTaxonomyLayer', { project_identifer: 'P-3', reporting_year: 2024 }), { message: 'Taxonomy layer for 2024 removed from project.' });
    const again = onlyError(await gql('mutation { removeProjectTaxonomyLayer(identifier: "P-3", year: 2024) { message } }'));
    assert.deepEqual([again.message, again.code], ['Project "P-3" has no taxonomy layer for 2024.', 'NOT_FOUND']);
    const p3 = data(await gql(`{ project(identifier: "P-3", year: 2024) { allocatedAmount ${LAYER} } }`));
    assert.deepEqual(p3['project'], { allocatedAmount: '100', taxonomyLayer: null });
    // Proceeds 500, allocated 800: aligned 400 / 800 = 50.00 %, no pocket; P-3's 100 not assessed.
    const page = data(await gql('{ euGbsDocument(identifier: "EUGB", year: 2024, document: IMPACT_REPORT) { content } }'))['euGbsDocument'].content as string;
    assert.equal(total(page, 'Article 5 share of allocated proceeds'), '0.00\u202f%');
    assert.equal(total(page, 'Not assessed'), '100.00');
  });
});

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { jsonHeaders, startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { data, gqlAt, onlyError, type GqlResponse } from '@green-impact/testing/gateway/graphql-calls';
import { readXlsx, rowValues } from '@green-impact/testing/shared/xlsx-reader';

/**
 * Issue 37 through both faces, against the real TaxonomyService: a project's financing (country, lifetime,
 * financing type, total cost and signed amount of a year) goes in through /v1/call's new optional
 * parameters and GraphQL's input fields alike, and the service's refusals name the field as each caller did.
 * The spec's answers keep their keys: getProjects and getProjectDetails show none of the new fields.
 */

let t: TestGateway;
const gql = (query: string, variables: Record<string, unknown> = {}): Promise<GqlResponse> => gqlAt(t.baseUrl, query, variables, t.userKey);
const v1 = async (operation: string, parameters: Record<string, unknown>) => {
  const res = await fetch(`${t.baseUrl}/v1/call`, { method: 'POST', headers: jsonHeaders(t.userKey), body: JSON.stringify({ solution: 'SVC.ESG.Credits', operation, parameters }) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const FINANCING = 'countryCode lifetimeYears financingType totalProjectCost signedAmount financingShare allocatedAmount';

before(async () => {
  t = await startTestGateway({}, { taxonomy: true });
  await t.loadExampleTaxonomy();
  data(await gql('mutation { addFramework(input: { identifier: "GBF", name: "Green bonds", currencyCode: "EUR" }) { message } }'));
});
after(async () => {
  await t?.stop();
});

describe("a project's financing through both faces", () => {
  test('/v1/call takes the new optional parameters, and its answers keep the spec keys', async () => {
    const added = await v1('addProject', {
      project_identifier: 'P-V1', project_name: 'Solar park', project_currency_code: 'EUR', framework_identifier: 'GBF',
      project_country_code: 'no', project_lifetime_years: '30', project_financing_type: 'FINANCING',
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    const year = await v1('addYearSpecificsToProject', { project_identifier: 'P-V1', allocated_amount: 50, reporting_year: 2024, total_project_cost: 200, signed_amount: 50 });
    assert.deepEqual(year, { status: 200, body: { message: 'Year specifics for 2024 added to project.' } });
    const read = data(await gql(`{ project(identifier: "P-V1", year: 2024) { ${FINANCING} } }`));
    assert.deepEqual(read['project'], {
      countryCode: 'NO', lifetimeYears: 30, financingType: 'FINANCING', totalProjectCost: '200', signedAmount: '50', financingShare: '0.25', allocatedAmount: '50',
    });
    const details = await v1('getProjectDetails', { project_identifier: 'P-V1', reporting_year: 2024 });
    assert.deepEqual(Object.keys((details.body as unknown as Record<string, unknown>[])[0]!), [
      'project_id', 'project_identifier', 'project_name', 'project_allocated_amount', 'project_currency_code', 'framework_identifier', 'framework_name',
      'project_visibility', 'project',
    ]);
  });

  test('GraphQL takes them as input fields', async () => {
    const res = data(
      await gql(`mutation {
        p: addProject(input: { identifier: "P-GQL", name: "Wind farm", currencyCode: "EUR", frameworkIdentifier: "GBF", countryCode: "dk", lifetimeYears: 20, financingType: REFINANCING }) { message }
        y: addYearSpecificsToProject(input: { identifier: "P-GQL", year: 2024, allocatedAmount: 10, totalProjectCost: 80, signedAmount: 20 }) { project { ${FINANCING} } }
      }`),
    );
    assert.deepEqual(res['y'].project, {
      countryCode: 'DK', lifetimeYears: 20, financingType: 'REFINANCING', totalProjectCost: '80', signedAmount: '20', financingShare: '0.25', allocatedAmount: '10',
    });
  });

  test("the service's refusals name the field as each face's caller did", async () => {
    const bad = await v1('addYearSpecificsToProject', { project_identifier: 'P-V1', allocated_amount: 50, reporting_year: 2024, signed_amount: 201 });
    assert.equal(bad.status, 400);
    assert.equal(bad.body['message'], 'signed_amount must not exceed total_project_cost (200), got 201.');
    const v1Country = await v1('addProject', { project_identifier: 'P-V1', project_name: 'X', project_currency_code: 'EUR', framework_identifier: 'GBF', project_country_code: 'XX' });
    assert.deepEqual([v1Country.status, v1Country.body['message']], [400, 'project_country_code must be an ISO 3166-1 alpha-2 country code, got "XX".']);
    const gqlCountry = onlyError(await gql('mutation { addProject(input: { identifier: "P-GQL", name: "X", currencyCode: "EUR", frameworkIdentifier: "GBF", countryCode: "XX" }) { message } }'));
    assert.equal(gqlCountry.message, 'input.countryCode must be an ISO 3166-1 alpha-2 country code, got "XX".');
    const gqlSigned = onlyError(await gql('mutation { addYearSpecificsToProject(input: { identifier: "P-GQL", year: 2024, allocatedAmount: 1, signedAmount: 81 }) { message } }'));
    assert.equal(gqlSigned.message, 'input.signedAmount must not exceed input.totalProjectCost (80), got 81.');
  });
});

describe("an indicator value's metadata through both faces", () => {
  const ROW = 'rows { value valueType valueBasis baseline emissionFactor methodologySource methodologyVersion }';
  test('/v1/call and GraphQL take it on project and framework rows, and GraphQL shows it', async () => {
    const { rows } = await t.taxonomy!.client.getTaxonomy({ reportingYear: 2024 }, { caller: t.user });
    const [sub, ind] = [rows[0]!.subCategoryId, rows[0]!.indicatorId];
    const added = await v1('addCategoryIndicatorToProject', {
      project_identifier: 'P-V1', sub_category_id: sub, sub_category_volume: 5, indicator_id: ind, indicator_value: 12, reporting_year: 2024,
      indicator_value_type: 'Measured', indicator_value_basis: 'net', baseline_value: '20', emission_factor: 0.4, methodology_source: 'IFI grid factors', methodology_version: '2024',
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    const res = data(
      await gql(`mutation {
        f: addCategoryIndicatorToFramework(input: { identifier: "GBF", year: 2024, subCategoryId: ${sub}, volume: 5, indicatorId: ${ind}, value: 3, valueType: EXPECTED, valueBasis: GROSS }) {
          framework { ${ROW} }
        }
      }`),
    );
    assert.deepEqual(res['f'].framework.rows, [
      { value: '3', valueType: 'EXPECTED', valueBasis: 'GROSS', baseline: null, emissionFactor: null, methodologySource: null, methodologyVersion: null },
    ]);
    const project = data(await gql(`{ project(identifier: "P-V1", year: 2024) { ${ROW} } }`));
    assert.deepEqual(project['project'].rows, [
      { value: '12', valueType: 'MEASURED', valueBasis: 'NET', baseline: '20', emissionFactor: '0.4', methodologySource: 'IFI grid factors', methodologyVersion: '2024' },
    ]);
    // The spec's answer keeps its keys.
    const details = await v1('getProjectDetails', { project_identifier: 'P-V1', reporting_year: 2024 });
    const detailRow = (details.body as unknown as { project: Record<string, unknown>[] }[])[0]!.project[0]!;
    assert.equal('indicator_value_type' in detailRow || 'methodology_source' in detailRow, false);
    const bad = onlyError(await gql(`mutation { addCategoryIndicatorToProject(input: { identifier: "P-V1", year: 2024, subCategoryId: ${sub}, volume: 5, indicatorId: ${ind}, value: 1, baseline: -1 }) { message } }`));
    assert.equal(bad.message, 'input.baseline must be a finite number of at least 0.');
  });
});

describe("ICMA's impact table through both faces", () => {
  test('/v1/call and GraphQL answer the same CSV with its hash; the service refuses a bad level', async () => {
    const viaV1 = await v1('getIcmaImpactTable', { framework_identifier: 'GBF', reporting_year: 2024, level: 'portfolio' });
    assert.equal(viaV1.status, 200, JSON.stringify(viaV1.body));
    const content = viaV1.body['content'] as string;
    assert.equal(viaV1.body['content_type'], 'text/csv; charset=utf-8');
    assert.equal(viaV1.body['sha256'], createHash('sha256').update(content, 'utf8').digest('hex'));
    // P-V1 (share 50 / 200 = 25 %) has the one row of 12 in this file's earlier test: 12 in full, 3 the issuer's.
    assert.match(content, /^Reporting year,Eligible category,.*\r\n2024,[^\r\n]*,EUR,50\.00,25\.00,5\.00,[^,]*,1,1,[^\r\n]*,12\.00,3\.00\r\n$/);
    const viaGql = data(await gql('{ icmaImpactTable(identifier: "GBF", year: 2024, level: PORTFOLIO) { content contentType sha256 } }'));
    assert.deepEqual(viaGql['icmaImpactTable'], { content, contentType: 'text/csv; charset=utf-8', sha256: viaV1.body['sha256'] });
    const projects = data(await gql('{ icmaImpactTable(identifier: "GBF", year: 2024, decimals: 0) { content } }'));
    assert.match(projects['icmaImpactTable'].content, /\r\n2024,P-GQL,Wind farm,DK,,,refinancing,20,EUR,80,20,25,10,/);
    const bad = await v1('getIcmaImpactTable', { framework_identifier: 'GBF', reporting_year: 2024, decimals: 11 });
    assert.deepEqual([bad.status, bad.body['message']], [400, 'decimals must be an integer from 0 to 10, got 11.']);
  });
});

describe("ICMA's impact workbook through both faces", () => {
  test('/v1/call and GraphQL answer the same workbook as base64 with the hash of its bytes; its cells are typed', async () => {
    const viaV1 = await v1('getIcmaImpactWorkbook', { framework_identifier: 'GBF', reporting_year: 2024 });
    assert.equal(viaV1.status, 200, JSON.stringify(viaV1.body));
    const bytes = Buffer.from(viaV1.body['content_base64'] as string, 'base64');
    assert.equal(viaV1.body['content_type'], 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    assert.equal(viaV1.body['sha256'], createHash('sha256').update(bytes).digest('hex'));
    const viaGql = data(await gql('{ icmaImpactWorkbook(identifier: "GBF", year: 2024) { contentBase64 contentType sha256 } }'));
    assert.deepEqual(viaGql['icmaImpactWorkbook'], { contentBase64: viaV1.body['content_base64'], contentType: viaV1.body['content_type'], sha256: viaV1.body['sha256'] });
    const [portfolio, projects] = readXlsx(bytes).sheets;
    // As the CSV above: P-V1 (share 50 / 200, lifetime 30, volume 5) has the one row of 12, the issuer's 3.
    const line = rowValues(portfolio!, 7, 14);
    assert.deepEqual([line[0], line[3], ...line.slice(4, 10), ...line.slice(12)], [2024, 'EUR', 50, 0.25, 5, 30, 1, 1, 12, 3]);
    assert.equal(portfolio!.cells.get('F7')!.format, '0.00%');
    // Projects in identifier order: P-GQL (no rows) first.
    assert.deepEqual(rowValues(projects!, 7, 13), [2024, 'P-GQL', 'Wind farm', 'DK', null, null, 'refinancing', 20, 'EUR', 80, 20, 0.25, 10]);
    const bad = onlyError(await gql('{ icmaImpactWorkbook(identifier: "GBF", year: 2024, decimals: 11) { sha256 } }'));
    assert.equal(bad.message, 'decimals must be an integer from 0 to 10, got 11.');
  });
});

describe('signed units through both faces', () => {
  test('an operator marks a unit signed on /v1/call and unsigned on GraphQL; a user may not', async () => {
    const { rows } = await t.taxonomy!.client.getTaxonomy({ reportingYear: 2024 }, { caller: t.user });
    const unit = rows[0]!.unitId;
    const asOperator = await fetch(`${t.baseUrl}/v1/call`, {
      method: 'POST',
      headers: jsonHeaders(t.operatorKey),
      body: JSON.stringify({ solution: 'SVC.ESG.Credits', operation: 'setUnitSigned', parameters: { unit_id: unit, reporting_year: 2024, unit_sign: 'SIGNED' } }),
    });
    assert.deepEqual([asOperator.status, await asOperator.json()], [200, { message: `Unit ${unit} is signed: its values may be negative.` }]);
    const asUser = await v1('setUnitSigned', { unit_id: unit, reporting_year: 2024, unit_sign: 'unsigned' });
    assert.equal(asUser.status, 403);
    const viaGql = data(
      await gqlAt(t.baseUrl, `mutation { setUnitSigned(input: { id: ${unit}, year: 2024, sign: UNSIGNED }) { message unit { id } } }`, {}, t.operatorKey),
    );
    assert.deepEqual(viaGql['setUnitSigned'], { message: `Unit ${unit} is unsigned: its values are 0 or more.`, unit: { id: String(unit) } });
  });
});

describe("the EU Green Bond Standard's report fields through both faces", () => {
  const FIELDS = 'issuerLei externalReviewer approvingAuthority reportingPeriodStart reportingPeriodEnd unallocatedProceedsPlacement';
  test('/v1/call and GraphQL take them; GraphQL shows them; the service names a bad LEI as each caller did', async () => {
    const added = await v1('addFramework', {
      framework_identifier: 'EUGB', framework_name: 'European green bond', framework_currency_code: 'EUR',
      issuer_lei: 'hwupkr0mpou8fgxbt394', external_reviewer: 'Reviewer GmbH', approving_authority: 'BaFin',
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    const res = data(
      await gql(`mutation {
        y: addYearSpecificsToFramework(input: { identifier: "EUGB", year: 2024, valueOutstanding: 100, allocatedAmount: 80, valueOutstandingFramework: false,
          reportingPeriodStart: "2024-01-01", reportingPeriodEnd: "2024-12-31", unallocatedProceedsPlacement: "Money-market funds" }) {
          framework { ${FIELDS} }
        }
      }`),
    );
    assert.deepEqual(res['y'].framework, {
      issuerLei: 'HWUPKR0MPOU8FGXBT394', externalReviewer: 'Reviewer GmbH', approvingAuthority: 'BaFin',
      reportingPeriodStart: '2024-01-01', reportingPeriodEnd: '2024-12-31', unallocatedProceedsPlacement: 'Money-market funds',
    });
    const summary = await v1('getFrameworkDetails', { framework_identifier: 'EUGB', reporting_year: 2024 });
    assert.equal('issuer_lei' in (summary.body as unknown as Record<string, unknown>[])[0]!, false, "the spec's answer keeps its keys");
    const bad = await v1('addFramework', { framework_identifier: 'EUGB', framework_name: 'X', framework_currency_code: 'EUR', issuer_lei: 'HWUPKR0MPOU8FGXBT393' });
    assert.deepEqual([bad.status, bad.body['message']], [400, 'issuer_lei has wrong check digits (ISO 17442), got "HWUPKR0MPOU8FGXBT393".']);
    const gqlBad = onlyError(await gql('mutation { addFramework(input: { identifier: "EUGB", name: "X", currencyCode: "EUR", issuerLei: "HWUPKR0MPOU8FGXBT393" }) { message } }'));
    assert.equal(gqlBad.message, 'input.issuerLei has wrong check digits (ISO 17442), got "HWUPKR0MPOU8FGXBT393".');
  });
});

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { JobStatus } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { jsonHeaders, startTestGateway, type TestAccount, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { data, gqlAt, onlyError, type GqlResponse } from '@green-impact/testing/gateway/graphql-calls';

/**
 * The EU Green Bond Standard's documents anchored on chain (issue 37), through both faces against the real
 * taxonomy and chain services over gRPC on the embedded networks: writeEuGbsDocumentToBlockchain and
 * writeEuGbsDocument write exactly the bytes getEuGbsDocument answers for the same parameters (same sha256);
 * the job lists with the framework's documents, reads back verified, and its page shows it with its proof.
 */

let t: TestGateway;
let other: TestAccount;
const gql = (query: string, variables: Record<string, unknown> = {}, key = t.userKey): Promise<GqlResponse> => gqlAt(t.baseUrl, query, variables, key);
const v1 = async (operation: string, parameters: Record<string, unknown>, key = t.userKey) => {
  const res = await fetch(`${t.baseUrl}/v1/call`, { method: 'POST', headers: jsonHeaders(key), body: JSON.stringify({ solution: 'SVC.ESG.Credits', operation, parameters }) });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};
const ok = async (operation: string, parameters: Record<string, unknown>) => {
  const res = await v1(operation, parameters);
  assert.equal(res.status, 200, `${operation}: ${JSON.stringify(res.body)}`);
  return res.body;
};
async function completed(id: string): Promise<void> {
  const job = await t.settledJob(id);
  assert.equal(job.status, JobStatus.JOB_STATUS_COMPLETED, JSON.stringify(job));
}
const DOC = { framework_identifier: 'EUGB', reporting_year: 2024, document: 'allocation_report', publication_date: '2025-03-31', decimals: 1 };

before(async () => {
  t = await startTestGateway({}, { taxonomy: true, chain: true });
  other = await t.createAccount('Other');
  await t.loadExampleTaxonomy();
  await ok('addFramework', { framework_identifier: 'EUGB', framework_name: 'European green bond', framework_currency_code: 'EUR', issuer_lei: 'HWUPKR0MPOU8FGXBT394' });
  await ok('addYearSpecificsToFramework', { framework_identifier: 'EUGB', value_outstanding: 1000, allocated_amount: 800, reporting_year: 2024, value_outstanding_framework: 'no' });
  await ok('addProject', { project_identifier: 'P-1', project_name: 'Solar park', project_currency_code: 'EUR', framework_identifier: 'EUGB' });
  await ok('addYearSpecificsToProject', { project_identifier: 'P-1', allocated_amount: 400, reporting_year: 2024 });
  await ok('setProjectTaxonomyLayer', {
    project_identifier: 'P-1', reporting_year: 2024, taxonomy_activity_code: '4.1', taxonomy_activity_name: 'Electricity generation using solar photovoltaic technology',
    environmental_objective: 'climate_change_mitigation', technical_screening_met: 'yes', do_no_significant_harm_met: 'yes', minimum_safeguards_met: 'yes', asset_type: 'capex',
  });
});
after(async () => {
  await t?.stop();
});

describe('EU GBS documents anchored on chain', () => {
  test('/v1/call writes the bytes getEuGbsDocument answers; it lists, reads back verified and shows its page with the proof', async () => {
    const shown = await ok('getEuGbsDocument', DOC);
    const written = await ok('writeEuGbsDocumentToBlockchain', { ...DOC, network: 'sepolia' });
    const jobId = written['job_id'] as string;
    assert.deepEqual(written, { statusCode: 200, statusMessage: '', info: { jobId }, job_id: jobId });
    await completed(jobId);

    // Listed with the framework's own documents, as getBlockchainJobsForFrameworks and documents show them.
    const framework = (await ok('writeHtmlFrameworkToBlockchain', { framework_identifier: 'EUGB', reporting_year: 2024, solution: 'SVC.Blockchain.Save', operation: 'save', version: 1, network: 'sepolia' }))['job_id'];
    const listed = (await v1('getBlockchainJobsForFrameworks', { framework_identifier: 'EUGB' })).body as unknown as { job_id: string }[];
    assert.deepEqual(listed.map((e) => e.job_id), [jobId, framework]);
    const entries = data(await gql('{ documents(frameworkIdentifier: "EUGB") { nodes { jobId kind reportingYear } } }'))['documents'].nodes;
    assert.deepEqual(entries[0], { jobId, kind: 'EU_GBS_HTML', reportingYear: 2024 });

    // Read back verified: the same bytes, the same hash.
    const doc = data(await gql('query($id: ID!) { document(jobId: $id) { kind verified sha256 anchoredSha256 content contentType pageUrl proof { method } } }', { id: jobId }))['document'];
    assert.deepEqual([doc.kind, doc.verified, doc.sha256, doc.anchoredSha256, doc.contentType], ['EU_GBS_HTML', true, shown['sha256'], shown['sha256'], 'text/html; charset=utf-8']);
    assert.equal(doc.content, shown['content']);
    assert.equal(createHash('sha256').update(doc.content, 'utf8').digest('hex'), shown['sha256']);
    assert.equal(doc.proof.method, 'MERKLE');
    const proof = await ok('getDocumentProof', { job_id: jobId });
    assert.equal(proof['verified'], true);

    // The v1 reader's signed link opens the page: the anchored bytes, with the anchoring facts around them.
    const link = await ok('getEuGbsDocumentFromBlockchain', { job_id: jobId });
    const url = link['EU Green Bond Standard document on the blockchain'] as string;
    assert.match(url, new RegExp(`/jobs/${jobId}\\.html\\?v=\\d+&exp=\\d+&sig=`));
    const page = await (await fetch(url)).text();
    assert.match(page, /<strong>Verified<\/strong>: the content's SHA-256 equals the hash anchored on sepolia/);
    assert.ok(page.includes(`<span class="mono">${shown['sha256']}</span>`), 'the panel names the hash');
    const raw = Buffer.from(await (await fetch(`${t.baseUrl}/jobs/${jobId}.html?raw=1`, { headers: { 'x-api-key': t.userKey } })).arrayBuffer());
    assert.equal(createHash('sha256').update(raw).digest('hex'), shown['sha256']);

    // Each reader reads its own kind.
    const wrong = await v1('getHtmlFrameworkFromBlockchain', { job_id: jobId });
    assert.deepEqual([wrong.status, wrong.body['code'], wrong.body['message']], [400, 'FAILED_PRECONDITION', `Job ${jobId} holds a European Green Bond Standard document, not a framework document.`]);
  });

  test('GraphQL writeEuGbsDocument answers the queued job, echoing the call as /v1/call spells it; the same bytes again', async () => {
    const shown = data(await gql('{ euGbsDocument(identifier: "EUGB", year: 2024, document: FACTSHEET) { sha256 } }'))['euGbsDocument'];
    const job = data(
      await gql('mutation { writeEuGbsDocument(input: { identifier: "EUGB", year: 2024, document: FACTSHEET, network: "sepolia", idempotencyKey: "eu-1" }) { job { id status kind documentKind frameworkIdentifier request } userErrors { path code } } }'),
    )['writeEuGbsDocument'].job;
    assert.deepEqual([job.status, job.kind, job.documentKind, job.frameworkIdentifier], ['QUEUED', 'DOCUMENT', 'EU_GBS_HTML', 'EUGB']);
    assert.deepEqual(job.request, {
      solution: 'SVC.ESG.Credits',
      operation: 'writeEuGbsDocumentToBlockchain',
      parameters: { framework_identifier: 'EUGB', reporting_year: 2024, document: 'factsheet', network: 'sepolia' },
    });
    const again = data(await gql('mutation { writeEuGbsDocument(input: { identifier: "EUGB", year: 2024, document: FACTSHEET, network: "sepolia", idempotencyKey: "eu-1" }) { id } }'));
    assert.equal(again['writeEuGbsDocument'].id, job.id, 'the same key answers the same job');
    await completed(job.id);
    const doc = data(await gql('query($id: ID!) { document(jobId: $id) { verified sha256 } }', { id: job.id }))['document'];
    assert.deepEqual(doc, { verified: true, sha256: shown.sha256 });
  });

  test("only the framework's owner writes it; the services' refusals keep the error model on both faces", async () => {
    const theirs = await v1('writeEuGbsDocumentToBlockchain', { ...DOC, network: 'sepolia' }, other.apiKey);
    assert.deepEqual([theirs.status, theirs.body['message']], [404, 'No such framework "EUGB".']);
    const network = await v1('writeEuGbsDocumentToBlockchain', { ...DOC, network: 'moon' });
    assert.equal(network.status, 400);
    assert.match(network.body['message'], /^Unknown network "moon"; expected one of /);
    // A caller's mistake is data in the payload when userErrors is selected (issue 29's one error model).
    const moon = data(await gql('mutation { writeEuGbsDocument(input: { identifier: "EUGB", year: 2024, document: FACTSHEET, network: "moon" }) { job { id } userErrors { message code } } }'))['writeEuGbsDocument'];
    assert.equal(moon.job, null);
    assert.deepEqual(moon.userErrors.map((e: { code: string }) => e.code), ['BAD_USER_INPUT']);
    assert.match(moon.userErrors[0].message, /^Unknown network "moon"; expected one of /);
    const kind = onlyError(await gql('mutation { writeEuGbsDocument(input: { identifier: "EUGB", year: 2024, document: ANNUAL, network: "sepolia" }) { id } }'));
    assert.equal(kind.code, 'GRAPHQL_VALIDATION_FAILED');
    const missing = await v1('writeEuGbsDocumentToBlockchain', DOC);
    assert.deepEqual([missing.status, missing.body['message']], [400, 'network is required.']);
  });
});

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DocumentKind, JobStatus } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { embeddedNetworkSpecs } from '@green-impact/chain/networks/network-spec';
import { DocumentFormat } from '@green-impact/proto/greenimpact/common/v1/common';
import { postCall } from '@green-impact/testing/gateway/v1-calls';
import { jsonHeaders, startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { taxonomyIds } from '@green-impact/testing/gateway/taxonomy-ids';
import { assertCallError, lastCall, type CallResponse } from '@green-impact/testing/gateway/call-asserts';

/**
 * /v1/call for the blockchain operations of SVC.ESG.Credits (spec §4.2) and SVC.Blockchain.Hash (§4.12)
 * against the real chain service (its jobs run on its embedded networks; the taxonomy and portfolio services
 * render the documents), over gRPC: validation before any chain call, the requests sent, Idempotency-Key,
 * the answers' shapes. The user's key (account Acme) writes; OTHER is another account's.
 */

const ESG = 'SVC.ESG.Credits';
const HASH = 'SVC.Blockchain.Hash';
let ACME: Record<string, string>;
let OTHER: Record<string, string>;
const INNER = { solution: 'SVC.Blockchain.Save', operation: 'save', version: 1, network: 'sepolia' };
const WRITE = { framework_identifier: 'GBF', reporting_year: 2024, ...INNER };
const UUID = /^[0-9a-f-]{36}$/;

let t: TestGateway;
let positionId: number;
before(async () => {
  // sepolia's string values limited to 64 bytes, as a network with its own limit (amoy keeps the default).
  const networks = embeddedNetworkSpecs().map((n) => (n.name === 'sepolia' && n.kind === 'embedded' ? { ...n, maxStringValueBytes: 64 } : n));
  t = await startTestGateway({}, { portfolio: true, chain: true, chainNetworks: networks });
  ACME = jsonHeaders(t.userKey);
  OTHER = jsonHeaders((await t.createAccount('Other')).apiKey);
  await t.loadExampleTaxonomy();
  const ids = await taxonomyIds(t);
  await ok(ESG, 'addFramework', { framework_identifier: 'GBF', framework_name: 'Green Bond Framework', framework_currency_code: 'EUR', framework_visibility: 'public' });
  await ok(ESG, 'addYearSpecificsToFramework', { framework_identifier: 'GBF', value_outstanding: 1_000_000, allocated_amount: 800_000, value_outstanding_framework: 'yes', reporting_year: 2024 });
  await ok(ESG, 'addCategoryIndicatorToFramework', { framework_identifier: 'GBF', sub_category_id: ids.subCategory['Solar power'], sub_category_volume: 600_000, indicator_id: ids.indicator['Annual GHG emissions reduced/avoided'], indicator_value: 5_000, reporting_year: 2024 });
  await ok(ESG, 'addInvestor', { investor_identifier: 'inv_1', investor_name: 'Ann Investor', investor_currency_code: 'EUR' });
  await ok(ESG, 'addAsset', { asset_identifier: 'SE0001', asset_name: 'Green bond', issuer_identifier: 'ISS-1', framework_identifier: 'GBF', asset_currency_code: 'EUR', asset_value_outstanding: 1_000_000 });
  const added = await ok(ESG, 'addPosition', { investor_identifier: 'inv_1', asset_identifier: 'SE0001', position_amount: 100_000, position_currency_code: 'EUR', reporting_year: 2024 });
  positionId = Number(/(\d+)\.$/.exec(added.message)![1]);
});
after(async () => {
  await t.stop();
});

type Res = CallResponse;

const post = (body: object, headers: Record<string, string>): Promise<Res> => postCall(t.baseUrl, body, headers);
const call = (solution: string, operation: string, parameters?: Record<string, unknown>, headers: Record<string, string> = ACME, envelope: Record<string, unknown> = {}) =>
  post({ solution, operation, ...envelope, ...(parameters ? { parameters } : {}) }, headers);
const hash = (operation: string, parameters: Record<string, unknown>, envelope: Record<string, unknown> = { version: 1, network: 'sepolia' }, headers = ACME) =>
  call(HASH, operation, parameters, headers, envelope);

async function ok(solution: string, operation: string, parameters?: Record<string, unknown>, headers: Record<string, string> = ACME): Promise<any> {
  const res = await call(solution, operation, parameters, headers);
  assert.equal(res.status, 200, `${operation}: ${res.text}`);
  return res.json;
}

const assertError = assertCallError;

/** Waits for the chain service to run job `id` on its network; it must complete. */
async function completed(id: string): Promise<void> {
  const job = await t.settledJob(id);
  assert.equal(job.status, JobStatus.JOB_STATUS_COMPLETED, JSON.stringify(job));
}

const lastChainRequest = (method: string) => lastCall(t.chain, method).request;

// Bounds are the services' (docs/decisions.md "One owner per rule"): keys, bytes32 values, decimals, years
// are refused by the chain, taxonomy and portfolio services and tested there (services/chain/src/key-value/
// key-value-rules.test.ts, jobs-embedded.test.ts; the taxonomy's and portfolio's render tests). What the
// gateway still refuses before any call: types, required fields, the envelope, a write's inner call.
describe('validation failures are 400 before any chain call', () => {
  const cases: [string, string, string, Record<string, unknown>, Record<string, unknown> | undefined, string][] = [
    ['inner solution not the save solution', ESG, 'writeJsonFrameworkToBlockchain', { ...WRITE, solution: 'SVC.Blockchain.Hash' }, undefined, 'parameters.solution must be SVC.Blockchain.Save.'],
    ['inner operation not save', ESG, 'writeHtmlFrameworkToBlockchain', { ...WRITE, operation: 'insertString' }, undefined, 'parameters.operation must be save.'],
    ['inner version 2', ESG, 'writeJsonFrameworkToBlockchain', { ...WRITE, version: 2 }, undefined, 'parameters.version must be 1.'],
    ['inner version missing', ESG, 'writeJsonFrameworkToBlockchain', { ...WRITE, version: undefined }, undefined, 'parameters.version is required.'],
    ['inner network missing', ESG, 'writeJsonPositionImpactsToBlockchain', { position_id: 1, reporting_year: 2024, ...INNER, network: '' }, undefined, 'parameters.network is required.'],
    ['sdg flag not yes/no', ESG, 'writeJsonFrameworkToBlockchain', { ...WRITE, sdg_goals_included: 'ja' }, undefined, 'sdg_goals_included must be yes or no.'],
    ['write without year', ESG, 'writeHtmlFrameworkToBlockchain', { ...WRITE, reporting_year: undefined }, undefined, 'reporting_year is required.'],
    ['status without job id', ESG, 'getJobStatusFromBlockchain', {}, undefined, 'job_id is required.'],
    ['impacts jobs without position', ESG, 'getBlockchainJobsForImpacts', { investor_identifier: 'inv_1' }, undefined, 'position_id is required.'],
    ['Hash without version', HASH, 'insertString', { key: 'k', value: 'v' }, { network: 'sepolia' }, 'version is required for insertString.'],
    ['Hash version 2', HASH, 'insertString', { key: 'k', value: 'v' }, { version: 2, network: 'sepolia' }, 'version must be 1.'],
    ['Hash without network', HASH, 'selectString', { key: 'k' }, { version: 1 }, 'network is required for selectString.'],
    ['fetch without version', HASH, 'fetch', { jobId: 'x' }, {}, 'version is required for fetch.'],
    ['insert without value', HASH, 'insertString', { key: 'k' }, { version: 1, network: 'sepolia' }, 'value is required.'],
  ];
  for (const [name, solution, operation, parameters, envelope, message] of cases) {
    test(name, async () => {
      const before = t.chain!.calls.length;
      assertError(await call(solution, operation, parameters, ACME, envelope), 400, 'INVALID_ARGUMENT', message);
      assert.equal(t.chain!.calls.length, before, 'no chain call');
    });
  }

  test('a bad Idempotency-Key header is 400', async () => {
    const res = await post({ solution: HASH, version: 1, network: 'sepolia', operation: 'insertString', parameters: { key: 'k', value: 'v' } }, { ...ACME, 'idempotency-key': 'k'.repeat(256) });
    assertError(res, 400, 'INVALID_ARGUMENT', 'Idempotency-Key must be at most 255 characters.');
    // Operations that create no job ignore the header.
    const read = await post({ solution: ESG, operation: 'getBlockchainJobsForFrameworks', parameters: { framework_identifier: 'GBF' } }, { ...ACME, 'idempotency-key': 'k'.repeat(256) });
    assert.equal(read.status, 200, read.text);
  });
});

describe('unknown networks are 400 with the list of known ones', () => {
  test('on a write, before anything is rendered', async () => {
    const renders = t.taxonomy!.count('renderFrameworkDocument');
    assertError(await call(ESG, 'writeJsonFrameworkToBlockchain', { ...WRITE, network: 'goerli' }), 400, 'INVALID_ARGUMENT',
      'Unknown network "goerli"; expected one of sepolia, amoy, mumbai.');
    assert.equal(t.taxonomy!.count('renderFrameworkDocument'), renders);
  });
  test("insertString's value limit is the network's", async () => {
    assertError(await hash('insertString', { key: 'k', value: 'x'.repeat(65) }), 400, 'INVALID_ARGUMENT',
      'value is too large for network sepolia: at most 64 bytes (UTF-8), got 65.');
    assert.equal((await hash('insertString', { key: 'k', value: 'x'.repeat(65) }, { version: '1', network: 'amoy' })).status, 200);
  });
});

describe('framework documents: write, status, read back, list', () => {
  test('writeJsonFrameworkToBlockchain renders, submits and answers the job id', async () => {
    // The chain's worker stopped until the queued state is seen (as on a replica without one).
    await t.chainLevers!.stopWorker();
    const body = await ok(ESG, 'writeJsonFrameworkToBlockchain', { ...WRITE, decimals: 1, sdg_goals_included: 'yes', language_code: 'sv' });
    assert.deepEqual(Object.keys(body), ['statusCode', 'statusMessage', 'info', 'job_id']);
    assert.equal(body.statusCode, 200);
    assert.equal(body.statusMessage, '');
    assert.match(body.info.jobId, UUID);
    assert.equal(body.job_id, body.info.jobId);

    const render = t.taxonomy!.calls.filter((c) => c.method === 'renderFrameworkDocument').at(-1)!.request as any;
    assert.deepEqual(
      { ...render },
      { frameworkIdentifier: 'GBF', reportingYear: 2024, format: DocumentFormat.DOCUMENT_FORMAT_JSON, languageCode: 'sv', decimals: 1, sdgGoalsIncluded: true, euObjectivesIncluded: false },
    );
    const submit = lastChainRequest('submitDocument');
    assert.equal(submit.kind, DocumentKind.DOCUMENT_KIND_FRAMEWORK_JSON);
    assert.equal(submit.network, 'sepolia');
    assert.equal(submit.contentType, 'application/json');
    assert.equal(submit.frameworkIdentifier, 'GBF');
    assert.equal(submit.reportingYear, 2024);
    assert.match(submit.sha256, /^[0-9a-f]{64}$/);
    assert.deepEqual(submit.requestEcho, {
      solution: ESG,
      operation: 'writeJsonFrameworkToBlockchain',
      parameters: { framework_identifier: 'GBF', reporting_year: 2024, ...INNER, decimals: 1, sdg_goals_included: 'yes', language_code: 'sv' },
    });

    // Status while queued, then completed.
    const queued = await ok(ESG, 'getJobStatusFromBlockchain', { job_id: body.job_id });
    assert.deepEqual(queued.info.status, { Value: 'queued' });
    assert.equal(queued.info.hash, null);
    assertError(await call(ESG, 'getJsonFrameworkFromBlockchain', { job_id: body.job_id }), 400, 'FAILED_PRECONDITION', /can be read once it is completed/);
    await t.chainLevers!.startWorker();
    await completed(body.job_id);
    const done = await ok(ESG, 'getJobStatusFromBlockchain', { job_id: body.job_id });
    assert.equal(done.statusCode, 200);
    assert.deepEqual(done.info.status, { Value: 'completed' });
    assert.match(done.info.hash, /^0x[0-9a-f]{64}$/);
    // The network's explorer link as the chain service gives it (none on an embedded network; the link of
    // a network with an explorer: catalogue/chain/job-shapes.test.ts).
    const { job } = await t.chain!.client.getJob({ jobId: body.job_id }, { caller: t.user });
    assert.equal(done.info.txnUrl, job!.txUrl || null);
    assert.equal(done.info.receipt._type, 'TransactionReceipt');
    assert.deepEqual(done.info.type, { value: 'blockchain-job' });
    assert.equal(done.info.guid, body.job_id);
    assert.deepEqual(done.info.request, submit.requestEcho);

    // Read back: the verified document as written.
    const read = await ok(ESG, 'getJsonFrameworkFromBlockchain', { job_id: body.job_id });
    assert.equal(read.document, 'framework');
    assert.equal(read.framework_identifier, 'GBF');
    assert.equal(read.language_code, 'sv');
    // By the entry id as well (the spec calls job_id the "entry id").
    const [entry] = await ok(ESG, 'getBlockchainJobsForFrameworks', { framework_identifier: 'GBF' });
    assert.deepEqual(entry, { id: entry.id, job_id: body.job_id });
    assert.deepEqual(await ok(ESG, 'getJsonFrameworkFromBlockchain', { job_id: String(entry.id) }), read);
    // Wrong reader: HTML of a JSON document, or a position's reader of a framework's document.
    assertError(await call(ESG, 'getHtmlFrameworkFromBlockchain', { job_id: body.job_id }), 400, 'FAILED_PRECONDITION',
      `Job ${body.job_id} holds a JSON framework document; read it with getJsonFrameworkFromBlockchain.`);
    assertError(await call(ESG, 'getJsonPositionImpactsFromBlockchain', { job_id: body.job_id }), 400, 'FAILED_PRECONDITION',
      `Job ${body.job_id} holds a framework document, not a position impacts document.`);
    // Another account sees nothing of it.
    assertError(await call(ESG, 'getJobStatusFromBlockchain', { job_id: body.job_id }, OTHER), 404, 'NOT_FOUND', `No such job ${body.job_id}.`);
    assert.deepEqual(await ok(ESG, 'getBlockchainJobsForFrameworks', { framework_identifier: 'GBF' }, OTHER), []);
  });

  test('writeHtmlFrameworkToBlockchain, then getHtmlFrameworkFromBlockchain links {jobs_url}/<job_id>.html', async () => {
    const { job_id } = await ok(ESG, 'writeHtmlFrameworkToBlockchain', WRITE);
    assert.equal(lastChainRequest('submitDocument').contentType, 'text/html; charset=utf-8');
    await completed(job_id);
    // Without PUBLIC_BASE_URL the link starts with the origin the client used; it is a signed, expiring
    // capability link (docs/decisions.md "Documents and links").
    const linked = (await ok(ESG, 'getHtmlFrameworkFromBlockchain', { job_id })) as Record<string, string>;
    assert.deepEqual(Object.keys(linked), ['Framework document on the blockchain']);
    assert.match(linked['Framework document on the blockchain']!, signedLink(t.baseUrl, job_id));
  });

  test('a document that no longer matches its anchor is never answered', async () => {
    const { job_id } = await ok(ESG, 'writeJsonFrameworkToBlockchain', WRITE);
    await completed(job_id);
    // Its stored bytes changed in the chain's content store.
    const { cid } = await t.chain!.client.getDocument({ jobId: job_id }, { caller: t.user });
    await writeFile(join(t.chainLevers!.contentDir, 'blocks', cid), '{"changed":true}');
    assertError(await call(ESG, 'getJsonFrameworkFromBlockchain', { job_id }), 400, 'FAILED_PRECONDITION',
      new RegExp(`^The document of job ${job_id} does not match its anchor on network sepolia \\(content sha256 [0-9a-f]{64}, anchored [0-9a-f]{64}\\): it is not served\\.$`));
  });

  test('a failed job: fetch answers the reason; reading is refused', async () => {
    // The chain's signer cannot pay on sepolia meanwhile: its node refuses the transaction, and the job fails.
    const refill = await t.chainLevers!.drainSigner('sepolia');
    let job_id: string;
    try {
      job_id = (await ok(ESG, 'writeJsonFrameworkToBlockchain', WRITE)).job_id;
      assert.equal((await t.settledJob(job_id)).status, JobStatus.JOB_STATUS_FAILED);
    } finally {
      await refill();
    }
    const status = await ok(ESG, 'getJobStatusFromBlockchain', { job_id });
    assert.equal(status.statusCode, 200);
    assert.match(status.statusMessage, /^The network refused the transaction: .*funds/i);
    assert.deepEqual(status.info.status, { Value: 'failed' });
    assert.equal(status.info.error, status.statusMessage);
    assertError(await call(ESG, 'getJsonFrameworkFromBlockchain', { job_id }), 400, 'FAILED_PRECONDITION',
      new RegExp(`^Job ${job_id} failed; there is no document to read: The network refused the transaction: `));
  });

  test('unknown framework: the taxonomy service says so; nothing is submitted', async () => {
    const submits = t.chain!.count('submitDocument');
    assertError(await call(ESG, 'writeJsonFrameworkToBlockchain', { ...WRITE, framework_identifier: 'NOPE' }), 404, 'NOT_FOUND', 'No such framework "NOPE".');
    assert.equal(t.chain!.count('submitDocument'), submits);
  });
});

describe('position impacts documents', () => {
  test('write with the investor and a decryption key that is never echoed; list by investor and position', async () => {
    const body = await ok(ESG, 'writeJsonPositionImpactsToBlockchain', {
      position_id: positionId, reporting_year: 2024, ...INNER, network: 'mumbai', write_investor_to_blockchain: 'yes', depryption_key: 'k'.repeat(64),
    });
    const render = t.portfolio!.calls.filter((c) => c.method === 'renderPositionImpactsDocument').at(-1)!.request as any;
    assert.equal(render.positionId, positionId);
    assert.equal(render.writeInvestorToBlockchain, true);
    assert.equal(render.decryptionKey, 'k'.repeat(64));
    const submit = lastChainRequest('submitDocument');
    assert.equal(submit.kind, DocumentKind.DOCUMENT_KIND_POSITION_IMPACTS_JSON);
    assert.equal(submit.network, 'mumbai');
    assert.equal(submit.investorIdentifier, 'inv_1');
    assert.equal(submit.positionId, positionId);
    assert.doesNotMatch(JSON.stringify(submit.requestEcho), /kkkk|decryption|depryption/);
    await completed(body.job_id);
    const doc = await ok(ESG, 'getJsonPositionImpactsFromBlockchain', { job_id: body.job_id });
    // The document as the portfolio service renders it: the investor's name in it, as written with the investor.
    assert.equal(doc.document, 'position_impacts');
    assert.equal(doc.position.position_id, positionId);
    assert.deepEqual(doc.investor, { investor_identifier: 'inv_1', investor_name: 'Ann Investor' });
    assert.deepEqual(await ok(ESG, 'getBlockchainJobsForImpacts', { investor_identfier: 'inv_1', position_id: positionId }), [
      { id: (await ok(ESG, 'getBlockchainJobsForImpacts', { investor_identifier: 'inv_1', position_id: positionId }))[0].id, job_id: body.job_id },
    ]);
    const html = await ok(ESG, 'writeHtmlPositionImpactsToBlockchain', { position_id: positionId, reporting_year: 2024, ...INNER });
    await completed(html.job_id);
    const impactsLink = (await ok(ESG, 'getHtmlPositionImpactsFromBlockchain', { job_id: html.job_id })) as Record<string, string>;
    assert.deepEqual(Object.keys(impactsLink), ['Position impacts document on the blockchain']);
    assert.match(impactsLink['Position impacts document on the blockchain']!, signedLink(t.baseUrl, html.job_id));
  });
});

// SVC.Blockchain.Hash's key-value storage runs on the real services: v1/hash-call.test.ts.
describe('Idempotency-Key on the ESG writes', () => {
  test('Idempotency-Key on a document write', async () => {
    const headers = { ...ACME, 'idempotency-key': 'fw-2024' };
    const first = await post({ solution: ESG, operation: 'writeJsonFrameworkToBlockchain', parameters: WRITE }, headers);
    const again = await post({ solution: ESG, operation: 'writeJsonFrameworkToBlockchain', parameters: WRITE }, headers);
    assert.equal(first.status, 200, first.text);
    assert.equal(again.json.job_id, first.json.job_id);
  });
});

describe('without a chain backend', () => {
  test('the operations answer 503 after validation', async () => {
    const bare = await t.another({ CHAIN_GRPC_ADDR: undefined });
    try {
      const write = await postCall(bare.baseUrl, { solution: ESG, operation: 'writeJsonFrameworkToBlockchain', parameters: WRITE }, ACME);
      assertError(write, 503, 'UNAVAILABLE', 'The chain service is not available: this deployment runs without it (CHAIN_GRPC_ADDR is not set; npm start: CHAIN_ENABLED=false).');
      // What the gateway checks (types, required fields, the envelope) comes first; the bounds are the service's.
      const bad = await postCall(bare.baseUrl, { solution: HASH, version: 1, network: 'sepolia', operation: 'insertString', parameters: { key: 'k' } }, ACME);
      assertError(bad, 400, 'INVALID_ARGUMENT', 'value is required.');
      const unchecked = await postCall(bare.baseUrl, { solution: HASH, version: 1, network: 'sepolia', operation: 'insertString', parameters: { key: 'k'.repeat(33), value: 'v' } }, ACME);
      assertError(unchecked, 503, 'UNAVAILABLE', 'The chain service is not available: this deployment runs without it (CHAIN_GRPC_ADDR is not set; npm start: CHAIN_ENABLED=false).');
      const fetch = await postCall(bare.baseUrl, { solution: HASH, version: 1, operation: 'fetch', parameters: { jobId: 'x' } }, ACME);
      assert.equal(fetch.status, 503);
    } finally {
      await bare.stop();
    }
  });
});

/** `{base}/jobs/<job_id>.html` signed: link epoch, expiry (unix seconds) and an HMAC-SHA256 in base64url. */
function signedLink(base: string, jobId: string): RegExp {
  const escaped = `${base}/jobs/${jobId}.html`.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return new RegExp(`^${escaped}\\?v=0&exp=\\d{10}&sig=[A-Za-z0-9_-]{43}$`);
}

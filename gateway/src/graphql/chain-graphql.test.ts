import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DocumentFormat } from '@green-impact/proto/greenimpact/common/v1/common';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { JobStatus } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { startPortfolioGateway } from '@green-impact/testing/gateway/portfolio-gateway';
import type { TestAccount, TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { taxonomyIds } from '@green-impact/testing/gateway/taxonomy-ids';
import { data, gqlAt, onlyError, type GqlResponse } from '@green-impact/testing/gateway/graphql-calls';

/**
 * GraphQL over blockchain jobs, networks and documents, against the real services: the chain service runs
 * its jobs on its embedded network, documents rendered by the taxonomy and portfolio services. The user's
 * key writes; `other` is another account.
 */

let t: TestGateway;
let other: TestAccount;

const gql = (query: string, variables: Record<string, unknown> = {}, apiKey: string | null = t.userKey): Promise<GqlResponse> =>
  gqlAt(t.baseUrl, query, variables, apiKey);
let positionId: string;
before(async () => {
  t = await startPortfolioGateway({ PUBLIC_BASE_URL: 'https://impact.example.org/' }, { chain: true });
  other = await t.createAccount('Other');
  await t.loadExampleTaxonomy();
  const ids = await taxonomyIds(t);
  data(
    await gql(`mutation {
      y: addYearSpecificsToFramework(input: { identifier: "GBF", year: 2024, valueOutstanding: 1000000, allocatedAmount: 800000, valueOutstandingFramework: true }) { message }
      r: addCategoryIndicatorToFramework(input: { identifier: "GBF", year: 2024, subCategoryId: ${ids.subCategory['Solar power']}, volume: 600000, indicatorId: ${ids.indicator['Annual GHG emissions reduced/avoided']}, value: 5000 }) { message }
      i: addInvestor(input: { identifier: "inv_1", name: "Ann", currencyCode: "EUR" }) { message }
      a: addAsset(input: { identifier: "SE0001", name: "Green bond", issuerIdentifier: "ISS-1", frameworkIdentifier: "GBF", currencyCode: "EUR", valueOutstanding: 1000000 }) { message }
    }`),
  );
  const added = data(
    await gql(`mutation { addPosition(input: { investorIdentifier: "inv_1", assetIdentifier: "SE0001", amount: 100000, currencyCode: "EUR", year: 2024 }) { id } }`),
  );
  positionId = String(added['addPosition'].id);
});
after(async () => {
  await t.stop();
});

/** Waits for the chain service to run job `id` on its network; it must complete. */
async function completed(id: string): Promise<void> {
  const job = await t.settledJob(id);
  assert.equal(job.status, JobStatus.JOB_STATUS_COMPLETED, JSON.stringify(job));
}

/** Changes a document's stored bytes in the chain's content store: it no longer matches its anchor. */
async function tamper(cid: string): Promise<void> {
  await writeFile(join(t.chainLevers!.contentDir, 'blocks', cid), '<p>changed</p>');
}

const JOB = `id kind documentKind network status request txHash txUrl blockNumber gasUsed gasPrice networkCost networkTotal error attempts
  createdAt updatedAt completedAt idempotencyKey frameworkIdentifier positionId investorIdentifier reportingYear key
  receipt { blockNumber status from to logs { address topics transactionHash } }
  keyValue { key value found contractAddress }
  document { documentId kind cid sha256 contentType size contentUrl pageUrl }`;

describe('document writes', () => {
  test('writeFrameworkDocument queues a job; job(id) follows it to COMPLETED; document(jobId) reads it verified', async () => {
    const written = data(
      await gql(`mutation($input: WriteFrameworkDocumentInput!) { writeFrameworkDocument(input: $input) { job { ${JOB} } } }`, {
        input: { identifier: 'GBF', year: 2024, format: 'JSON', network: 'sepolia', decimals: 1, sdgGoalsIncluded: true, idempotencyKey: 'gql-1' },
      }),
    )['writeFrameworkDocument'].job;
    assert.equal(written.status, 'QUEUED');
    assert.equal(written.kind, 'DOCUMENT');
    assert.equal(written.documentKind, 'FRAMEWORK_JSON');
    assert.equal(written.frameworkIdentifier, 'GBF');
    assert.equal(written.idempotencyKey, 'gql-1');
    assert.equal(written.txHash, null);
    assert.deepEqual(written.request, {
      solution: 'SVC.ESG.Credits',
      operation: 'writeJsonFrameworkToBlockchain',
      parameters: {
        framework_identifier: 'GBF', reporting_year: 2024, decimals: 1, solution: 'SVC.Blockchain.Save', operation: 'save', version: 1, network: 'sepolia',
        sdg_goals_included: 'yes', eu_objectives_included: 'no',
      },
    });
    const render = t.taxonomy!.calls.filter((c) => c.method === 'renderFrameworkDocument').at(-1)!.request as any;
    assert.deepEqual(JSON.parse(JSON.stringify(render)), { frameworkIdentifier: 'GBF', reportingYear: 2024, format: DocumentFormat.DOCUMENT_FORMAT_JSON, decimals: 1, sdgGoalsIncluded: true, euObjectivesIncluded: false });

    // The same idempotency key answers the same job.
    const again = data(
      await gql(`mutation { writeFrameworkDocument(input: { identifier: "GBF", year: 2024, format: JSON, network: "sepolia", decimals: 1, sdgGoalsIncluded: true, idempotencyKey: "gql-1" }) { job { id } } }`),
    );
    assert.equal(again['writeFrameworkDocument'].job.id, written.id);

    await completed(written.id);
    const job = data(await gql(`query($id: ID!) { job(id: $id) { ${JOB} } }`, { id: written.id }))['job'];
    assert.equal(job.status, 'COMPLETED');
    assert.match(job.txHash, /^0x[0-9a-f]{64}$/);
    assert.equal(job.receipt.status, 1);
    assert.match(job.gasUsed, /^[1-9]\d*$/);
    assert.equal(job.document.kind, 'FRAMEWORK_JSON');
    assert.equal(job.document.contentUrl, `https://impact.example.org/ipfs/${job.document.cid}`);
    assert.equal(job.document.pageUrl, null);

    const doc = data(
      await gql(`query($id: ID!) { document(jobId: $id) { kind verified cid sha256 anchoredSha256 contentType json content pageUrl job { id status } } }`, { id: written.id }),
    )['document'];
    assert.equal(doc.verified, true);
    assert.equal(doc.sha256, doc.anchoredSha256);
    assert.equal(doc.json.framework_identifier, 'GBF');
    assert.deepEqual(JSON.parse(doc.content), doc.json);
    assert.deepEqual(doc.job, { id: written.id, status: 'COMPLETED' });

    // Another account sees nothing of it.
    const theirs = data(await gql(`query($id: ID!) { job(id: $id) { id } document(jobId: $id) { cid } }`, { id: written.id }, other.apiKey));
    assert.deepEqual(theirs, { job: null, document: null });
  });

  test('an HTML position impacts document; documents lists it; a tampered one is an error', async () => {
    const written = data(
      await gql(`mutation($input: WritePositionImpactsDocumentInput!) { writePositionImpactsDocument(input: $input) { job { id documentKind investorIdentifier positionId request } } }`, {
        input: { positionId, year: 2024, format: 'HTML', network: 'mumbai', writeInvestor: true, decryptionKey: 'k'.repeat(64) },
      }),
    )['writePositionImpactsDocument'].job;
    assert.equal(written.documentKind, 'POSITION_IMPACTS_HTML');
    assert.equal(written.investorIdentifier, 'inv_1');
    assert.equal(written.positionId, positionId);
    assert.equal(written.request.operation, 'writeHtmlPositionImpactsToBlockchain');
    assert.equal(written.request.parameters.write_investor_to_blockchain, 'yes');
    assert.doesNotMatch(JSON.stringify(written.request), /decryption|kkkk/);
    await completed(written.id);
    const doc = data(await gql(`query($id: ID!) { document(jobId: $id) { cid pageUrl json } }`, { id: written.id }))['document'];
    assert.equal(doc.json, null);
    // The page as a signed link (document-links.ts): it opens in a browser without the key.
    assert.match(doc.pageUrl, new RegExp(`^https://impact\\.example\\.org/jobs/${written.id}\\.html\\?v=0&exp=\\d+&sig=[A-Za-z0-9_-]{43}$`));
    const entries = data(await gql(`query($p: ID!) { documents(investorIdentifier: "inv_1", positionId: $p) { nodes { id jobId kind status network reportingYear } } }`, { p: positionId }))['documents'].nodes;
    assert.deepEqual(entries.map((e: any) => ({ ...e, id: undefined })), [
      { id: undefined, jobId: written.id, kind: 'POSITION_IMPACTS_HTML', status: 'COMPLETED', network: 'mumbai', reportingYear: 2024 },
    ]);
    await tamper(doc.cid);
    const err = onlyError(await gql(`query($id: ID!) { document(jobId: $id) { cid } }`, { id: written.id }));
    assert.equal(err.code, 'CONFLICT');
    assert.match(err.message, /does not match its anchor/);
  });

  // The year's and the decimals' bounds are the rendering service's (taxonomy), tested there; a network
  // name that is none is refused as any unknown one, by the chain service's list.
  test('validation names the input fields; unknown networks are refused with the known ones', async () => {
    const write = (input: string) => gql(`mutation { writeFrameworkDocument(input: { ${input} }) { job { id } } }`);
    assert.deepEqual(onlyError(await write('identifier: "GBF", year: 2024, format: JSON, network: "a b"')), {
      message: 'Unknown network "a b"; expected one of sepolia, amoy, mumbai.', code: 'BAD_USER_INPUT',
    });
    assert.deepEqual(onlyError(await write('identifier: "GBF", year: 2024, format: JSON, network: "goerli"')), {
      message: 'Unknown network "goerli"; expected one of sepolia, amoy, mumbai.', code: 'BAD_USER_INPUT',
    });
    assert.equal(onlyError(await write('identifier: "GBF", year: 2024, format: PDF, network: "sepolia"')).code, 'GRAPHQL_VALIDATION_FAILED');
  });

  test("a caller's mistakes in the payloads' userErrors, with a path (issue 29)", async () => {
    const USER_ERRORS = 'job { id } userErrors { message code path }';
    const res = data(
      await gql(`mutation($p: ID!) {
        network: writeFrameworkDocument(input: { identifier: "GBF", year: 2024, format: JSON, network: "goerli" }) { ${USER_ERRORS} }
        missing: writeFrameworkDocument(input: { identifier: "NO-SUCH", year: 2024, format: JSON, network: "sepolia" }) { ${USER_ERRORS} }
        position: writePositionImpactsDocument(input: { positionId: $p, year: 2024, format: JSON, network: "sepolia", decimals: 99 }) { ${USER_ERRORS} }
      }`, { p: positionId }),
    );
    assert.deepEqual(res['network'], {
      job: null,
      userErrors: [{ message: 'Unknown network "goerli"; expected one of sepolia, amoy, mumbai.', code: 'BAD_USER_INPUT', path: ['input', 'network'] }],
    });
    assert.deepEqual([res['missing'].job, res['missing'].userErrors.map((e: any) => [e.code, e.path])], [null, [['NOT_FOUND', null]]], JSON.stringify(res));
    assert.deepEqual([res['position'].job, res['position'].userErrors.map((e: any) => [e.code, e.path])], [null, [['BAD_USER_INPUT', ['input', 'decimals']]]], JSON.stringify(res));
  });
});

test('without a chain backend: SERVICE_UNAVAILABLE', async () => {
  const bare = await t.another({ CHAIN_GRPC_ADDR: undefined });
  try {
    const { body } = await gqlAt(bare.baseUrl, '{ networks { name } }', {}, t.userKey);
    assert.equal(body.errors?.[0]?.extensions?.['code'], 'SERVICE_UNAVAILABLE');
  } finally {
    await bare.stop();
  }
});

test('every chain type, field, argument and enum value is described', async () => {
  const res = await gql(`{
    __schema { types { name description enumValues { name description } fields { name description args { name description } }
      inputFields { name description } } }
  }`);
  type T = {
    name: string;
    description: string | null;
    enumValues: { name: string; description: string | null }[] | null;
    fields: { name: string; description: string | null; args: { name: string; description: string | null }[] }[] | null;
    inputFields: { name: string; description: string | null }[] | null;
  };
  const mine = new Set([
    'JSON', 'JobStatus', 'JobKind', 'DocumentKind', 'DocumentFormat', 'Job', 'JobConnection', 'PageInfo', 'TransactionReceipt', 'TransactionLog',
    'KeyValueResult', 'DocumentResult', 'Network', 'DocumentEntry', 'Document', 'WriteFrameworkDocumentInput', 'WritePositionImpactsDocumentInput',
    'KeyValueInput', 'KeySelectInput',
  ]);
  const missing: string[] = [];
  const types = (data(res)['__schema'] as { types: T[] }).types;
  assert.deepEqual(types.filter((t) => mine.has(t.name)).length, mine.size);
  for (const type of types.filter((t) => mine.has(t.name))) {
    if (!type.description) missing.push(type.name);
    for (const f of [...(type.inputFields ?? []), ...(type.enumValues ?? [])]) if (!f.description) missing.push(`${type.name}.${f.name}`);
    for (const f of type.fields ?? []) {
      if (!f.description) missing.push(`${type.name}.${f.name}`);
      for (const a of f.args) if (!a.description) missing.push(`${type.name}.${f.name}(${a.name})`);
    }
  }
  assert.deepEqual(missing, []);
});

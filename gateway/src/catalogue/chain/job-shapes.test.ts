import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DocumentKind, JobKind, JobStatus, type GetDocumentResponse, type Job } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { DocumentFormat } from '@green-impact/proto/greenimpact/common/v1/common';
import {
  documentFormat,
  documentKind,
  documentKindParts,
  requestEcho,
  documentLink,
  pageUrl,
  signedPageUrl,
  fetchAnswer,
  jobAccepted,
  jobListEntry,
  jsonDocument,
  receiptShape,
  requireVerifiedDocument,
  writeAccepted,
} from './job-shapes.js';
import { DocumentLinks } from '../../document-links.js';

const ID = '6f1c2f0e-8a51-4c39-9d0b-2d5c9a3f7e10';
const queued: Job = {
  id: ID,
  kind: JobKind.JOB_KIND_KV_SELECT_STRING,
  network: 'sepolia',
  status: JobStatus.JOB_STATUS_QUEUED,
  request: { solution: 'SVC.Blockchain.Hash', operation: 'selectString', parameters: { key: 'k' } },
  attempts: 0,
  createdAt: '2024-05-01T10:00:00.000Z',
  updatedAt: '2024-05-01T10:00:00.000Z',
};
const receipt = {
  type: 'TransactionReceipt',
  blockHash: '0xbb',
  blockNumber: 12,
  cumulativeGasUsed: '60000',
  from: '0xfrom',
  gasPrice: '1000000000',
  gasUsed: '50000',
  hash: '0xtx',
  index: 0,
  logs: [{ type: 'log', address: '0xreg', blockHash: '0xbb', blockNumber: 12, data: '0x', index: 3, topics: ['0xt1'], transactionHash: '0xtx', transactionIndex: 0 }],
  logsBloom: '0x00',
  status: 1,
  to: '0xreg',
};

test('job answers: the Hash/NFT shape, and the writes add job_id', () => {
  assert.deepEqual(jobAccepted(ID), { statusCode: 200, statusMessage: '', info: { jobId: ID } });
  assert.deepEqual(writeAccepted(ID), { statusCode: 200, statusMessage: '', info: { jobId: ID }, job_id: ID });
});

test('fetch of a queued job: every key present, null until known', () => {
  const answer = fetchAnswer(queued);
  assert.deepEqual(answer, {
    statusCode: 200,
    statusMessage: '',
    info: {
      status: { Value: 'queued' },
      request: queued.request,
      result: null,
      hash: null,
      txnUrl: null,
      receipt: null,
      networkCost: null,
      networkFee: null,
      networkTotal: null,
      guid: ID,
      type: { value: 'blockchain-job' },
      timestampInMillis: Date.parse('2024-05-01T10:00:00.000Z'),
    },
  });
  // The spec's order of info's keys.
  assert.deepEqual(Object.keys(answer.info), [
    'status', 'request', 'result', 'hash', 'txnUrl', 'receipt', 'networkCost', 'networkFee', 'networkTotal', 'guid', 'type', 'timestampInMillis',
  ]);
});

test('fetch of a completed job: transaction, receipt in ethers form, costs and the result read', () => {
  const job: Job = {
    ...queued,
    status: JobStatus.JOB_STATUS_COMPLETED,
    txHash: '0xtx',
    txUrl: 'https://sepolia.etherscan.io/tx/0xtx',
    receipt,
    networkCost: 0.00005,
    networkFee: 0,
    networkTotal: 0.00005,
    result: { key: 'k', value: 'hello' },
    updatedAt: '2024-05-01T10:00:05.000Z',
  };
  const { info, statusMessage } = fetchAnswer(job);
  assert.equal(statusMessage, '');
  assert.deepEqual(info.status, { Value: 'completed' });
  assert.deepEqual(info.result, { key: 'k', value: 'hello' });
  assert.equal(info.hash, '0xtx');
  assert.equal(info.txnUrl, 'https://sepolia.etherscan.io/tx/0xtx');
  assert.deepEqual(info.receipt, receiptShape(receipt));
  assert.equal(info.receipt?._type, 'TransactionReceipt');
  assert.equal(info.receipt?.contractAddress, null);
  assert.deepEqual(info.receipt?.logs[0], {
    _type: 'log', address: '0xreg', blockHash: '0xbb', blockNumber: 12, data: '0x', index: 3, topics: ['0xt1'], transactionHash: '0xtx', transactionIndex: 0,
  });
  assert.equal(info.networkTotal, 0.00005);
  assert.equal(info.timestampInMillis, Date.parse('2024-05-01T10:00:05.000Z'));
});

test('fetch of a failed job: statusCode stays 200, the reason in statusMessage and error', () => {
  const failed = fetchAnswer({ ...queued, status: JobStatus.JOB_STATUS_FAILED, error: 'The transaction would revert: NotWriter(0xabc). Nothing was sent.' });
  assert.equal(failed.statusCode, 200);
  assert.equal(failed.statusMessage, 'The transaction would revert: NotWriter(0xabc). Nothing was sent.');
  assert.deepEqual(failed.info.status, { Value: 'failed' });
  assert.equal((failed.info as Record<string, unknown>)['error'], failed.statusMessage);
});

test('fetch of an NFT mint job: guid is the NFT guid, and the certificate of trust is named', () => {
  const nft = {
    guid: 'nft-guid', network: 'sepolia', nftTxHash: '0xtx', nftId: '1', nftIpfsHash: 'bafk1', nftImageIpfsHash: 'bafk2', status: 2, timestamp: 1,
    certificateOfTrust: 'https://x/c.pdf', certificateOfTrustJpg: 'https://x/c.jpg', certificateOfTrustUrl: 'https://x/c',
    certificatePdfCid: 'bafk3', certificateJpgCid: 'bafk4', contractAddress: '0xnft', ownerAddress: '0xo', mintJobId: ID,
  };
  const { info } = fetchAnswer({ ...queued, kind: JobKind.JOB_KIND_NFT_MINT, nftGuid: 'nft-guid', nft });
  assert.equal(info.guid, 'nft-guid');
  assert.deepEqual(
    { pdf: info.certificateOfTrust, jpg: info.certificateOfTrustJPG, url: info.certificateOfTrustUrl },
    { pdf: 'https://x/c.pdf', jpg: 'https://x/c.jpg', url: 'https://x/c' },
  );
  assert.deepEqual(Object.keys(info).slice(9, 13), ['certificateOfTrust', 'certificateOfTrustJPG', 'certificateOfTrustUrl', 'guid']);
});

test('job list entries are {id, job_id}', () => {
  const entry = { id: 7, jobId: ID, kind: DocumentKind.DOCUMENT_KIND_FRAMEWORK_JSON, status: JobStatus.JOB_STATUS_COMPLETED, network: 'sepolia', createdAt: 'x' };
  assert.deepEqual(jobListEntry(entry), { id: 7, job_id: ID });
});

const json = Buffer.from('{"document":"framework","framework_identifier":"GBF-2024"}');
const doc = (over: Partial<GetDocumentResponse> = {}): GetDocumentResponse => ({
  job: { ...queued, kind: JobKind.JOB_KIND_DOCUMENT, status: JobStatus.JOB_STATUS_COMPLETED },
  kind: DocumentKind.DOCUMENT_KIND_FRAMEWORK_JSON,
  content: json,
  contentType: 'application/json',
  cid: 'bafkreiabc',
  sha256: 'aa',
  anchoredSha256: 'aa',
  verified: true,
  documentId: 7,
  linkEpoch: 0,
  chainReadAt: '2024-01-01T00:00:00.000Z',
  unverifiedReason: '',
  ...over,
});

test('a read document must be the kind asked for and verified', () => {
  assert.deepEqual(jsonDocument(requireVerifiedDocument(doc(), { family: 'framework', format: 'json' })), {
    document: 'framework',
    framework_identifier: 'GBF-2024',
  });
  assert.throws(() => requireVerifiedDocument(doc(), { family: 'framework', format: 'html' }), {
    code: 'FAILED_PRECONDITION',
    message: `Job ${ID} holds a JSON framework document; read it with getJsonFrameworkFromBlockchain.`,
  });
  assert.throws(() => requireVerifiedDocument(doc(), { family: 'position_impacts', format: 'json' }), {
    code: 'FAILED_PRECONDITION',
    message: `Job ${ID} holds a framework document, not a position impacts document.`,
  });
  assert.throws(() => requireVerifiedDocument(doc({ verified: false, sha256: 'bb' }), { family: 'framework' }), {
    code: 'FAILED_PRECONDITION',
    message: `The document of job ${ID} does not match its anchor on network sepolia (content sha256 bb, anchored aa): it is not served.`,
  });
  // Issue 46: a proof on a contract the deployment's trust anchor does not name is said so.
  assert.throws(() => requireVerifiedDocument(doc({ verified: false, unverifiedReason: 'contract not trusted' }), { family: 'framework' }), {
    code: 'FAILED_PRECONDITION',
    message: /^The document of job [0-9a-f-]+ is not verified: contract not trusted /,
  });
  assert.throws(() => requireVerifiedDocument(doc({ kind: DocumentKind.DOCUMENT_KIND_UNSPECIFIED }), {}), { code: 'FAILED_PRECONDITION' });
  assert.throws(() => requireVerifiedDocument({ ...doc(), job: undefined }, {}), { code: 'INTERNAL' });
});

test('HTML links: one key with a link text, valued {jobs_url}/<job_id>.html signed for the link epoch', () => {
  const links = new DocumentLinks({ secret: Buffer.alloc(32, 7), previousSecret: undefined, ttlSeconds: 3600, generated: false }, () => 1_700_000_000_000);
  const url = signedPageUrl(links, 'https://impact.example.org', { job: { id: ID }, linkEpoch: 2 });
  assert.match(url, new RegExp(`^https://impact\\.example\\.org/jobs/${ID}\\.html\\?v=2&exp=1700003600&sig=[A-Za-z0-9_-]{43}$`));
  assert.deepEqual(documentLink('framework', url), { 'Framework document on the blockchain': url });
  assert.deepEqual(Object.keys(documentLink('position_impacts', url)), ['Position impacts document on the blockchain']);
  assert.equal(pageUrl('http://127.0.0.1:8080', ID), `http://127.0.0.1:8080/jobs/${ID}.html`);
});

test('document kinds: family and format both ways', () => {
  for (const family of ['framework', 'position_impacts'] as const) {
    for (const format of ['json', 'html'] as const) assert.deepEqual(documentKindParts(documentKind(family, format)), { family, format });
  }
  assert.equal(documentKind('position_impacts', 'html'), DocumentKind.DOCUMENT_KIND_POSITION_IMPACTS_HTML);
  assert.equal(documentKindParts(DocumentKind.DOCUMENT_KIND_UNSPECIFIED), undefined);
  assert.equal(documentKindParts(undefined), undefined);
  assert.equal(documentFormat('json'), DocumentFormat.DOCUMENT_FORMAT_JSON);
  assert.equal(documentFormat('html'), DocumentFormat.DOCUMENT_FORMAT_HTML);
});

test('requestEcho: the call in its legacy form, without keys', () => {
  assert.deepEqual(requestEcho('SVC.ESG.Credits', 'writeJsonPositionImpactsToBlockchain', { position_id: 12, decryption_key: 'secret', language_code: undefined }), {
    solution: 'SVC.ESG.Credits',
    operation: 'writeJsonPositionImpactsToBlockchain',
    parameters: { position_id: 12 },
  });
  const echo = requestEcho('SVC.Blockchain.Hash', 'insertString', { key: 'k', value: 'v' }, { version: 1, network: 'sepolia' });
  assert.deepEqual(echo, { solution: 'SVC.Blockchain.Hash', version: 1, network: 'sepolia', operation: 'insertString', parameters: { key: 'k', value: 'v' } });
  assert.deepEqual(Object.keys(echo), ['solution', 'version', 'network', 'operation', 'parameters']);
});

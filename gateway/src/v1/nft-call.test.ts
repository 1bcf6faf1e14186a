import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { JobStatus } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { serveNftImage } from '@green-impact/testing/gateway/nft-image';
import { postCall } from '@green-impact/testing/gateway/v1-calls';
import { jsonHeaders, startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { assertCallError, lastCall, type CallResponse } from '@green-impact/testing/gateway/call-asserts';

/**
 * /v1/call SVC.NFT.zK (spec §4.13, and the unnamed fetch, claim and revoke) against the real chain service
 * (minting on its embedded network an image served on loopback): envelope and parameter validation before
 * any chain call, the requests sent, the key exemption of claim and revoke, the answers' shapes, and codes
 * kept out of every echo. The user's key (account Acme) mints; OTHER is another account's.
 */

const NFT = 'SVC.NFT.zK';
let ACME: Record<string, string>;
let OTHER: Record<string, string>;
const NO_KEY = { 'content-type': 'application/json' };
const ENVELOPE = { version: 1, network: 'sepolia' };
const WALLET = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const NEW = { name: 'Solar Park Südheide', description: '12.4 GWh of solar power', image: 'https://images.example.org/solar.png', attributes: [{ trait_type: 'tCO2e', value: 5320 }] };

type Res = CallResponse;

let t: TestGateway;
let image: Awaited<ReturnType<typeof serveNftImage>>;
/** NEW with an image the chain service can fetch (NEW's own is never fetched: refused before any call). */
let mintable: typeof NEW;
before(async () => {
  image = await serveNftImage();
  t = await startTestGateway({}, { chain: true, nftImage: { allowPrivateHosts: true } });
  ACME = jsonHeaders(t.userKey);
  OTHER = jsonHeaders((await t.createAccount('Other')).apiKey);
  mintable = { ...NEW, image: image.url };
});
after(async () => {
  await t.stop();
  await image.close();
});

const nft = (operation: string, parameters: Record<string, unknown> | undefined, envelope: Record<string, unknown> = ENVELOPE, headers: Record<string, string> = ACME): Promise<Res> =>
  postCall(t.baseUrl, { solution: NFT, operation, ...envelope, ...(parameters ? { parameters } : {}) }, headers);

async function ok(res: Promise<Res>): Promise<any> {
  const r = await res;
  assert.equal(r.status, 200, r.text);
  return r.json;
}

const assertError = assertCallError;

const lastRequest = (method: string): any => lastCall(t.chain, method);

/** Waits for the chain service to run job `id` on its network; it must complete. */
async function completed(id: string): Promise<void> {
  const job = await t.settledJob(id);
  assert.equal(job.status, JobStatus.JOB_STATUS_COMPLETED, JSON.stringify(job));
}

/** Mints and completes: the NFT's job, guid and token id. */
async function minted(parameters: Record<string, unknown> = mintable): Promise<{ jobId: string; guid: string; nftId: string }> {
  const { info } = await ok(nft('new', parameters));
  await completed(info.jobId);
  const fetched = await ok(nft('fetch', { jobId: info.jobId }, {}));
  return { jobId: info.jobId, guid: fetched.info.guid, nftId: fetched.info.result.nftId };
}

// Images, attribute values and traits, wallet addresses, e-mail addresses and ranges are the chain
// service's rules (docs/nfts.md), tested there: services/chain/src/nfts/nft-rules.test.ts, image-source.test.ts.
// What the gateway still refuses before any call: the envelope, required fields, types, the shape of attributes.
describe('validation failures are 400 before any chain call', () => {
  const cases: [string, string, Record<string, unknown>, Record<string, unknown>, string][] = [
    ['new without version', 'new', NEW, { network: 'sepolia' }, 'version is required for new.'],
    ['new without network', 'new', NEW, { version: 1 }, 'network is required for new.'],
    ['new with version 2', 'new', NEW, { version: 2, network: 'sepolia' }, 'version must be 1.'],
    ['new with a bad network name', 'new', NEW, { version: 1, network: 'sepolia mainnet' }, 'network must be a network name such as sepolia.'],
    ['new without name', 'new', { ...NEW, name: '' }, ENVELOPE, 'name is required.'],
    ['new without image', 'new', { ...NEW, image: undefined }, ENVELOPE, 'image is required.'],
    ['attributes a string', 'new', { ...NEW, attributes: 'colour=green' }, ENVELOPE, 'attributes must be a list of {trait_type, value} or an object of trait types and values.'],
    ['attributes a list of strings', 'new', { ...NEW, attributes: ['green'] }, ENVELOPE, 'attributes[0] must be an object with trait_type and value.'],
    ['transfer without version', 'transfer', { nftId: '1', address: WALLET }, { network: 'sepolia' }, 'version is required for transfer.'],
    ['transfer without network', 'transfer', { nftId: '1', address: WALLET }, { version: 1 }, 'network is required for transfer.'],
    ['transfer without nftId', 'transfer', { address: WALLET }, ENVELOPE, 'nftId is required.'],
    ['send without network', 'send', { nftId: '1', email: 'ann@example.org' }, { version: 1 }, 'network is required for send.'],
    ['list with a text bound', 'list', { to: 'yesterday' }, {}, 'to must be an integer.'],
    ['fetch without job id', 'fetch', {}, {}, 'jobId is required.'],
  ];
  for (const [name, operation, parameters, envelope, message] of cases) {
    test(name, async () => {
      const before = t.chain!.calls.length;
      assertError(await nft(operation, parameters, envelope), 400, 'INVALID_ARGUMENT', message);
      assert.equal(t.chain!.calls.length, before, 'no chain call');
    });
  }

  test('claim and revoke validate without a key, before any chain call', async () => {
    const before = t.chain!.calls.length;
    assertError(await nft('claim', { address: WALLET }, {}, NO_KEY), 400, 'INVALID_ARGUMENT', 'receiverCode is required.');
    assertError(await nft('revoke', {}, {}, NO_KEY), 400, 'INVALID_ARGUMENT', 'ownerCode is required.');
    assert.equal(t.chain!.calls.length, before);
    // The address is the chain service's rule, and its text.
    assertError(await nft('claim', { receiverCode: 'c', address: 'nope' }, {}, NO_KEY), 400, 'INVALID_ARGUMENT',
      'address must be a wallet address (0x + 40 hex digits, EIP-55 checksum when mixed case), got "nope".');
  });

  test("the service's rules: a wallet address that is none, the zero address", async () => {
    assertError(await nft('transfer', { nftId: '1', address: 'alice.eth' }, ENVELOPE), 400, 'INVALID_ARGUMENT',
      'address must be a wallet address (0x + 40 hex digits, EIP-55 checksum when mixed case), got "alice.eth".');
    assertError(await nft('transfer', { nftId: '1', address: `0x${'0'.repeat(40)}` }, ENVELOPE), 400, 'INVALID_ARGUMENT', 'address must not be the zero address.');
  });
});

describe('authentication', () => {
  test('new, list, transfer, send and fetch need the key; authentication comes first', async () => {
    for (const [operation, parameters] of [['new', NEW], ['list', {}], ['transfer', { nftId: '1', address: 'bad' }], ['send', {}], ['fetch', {}]] as const) {
      assertError(await nft(operation, parameters, ENVELOPE, NO_KEY), 401, 'UNAUTHENTICATED', 'Please submit client identifier.');
    }
  });

  test('claim and revoke need none: a key sent anyway is not even read', async () => {
    const res = await nft('claim', { receiverCode: 'no-such-code', address: WALLET }, {}, { ...NO_KEY, 'x-api-key': 'not-a-key' });
    assertError(res, 403, 'PERMISSION_DENIED', 'The receiver code is not valid.');
    assert.equal(lastRequest('claimNft').caller, undefined, 'no account travels with a claim');
    assertError(await nft('revoke', { ownerCode: 'no-such-code' }, {}, NO_KEY), 403, 'PERMISSION_DENIED', 'The owner code is not valid.');
    assert.equal(lastRequest('revokeNftSend').caller, undefined);
  });
});

describe('new → fetch → list → transfer', () => {
  let jobId: string;
  let guid: string;
  let nftId: string;
  let mintedAt: { before: number; after: number };

  test('new answers the job at once; the request reaches MintNft with attributes as a list and the legacy echo', async () => {
    // The chain's worker stopped until the next test has seen the mint queued (as on a replica without one).
    await t.chainLevers!.stopWorker();
    const before = Date.now();
    const res = await ok(nft('new', { ...mintable, attributes: { tCO2e: 5320, project: 'Solar', verified: true } }, { version: '1', network: 'sepolia' }, { ...ACME, 'idempotency-key': 'mint-1' }));
    mintedAt = { before, after: Date.now() };
    assert.deepEqual(Object.keys(res), ['statusCode', 'statusMessage', 'info']);
    assert.equal(res.statusCode, 200);
    assert.equal(res.statusMessage, '');
    assert.match(res.info.jobId, /^[0-9a-f-]{36}$/);
    jobId = res.info.jobId;
    const { request, caller } = lastRequest('mintNft');
    assert.equal(caller.accountId, t.user.accountId);
    assert.equal(request.network, 'sepolia');
    assert.equal(request.idempotencyKey, 'mint-1');
    assert.deepEqual(JSON.parse(JSON.stringify(request.attributes)), [
      { traitType: 'tCO2e', value: 5320 },
      { traitType: 'project', value: 'Solar' },
      { traitType: 'verified', value: true },
    ]);
    assert.deepEqual(request.requestEcho, {
      solution: NFT, version: 1, network: 'sepolia', operation: 'new',
      parameters: { name: NEW.name, description: NEW.description, image: image.url, attributes: { tCO2e: 5320, project: 'Solar', verified: true } },
    });
    // The same key answers the same job.
    const again = await ok(nft('new', { ...mintable, attributes: { tCO2e: 5320, project: 'Solar', verified: true } }, ENVELOPE, { ...ACME, 'idempotency-key': 'mint-1' }));
    assert.equal(again.info.jobId, jobId);
  });

  test('fetch (no version or network needed) answers every key of §4.13 while queued, certificates null', async () => {
    const res = await ok(nft('fetch', { job_id: jobId }, {}));
    assert.deepEqual(Object.keys(res.info), [
      'status', 'request', 'result', 'hash', 'txnUrl', 'receipt', 'networkCost', 'networkFee', 'networkTotal',
      'certificateOfTrust', 'certificateOfTrustJPG', 'certificateOfTrustUrl', 'guid', 'type', 'timestampInMillis',
    ]);
    assert.deepEqual(res.info.status, { Value: 'queued' });
    assert.equal(res.info.certificateOfTrust, null);
    assert.match(res.info.guid, /^[0-9a-f-]{36}$/);
    guid = res.info.guid;
  });

  test('fetch of the completed mint: the full result, receipt with logs, costs, certificates', async () => {
    await t.chainLevers!.startWorker();
    await completed(jobId);
    const { networks } = await t.chain!.client.listNetworks({}, { caller: t.user });
    const sepolia = networks.find((n) => n.name === 'sepolia')!;
    const res = await ok(nft('fetch', { jobId }, { version: 1 }));
    const info = res.info;
    assert.equal(res.statusMessage, '');
    assert.deepEqual(info.status, { Value: 'completed' });
    assert.equal(info.request.operation, 'new');
    // The job's result as the chain service stored it: in a jsonb column, which keeps its keys in its own
    // order (shorter first), not the spec's; JSON readers do not depend on it. list answers the spec's order.
    assert.deepEqual(Object.keys(info.result).sort(), ['guid', 'network', 'nftTxHash', 'nftId', 'nftIPFSHash', 'nftImageIPFSHash', 'nftJson', 'url', 'status', 'transferCodes'].sort());
    assert.equal(info.result.status, 'created');
    assert.equal(info.result.guid, guid);
    assert.equal(info.result.nftTxHash, info.hash);
    // The network's explorer link as the chain service gives it (none on an embedded network; the link of
    // a network with an explorer: catalogue/chain/job-shapes.test.ts).
    const { job } = await t.chain!.client.getJob({ jobId }, { caller: t.user });
    assert.equal(info.txnUrl, job!.txUrl || null);
    assert.deepEqual(Object.keys(info.receipt), ['_type', 'blockHash', 'blockNumber', 'contractAddress', 'cumulativeGasUsed', 'from', 'gasPrice', 'gasUsed', 'hash', 'index', 'logs', 'logsBloom', 'status', 'to']);
    assert.deepEqual(Object.keys(info.receipt.logs[0]), ['_type', 'address', 'blockHash', 'blockNumber', 'data', 'index', 'topics', 'transactionHash', 'transactionIndex']);
    assert.equal(info.receipt.to, sepolia.nftContractAddress);
    assert.equal(info.networkTotal, info.networkCost + info.networkFee);
    assert.equal(info.certificateOfTrust, `${t.baseUrl}/certificates/${guid}.pdf`);
    assert.equal(info.certificateOfTrustJPG, `${t.baseUrl}/certificates/${guid}.jpg`);
    assert.equal(info.certificateOfTrustUrl, `${t.baseUrl}/certificates/${guid}`);
    assert.deepEqual(info.type, { value: 'blockchain-job' });
    assert.equal(typeof info.timestampInMillis, 'number');
    nftId = info.result.nftId;
  });

  test('list: the §2.10 NFT with timestamp as text; by range; the last 20 without; network narrows', async () => {
    const all = await ok(nft('list', undefined, {}));
    assert.deepEqual(Object.keys(all), ['statusCode', 'statusMessage', 'info']);
    const mine = all.info.find((n: any) => n.guid === guid);
    assert.deepEqual(Object.keys(mine), ['guid', 'network', 'nftTxHash', 'nftId', 'nftIPFSHash', 'nftImageIPFSHash', 'nftJson', 'url', 'status', 'transferCodes', 'timestamp']);
    assert.match(mine.timestamp, /^\d{13}$/);
    assert.equal(mine.status, 'created');
    assert.deepEqual(mine.transferCodes, { owner: '', receiver: '' });
    assert.deepEqual(mine.nftJson.attributes, [{ trait_type: 'tCO2e', value: 5320 }, { trait_type: 'project', value: 'Solar' }, { trait_type: 'verified', value: true }]);
    const ranged = await ok(nft('list', { from: mintedAt.before, to: String(mintedAt.after) }, {}));
    assert.deepEqual(ranged.info.map((n: any) => n.guid), [guid]);
    assert.deepEqual(JSON.parse(JSON.stringify(lastRequest('listNfts').request)), { from: mintedAt.before, to: mintedAt.after });
    assert.deepEqual((await ok(nft('list', { to: mintedAt.before - 1 }, {}))).info, []);
    assert.deepEqual((await ok(nft('list', {}, { network: 'amoy' }))).info, []);
    assert.deepEqual((await ok(nft('list', {}, {}, OTHER))).info, [], 'another account sees none');
  });

  test('transfer: to a mixed-case address, the echo names it destination too; fetch answers the transfer result', async () => {
    const res = await ok(nft('transfer', { nftId, address: WALLET }));
    const { request } = lastRequest('transferNft');
    assert.equal(request.address, WALLET.toLowerCase());
    assert.equal(request.nftId, nftId);
    const fetched = await ok(nft('fetch', { jobId: res.info.jobId }, {}));
    for (const key of ['status', 'request', 'networkCost', 'networkFee', 'networkTotal', 'guid', 'type', 'timestampInMillis']) assert.ok(key in fetched.info, key);
    assert.deepEqual(fetched.info.request, { solution: NFT, version: 1, network: 'sepolia', operation: 'transfer', parameters: { nftId, address: WALLET, destination: WALLET } });
    assert.equal(fetched.info.guid, guid);
    assert.equal('certificateOfTrust' in fetched.info, false);
    await completed(res.info.jobId);
    const listed = (await ok(nft('list', undefined, {}))).info.find((n: any) => n.guid === guid);
    assert.equal(listed.status, 'transferred');
    // The chain service keeps the address in its EIP-55 form (WALLET's own).
    assert.equal(listed.transferredTo, WALLET);
    // Once transferred it cannot go again: the service's refusal passes through.
    assertError(await nft('transfer', { nftId, address: WALLET }), 400, 'FAILED_PRECONDITION', /was already transferred to 0x/);
  });

  test("another account's NFT is not found; an unknown network is the service's 400", async () => {
    assertError(await nft('transfer', { nftId, address: WALLET }, ENVELOPE, OTHER), 404, 'NOT_FOUND', /No NFT/);
    assertError(await nft('new', mintable, { version: 1, network: 'goerli' }), 400, 'INVALID_ARGUMENT', 'Unknown network "goerli"; expected one of sepolia, amoy, mumbai.');
  });
});

describe('send → claim, send → revoke', () => {
  test('send answers the NFT, emailed, with the recipient and both codes; claim needs no key and echoes no code', async () => {
    const { guid, nftId } = await minted();
    const sent = await ok(nft('send', { nftId, email: 'ann@example.org' }, { network: 'sepolia' }));
    assert.deepEqual(Object.keys(sent), ['statusCode', 'statusMessage', 'info']);
    assert.equal(sent.info.status, 'emailed');
    assert.equal(sent.info.transferredTo, 'ann@example.org');
    assert.match(sent.info.timestamp, /^\d+$/);
    const { owner, receiver } = sent.info.transferCodes;
    assert.match(owner, /^[A-Za-z0-9_-]{43}$/);
    assert.match(receiver, /^[A-Za-z0-9_-]{43}$/);

    // A claim for another NFT's guid is refused like an unknown code.
    assertError(await nft('claim', { receiverCode: receiver, address: WALLET, guid: '00000000-0000-4000-8000-000000000000' }, {}, NO_KEY), 403, 'PERMISSION_DENIED', 'The receiver code is not valid.');
    const claimed = await ok(nft('claim', { receiver_code: receiver, address: WALLET, guid }, {}, NO_KEY));
    assert.deepEqual(Object.keys(claimed), ['statusCode', 'statusMessage', 'info']);
    const { request, caller } = lastRequest('claimNft');
    assert.equal(caller, undefined);
    assert.equal(request.receiverCode, receiver);
    assert.equal(request.address, WALLET.toLowerCase());
    assert.deepEqual(request.requestEcho, { solution: NFT, operation: 'claim', parameters: { address: WALLET, guid } });
    assert.doesNotMatch(JSON.stringify(request.requestEcho), new RegExp(receiver));
    // The job is the owner's: its fetch is theirs, and shows no code.
    const job = await ok(nft('fetch', { jobId: claimed.info.jobId }, {}));
    assert.doesNotMatch(JSON.stringify(job), new RegExp(receiver));
    assertError(await nft('claim', { receiverCode: receiver, address: WALLET }, {}, NO_KEY), 400, 'FAILED_PRECONDITION', 'The receiver code was already used: the NFT was claimed.');
    assertError(await nft('revoke', { ownerCode: owner }, {}, NO_KEY), 400, 'FAILED_PRECONDITION', 'The NFT was already claimed; the send can no longer be revoked.');
  });

  test('revoke with the owner code answers the NFT created again; the receiver code is then refused', async () => {
    const { nftId } = await minted({ ...mintable, name: 'Wind farm' });
    const sent = await ok(nft('send', { nftId, email: 'bob@example.org' }, { version: 1, network: 'sepolia' }));
    const revoked = await ok(nft('revoke', { owner_code: sent.info.transferCodes.owner }, {}, NO_KEY));
    assert.equal(revoked.statusMessage, '');
    assert.equal(revoked.info.status, 'created');
    assert.equal('transferredTo' in revoked.info, false);
    assert.deepEqual(revoked.info.transferCodes, { owner: '', receiver: '' });
    assertError(await nft('claim', { receiverCode: sent.info.transferCodes.receiver, address: WALLET }, {}, NO_KEY), 400, 'FAILED_PRECONDITION', 'The send was revoked by its owner; the receiver code no longer works.');
    assertError(await nft('revoke', { ownerCode: sent.info.transferCodes.owner }, {}, NO_KEY), 400, 'FAILED_PRECONDITION', 'The owner code was already used: the send was revoked.');
  });
});

test('without a chain backend every NFT operation is 503 after validation', async () => {
  const bare = await t.another({ CHAIN_GRPC_ADDR: undefined });
  try {
    const res = await postCall(bare.baseUrl, { solution: NFT, operation: 'claim', parameters: { receiverCode: 'c', address: WALLET } }, NO_KEY);
    assert.equal(res.status, 503, res.text);
    assert.equal((res.json as any).message, 'The chain service is not available: this deployment runs without it (CHAIN_GRPC_ADDR is not set; npm start: CHAIN_ENABLED=false).');
    // The spec's envelope besides {message, code}, so legacy clients reading statusCode see the failure.
    assert.deepEqual([(res.json as any).statusCode, (res.json as any).statusMessage, (res.json as any).code],
      [503, 'The chain service is not available: this deployment runs without it (CHAIN_GRPC_ADDR is not set; npm start: CHAIN_ENABLED=false).', 'UNAVAILABLE']);
    const bad = await postCall(bare.baseUrl, { solution: NFT, operation: 'list', parameters: { from: 'x' } }, ACME);
    assert.equal(bad.status, 400);
    assert.deepEqual([(bad.json as any).statusCode, (bad.json as any).statusMessage], [400, (bad.json as any).message]);
  } finally {
    await bare.stop();
  }
});

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { JobStatus } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { serveNftImage } from '@green-impact/testing/gateway/nft-image';
import { startTestGateway, type TestAccount, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { data, gqlAt, onlyError, type GqlResponse } from '@green-impact/testing/gateway/graphql-calls';

/**
 * NFTs on GraphQL against the real chain service (minting on its embedded sepolia an image served on
 * loopback): mintNft → job(id).nft, nfts / nft,
 * transferNft, sendNft (codes once), claimNft and revokeNftSend without a key, validation naming the input,
 * and a caller's mistakes answered in the payloads' userErrors (issue 29).
 */

const WALLET = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const NFT_FIELDS = `guid network nftId txHash status owner transferredTo contractAddress metadataCid imageCid timestamp mintJobId transferJobId
  metadata { name description image attributes { traitType value displayType } } urls { nft image transaction } certificate { pdf jpg page }`;

let t: TestGateway;
let image: Awaited<ReturnType<typeof serveNftImage>>;
let other: TestAccount;
/** The chain service's sepolia: its signer (who mints, to itself) and its NFT contract. */
let sepolia: { signerAddress: string; nftContractAddress: string };

const gql = (query: string, variables: Record<string, unknown> = {}, apiKey: string | null = t.userKey): Promise<GqlResponse> =>
  gqlAt(t.baseUrl, query, variables, apiKey);
before(async () => {
  image = await serveNftImage();
  t = await startTestGateway({}, { chain: true, nftImage: { allowPrivateHosts: true } });
  other = await t.createAccount('Other');
  sepolia = (await t.chain!.client.listNetworks({}, { caller: t.user })).networks.find((n) => n.name === 'sepolia')!;
});
after(async () => {
  await t.stop();
  await image.close();
});

/** Waits for the chain service to run job `id` on its network; it must complete. */
async function completed(id: string): Promise<void> {
  assert.equal((await t.settledJob(id)).status, JobStatus.JOB_STATUS_COMPLETED);
}

const MINT = `mutation($input: MintNftInput!) { mintNft(input: $input) { job { id kind status request nftGuid } } }`;
const mintInput = (name: string) => ({
  network: 'sepolia',
  name,
  description: 'Avoided emissions',
  image: image.url,
  attributes: [{ traitType: 'tCO2e', value: 5320, displayType: 'number' }, { traitType: 'verified', value: true }],
});

async function mintedNft(name: string): Promise<Record<string, any>> {
  const { job } = data(await gql(MINT, { input: mintInput(name) }))['mintNft'];
  await completed(job.id);
  return data(await gql(`query($id: ID!) { job(id: $id) { status nftGuid nftId nft { ${NFT_FIELDS} } } }`, { id: job.id }))['job'];
}

describe('mint and read', () => {
  test('mintNft answers the queued job echoing the legacy call; job(id).nft is the NFT once completed', async () => {
    // The chain's worker stopped until the queued job is seen (as on a replica without one).
    await t.chainLevers!.stopWorker();
    const { job } = data(await gql(MINT, { input: { ...mintInput('Solar Park'), idempotencyKey: 'gql-mint' } }))['mintNft'];
    await t.chainLevers!.startWorker();
    assert.equal(job.kind, 'NFT_MINT');
    assert.equal(job.status, 'QUEUED');
    assert.match(job.nftGuid, /^[0-9a-f-]{36}$/);
    assert.deepEqual(job.request, {
      solution: 'SVC.NFT.zK', version: 1, network: 'sepolia', operation: 'new',
      parameters: {
        name: 'Solar Park', description: 'Avoided emissions', image: image.url,
        attributes: [{ trait_type: 'tCO2e', value: 5320, display_type: 'number' }, { trait_type: 'verified', value: true }],
      },
    });
    const sent = t.chain!.calls.filter((c) => c.method === 'mintNft').at(-1)!.request as any;
    assert.equal(sent.idempotencyKey, 'gql-mint');
    await completed(job.id);
    const done = data(await gql(`query($id: ID!) { job(id: $id) { status nftGuid nftId nft { ${NFT_FIELDS} } } }`, { id: job.id }))['job'];
    assert.equal(done.status, 'COMPLETED');
    assert.match(done.nftId, /^[1-9]\d*$/);
    const nft = done.nft;
    assert.equal(nft.guid, job.nftGuid);
    assert.equal(nft.status, 'CREATED');
    assert.equal(nft.nftId, done.nftId);
    assert.equal(nft.contractAddress, sepolia.nftContractAddress);
    assert.equal(nft.owner, sepolia.signerAddress);
    assert.deepEqual(nft.metadata.attributes, [{ traitType: 'tCO2e', value: 5320, displayType: 'number' }, { traitType: 'verified', value: true, displayType: null }]);
    assert.match(nft.metadata.image, /^ipfs:\/\/bafkrei/);
    assert.deepEqual(nft.certificate, {
      pdf: `${t.baseUrl}/certificates/${nft.guid}.pdf`,
      jpg: `${t.baseUrl}/certificates/${nft.guid}.jpg`,
      page: `${t.baseUrl}/certificates/${nft.guid}`,
    });
    // No explorer for an embedded network: the gateway's own receipt page.
    assert.equal(nft.urls.transaction, `${t.baseUrl}/explorer/sepolia/tx/${nft.txHash}`);
    assert.match(nft.timestamp, /^\d{13}$/);

    const read = data(await gql(`query($guid: ID!) { nft(guid: $guid) { guid status metadata { name } } }`, { guid: nft.guid }))['nft'];
    assert.deepEqual(read, { guid: nft.guid, status: 'CREATED', metadata: { name: 'Solar Park' } });
    assert.equal(data(await gql(`query($guid: ID!) { nft(guid: $guid) { guid } }`, { guid: nft.guid }, other.apiKey))['nft'], null, "another account's NFT is null");
    const listed = data(await gql(`{ nfts(from: 0, first: 5) { nodes { guid } } all: nfts { nodes { guid } totalCount } }`));
    assert.ok(listed['nfts'].nodes.some((n: any) => n.guid === nft.guid));
    assert.equal(listed['all'].totalCount, listed['all'].nodes.length);
    assert.deepEqual(data(await gql(`{ nfts(to: 1) { nodes { guid } } }`))['nfts'].nodes, []);
  });

  test('typed attribute values in and out, and the job request as typed parameters (issue 29: no untyped JSON)', async () => {
    const input = {
      ...mintInput('Typed traits'),
      attributes: [{ traitType: 'tCO2e', numberValue: 12.5, displayType: 'number' }, { traitType: 'verified', booleanValue: true }, { traitType: 'site', stringValue: 'Södra' }],
    };
    const { job } = data(await gql(`mutation($input: MintNftInput!) { mintNft(input: $input) { job { id requestParameters { name value } } } }`, { input }))['mintNft'];
    const parameters = new Map(job.requestParameters.map((p: { name: string; value: string | null }) => [p.name, p.value]));
    assert.equal(parameters.get('network'), 'sepolia');
    assert.equal(parameters.get('operation'), 'new');
    assert.deepEqual(JSON.parse(parameters.get('parameters') as string).attributes, [
      { trait_type: 'tCO2e', value: 12.5, display_type: 'number' }, { trait_type: 'verified', value: true }, { trait_type: 'site', value: 'Södra' },
    ]);
    await completed(job.id);
    const done = data(await gql(`query($id: ID!) { job(id: $id) { nft { metadata { attributes { traitType stringValue numberValue booleanValue displayType } } } } }`, { id: job.id }))['job'];
    assert.deepEqual(done.nft.metadata.attributes, [
      { traitType: 'tCO2e', stringValue: null, numberValue: 12.5, booleanValue: null, displayType: 'number' },
      { traitType: 'verified', stringValue: null, numberValue: null, booleanValue: true, displayType: null },
      { traitType: 'site', stringValue: 'Södra', numberValue: null, booleanValue: null, displayType: null },
    ]);
    const two = await gql(MINT, { input: { ...mintInput('Two values'), attributes: [{ traitType: 'x', stringValue: 'a', numberValue: 1 }] } });
    assert.equal(onlyError(two).message, 'attributes[0] must give exactly one of stringValue, numberValue and booleanValue.');
  });

  // Images, attribute values and traits, e-mail addresses and ranges are the chain service's rules
  // (services/chain/src/nfts/nft-rules.test.ts, image-source.test.ts); their refusals name the parameter,
  // which GraphQL names as its caller did (catalogue/graphql.ts).
  test('validation names the input; a missing key is UNAUTHENTICATED', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...mintInput('x'), name: '' }, 'input.name is required.'],
      [{ ...mintInput('x'), network: 'no such' }, 'Unknown network "no such"; expected one of sepolia, amoy, mumbai.'],
    ];
    for (const [input, message] of cases) assert.deepEqual(onlyError(await gql(MINT, { input })), { message, code: 'BAD_USER_INPUT' });
    assert.deepEqual(onlyError(await gql(MINT, { input: mintInput('x') }, null)), { message: 'Please submit client identifier.', code: 'UNAUTHENTICATED' });
    assert.deepEqual(onlyError(await gql('{ nfts(first: 0) { nodes { guid } } }')), { message: 'first must be an integer from 1 to 1000, got 0.', code: 'BAD_USER_INPUT' });
  });
});

describe('transfer, send, claim, revoke', () => {
  test('transferNft answers the job; the address goes lower case', async () => {
    const { nft } = await mintedNft('Wind');
    const { job } = data(await gql(`mutation($input: TransferNftInput!) { transferNft(input: $input) { job { kind status request nftGuid } } }`, {
      input: { network: 'sepolia', nftId: nft.nftId, address: WALLET },
    }))['transferNft'];
    assert.equal(job.kind, 'NFT_TRANSFER');
    assert.equal(job.nftGuid, nft.guid);
    assert.deepEqual(job.request.parameters, { nftId: nft.nftId, address: WALLET, destination: WALLET });
    assert.equal((t.chain!.calls.filter((c) => c.method === 'transferNft').at(-1)!.request as any).address, WALLET.toLowerCase());
    const bad = await gql(`mutation { transferNft(input: { network: "sepolia", nftId: "1", address: "0x12" }) { job { id } } }`);
    assert.deepEqual(onlyError(bad), { message: 'input.address must be a wallet address (0x + 40 hex digits, EIP-55 checksum when mixed case), got "0x12".', code: 'BAD_USER_INPUT' });
  });

  test('sendNft answers the codes once; claimNft without a key answers the job; revokeNftSend without a key answers the NFT', async () => {
    const { nft } = await mintedNft('Hydro');
    const SEND = `mutation($input: SendNftInput!) { sendNft(input: $input) { ownerCode receiverCode nft { status transferredTo } } }`;
    const sent = data(await gql(SEND, { input: { network: 'sepolia', nftId: nft.guid, email: 'ann@example.org' } }))['sendNft'];
    assert.deepEqual(sent.nft, { status: 'EMAILED', transferredTo: 'ann@example.org' });
    assert.match(sent.ownerCode, /^[A-Za-z0-9_-]{43}$/);

    const { job: claimed } = data(await gql(`mutation($input: ClaimNftInput!) { claimNft(input: $input) { job { kind status request nftGuid } } }`, {
      input: { receiverCode: sent.receiverCode, address: WALLET, guid: nft.guid },
    }, null))['claimNft'];
    assert.equal(claimed.kind, 'NFT_CLAIM');
    assert.equal(claimed.nftGuid, nft.guid);
    assert.deepEqual(claimed.request, { solution: 'SVC.NFT.zK', operation: 'claim', parameters: { address: WALLET, guid: nft.guid } });
    assert.equal(t.chain!.calls.filter((c) => c.method === 'claimNft').at(-1)!.caller, undefined);

    const other = (await mintedNft('Biogas')).nft;
    const codes = data(await gql(SEND, { input: { network: 'sepolia', nftId: other.nftId, email: 'bob@example.org' } }))['sendNft'];
    const { nft: revoked } = data(await gql(`mutation($input: RevokeNftSendInput!) { revokeNftSend(input: $input) { nft { guid status transferredTo } } }`, {
      input: { ownerCode: codes.ownerCode },
    }, null))['revokeNftSend'];
    assert.deepEqual(revoked, { guid: other.guid, status: 'CREATED', transferredTo: null });
    const again = await gql(`mutation { claimNft(input: { receiverCode: "${codes.receiverCode}", address: "${WALLET}" }) { job { id } } }`, {}, null);
    assert.deepEqual(onlyError(again), { message: 'The send was revoked by its owner; the receiver code no longer works.', code: 'CONFLICT' });
  });
});

describe("a caller's mistakes in userErrors (issue 29)", () => {
  const USER_ERRORS = 'userErrors { message code path }';

  test('mintNft, transferNft and claimNft answer them with a path, the payload empty and no error', async () => {
    const mint = await gql(`mutation($input: MintNftInput!) { mintNft(input: $input) { job { id } ${USER_ERRORS} } }`, { input: { ...mintInput('x'), name: '' } });
    const transfer = await gql(`mutation { transferNft(input: { network: "sepolia", nftId: "1", address: "0x12" }) { job { id } ${USER_ERRORS} } }`);
    const claim = await gql(`mutation { claimNft(input: { receiverCode: "some-code", address: "0x12" }) { job { id } ${USER_ERRORS} } }`, {}, null);
    for (const res of [mint, transfer, claim]) assert.equal(res.body.errors, undefined, JSON.stringify(res.body.errors));
    assert.deepEqual(data(mint)['mintNft'], { job: null, userErrors: [{ message: 'input.name is required.', code: 'BAD_USER_INPUT', path: ['input', 'name'] }] });
    assert.deepEqual(data(transfer)['transferNft'], {
      job: null,
      userErrors: [{ message: 'input.address must be a wallet address (0x + 40 hex digits, EIP-55 checksum when mixed case), got "0x12".', code: 'BAD_USER_INPUT', path: ['input', 'address'] }],
    });
    assert.deepEqual(data(claim)['claimNft'], {
      job: null,
      userErrors: [{ message: 'input.address must be a wallet address (0x + 40 hex digits, EIP-55 checksum when mixed case), got "0x12".', code: 'BAD_USER_INPUT', path: ['input', 'address'] }],
    });
  });

  test('a missing key and a transfer code that is not valid stay errors, whatever is selected: they refuse the caller', async () => {
    const mint = await gql(`mutation($input: MintNftInput!) { mintNft(input: $input) { job { id } ${USER_ERRORS} } }`, { input: mintInput('x') }, null);
    assert.deepEqual(onlyError(mint), { message: 'Please submit client identifier.', code: 'UNAUTHENTICATED' });
    const claim = await gql(`mutation { claimNft(input: { receiverCode: "no-such-code", address: "${WALLET}" }) { job { id } ${USER_ERRORS} } }`, {}, null);
    assert.deepEqual(onlyError(claim), { message: 'The receiver code is not valid.', code: 'FORBIDDEN' });
    const revoke = await gql(`mutation { revokeNftSend(input: { ownerCode: "no-such-code" }) { nft { guid } ${USER_ERRORS} } }`, {}, null);
    assert.equal(onlyError(revoke).code, 'FORBIDDEN');
  });
});

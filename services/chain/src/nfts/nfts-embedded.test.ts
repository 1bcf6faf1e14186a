import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Wallet } from 'ethers';
import jpeg from 'jpeg-js';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import { JobKind, JobStatus, NftStatus, type Nft } from '@green-impact/proto/greenimpact/chain/v1/chain';
import type { Caller } from '@green-impact/shared/caller';
import { testDatabases } from '@green-impact/testing/shared/databases';
import { JPG_HEIGHT, JPG_WIDTH } from '../certificates/certificate-jpg.js';
import { ownerOf, tokenUri } from '../contracts/nft-contract.js';
import { rejectsWith, startChainHarness, waitForJob, type ChainHarness } from '@green-impact/testing/chain/harness';
import { claimFromMail, decodedMail, startFakeIpfsNode, startImageServer, startSmtpCapture, testJpeg, testPng } from '@green-impact/testing/chain/nft-fixtures';
import { attributesFromJson } from './nft-rules.js';

const pglite = testDatabases.find((d) => d.name === 'pglite')!;
const { COMPLETED, FAILED } = { COMPLETED: JobStatus.JOB_STATUS_COMPLETED, FAILED: JobStatus.JOB_STATUS_FAILED };
const BASE = 'https://impact.example.org';
const IMAGE = testJpeg();
const IMAGE_PNG = testPng();

/** The CID of some bytes, computed here with multiformats alone (not with the service's code). */
async function independentCid(bytes: Uint8Array): Promise<string> {
  return CID.create(1, raw.code, await sha256.digest(bytes)).toString();
}

/**
 * NFTs end to end on the embedded default (PGlite, in-process bus, Hardhat's EVM) over real gRPC, with a
 * real SMTP server, an HTTP server for the images and a stand-in IPFS node for pinning.
 */
describe('NFTs on the embedded network (PGlite, SMTP, image server)', { timeout: 180_000 }, () => {
  let h: ChainHarness;
  let images: Awaited<ReturnType<typeof startImageServer>>;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  let ipfs: Awaited<ReturnType<typeof startFakeIpfsNode>>;
  const as = (caller: Caller) => ({ caller });
  const alice = () => as(h.alice);
  const sepolia = () => h.service.networks.resolve('sepolia').network;
  const recipient = Wallet.createRandom().address;
  const attributes = [
    { traitType: 'tCO2e avoided', value: 5320, displayType: 'number' },
    { traitType: 'project', value: 'Solar Park Südheide' },
    { traitType: 'verified', value: true },
  ];

  const mint = async (name: string, image: string, caller = h.alice, extra: { attributes?: typeof attributes; idempotencyKey?: string } = {}) => {
    const res = await h.client.mintNft(
      { network: 'sepolia', name, description: `${name}: renewable energy, 12.4 GWh`, image, attributes: extra.attributes ?? attributes, idempotencyKey: extra.idempotencyKey },
      as(caller),
    );
    return res;
  };
  const minted = async (name: string, image = `${images.url}/art.jpg`, caller = h.alice) => {
    const res = await mint(name, image, caller);
    const job = await waitForJob(h.client, caller, res.jobId);
    assert.equal(job.status, COMPLETED, job.error);
    return job;
  };
  /** 'public': no caller, as the gateway's certificate pages read it. */
  const getNft = async (guid: string, caller: Caller | 'public' = h.alice) => (await h.client.getNft({ guid }, caller === 'public' ? {} : as(caller))).nft!;

  let first: { guid: string; tokenId: string; txHash: string; metadataCid: string; imageCid: string; createdBefore: number; createdAfter: number };
  let second: { guid: string; tokenId: string; createdBefore: number; createdAfter: number };

  before(async () => {
    images = await startImageServer({
      '/art.jpg': { type: 'image/jpeg', body: IMAGE },
      '/art.png': { type: 'application/octet-stream', body: IMAGE_PNG }, // the bytes say what it is
      '/page.html': { type: 'text/html; charset=utf-8', body: Buffer.from('<!doctype html><title>not an image</title>') },
      '/huge.jpg': { type: 'image/jpeg', body: Buffer.alloc(300 * 1024, 0xff) },
      '/moved.jpg': { status: 302, location: '/art.jpg' },
    });
    smtp = await startSmtpCapture();
    ipfs = await startFakeIpfsNode();
    h = await startChainHarness({
      db: pglite,
      service: {
        publicBaseUrl: BASE,
        nfts: {
          smtpUrl: smtp.url,
          mailFrom: '"Green Impact" <nft@impact.example.org>',
          ipfsApiUrl: ipfs.url,
          image: { allowPrivateHosts: true, maxBytes: 256 * 1024, timeoutMs: 5_000 },
        },
      },
    });
  });
  after(async () => {
    await h?.stop();
    await images?.stop();
    await smtp?.stop();
    await ipfs?.stop();
  });

  it('mints with attributes: fetch answers the full result of §4.13', async () => {
    const createdBefore = Date.now();
    const res = await mint('Solar Park Südheide 2024', `${images.url}/art.jpg`);
    const createdAfter = Date.now();
    assert.equal(res.job!.kind, JobKind.JOB_KIND_NFT_MINT);
    assert.equal(res.replayed, false);
    assert.ok(res.job!.nftGuid);
    const pending = await getNft(res.job!.nftGuid!);
    assert.ok([NftStatus.NFT_STATUS_MINTING, NftStatus.NFT_STATUS_CREATED].includes(pending.status));

    const job = await waitForJob(h.client, h.alice, res.jobId);
    assert.equal(job.status, COMPLETED, job.error);
    // status.Value, request, hash, txnUrl
    assert.deepEqual(job.request, {
      network: 'sepolia', name: 'Solar Park Südheide 2024', description: 'Solar Park Südheide 2024: renewable energy, 12.4 GWh',
      image: `${images.url}/art.jpg`,
      attributes: [
        { trait_type: 'tCO2e avoided', value: 5320, display_type: 'number' },
        { trait_type: 'project', value: 'Solar Park Südheide' },
        { trait_type: 'verified', value: true },
      ],
    });
    assert.match(job.txHash!, /^0x[0-9a-f]{64}$/);
    // receipt with logs: Transfer (mint) and MetadataUpdate (ERC-4906)
    const receipt = job.receipt!;
    assert.equal(receipt.type, 'TransactionReceipt');
    for (const field of ['blockHash', 'cumulativeGasUsed', 'from', 'gasPrice', 'gasUsed', 'hash', 'logsBloom', 'to'] as const) assert.ok(receipt[field], field);
    assert.ok(receipt.blockNumber > 0);
    assert.equal(typeof receipt.index, 'number');
    assert.equal(receipt.status, 1);
    assert.equal(receipt.hash, job.txHash);
    assert.equal(receipt.to, sepolia().contracts.nft);
    assert.equal(receipt.logs.length, 2);
    for (const log of receipt.logs) {
      assert.equal(log.type, 'log');
      assert.equal(log.address, sepolia().contracts.nft);
      assert.equal(log.blockHash, receipt.blockHash);
      assert.equal(log.blockNumber, receipt.blockNumber);
      assert.match(log.data, /^0x/);
      assert.equal(typeof log.index, 'number');
      assert.ok(log.topics.length >= 1);
      assert.equal(log.transactionHash, job.txHash);
      assert.equal(typeof log.transactionIndex, 'number');
    }
    // networkCost, networkFee, networkTotal
    assert.ok(job.networkCost! > 0);
    assert.equal(job.networkFee, 0);
    assert.equal(job.networkTotal, job.networkCost);

    // result: the NFT of §2.10
    const nft = job.nft!;
    const result = job.result as Record<string, any>;
    assert.deepEqual(Object.keys(result).sort(), [
      'guid', 'network', 'nftIPFSHash', 'nftId', 'nftImageIPFSHash', 'nftJson', 'nftTxHash', 'status', 'transferCodes', 'url',
    ]);
    assert.equal(result['guid'], job.nftGuid);
    assert.equal(result['network'], 'sepolia');
    assert.equal(result['nftTxHash'], job.txHash);
    assert.equal(result['nftId'], '1');
    assert.equal(job.nftId, '1');
    assert.match(result['nftIPFSHash'], /^bafkrei[a-z2-7]{52}$/);
    assert.match(result['nftImageIPFSHash'], /^bafkrei[a-z2-7]{52}$/);
    assert.deepEqual(result['nftJson'], {
      name: 'Solar Park Südheide 2024',
      description: 'Solar Park Südheide 2024: renewable energy, 12.4 GWh',
      image: `ipfs://${result['nftImageIPFSHash']}`,
      attributes: [
        { trait_type: 'tCO2e avoided', value: 5320, display_type: 'number' },
        { trait_type: 'project', value: 'Solar Park Südheide' },
        { trait_type: 'verified', value: true },
      ],
    });
    assert.deepEqual(result['url'], {
      nft: `${BASE}/ipfs/${result['nftIPFSHash']}`,
      image: `${BASE}/ipfs/${result['nftImageIPFSHash']}`,
      transaction: `${BASE}/explorer/sepolia/tx/${job.txHash}`,
    });
    assert.equal(result['status'], 'created');
    assert.deepEqual(result['transferCodes'], { owner: '', receiver: '' });
    // certificateOfTrust, certificateOfTrustJPG, certificateOfTrustUrl
    assert.equal(nft.certificateOfTrust, `${BASE}/certificates/${job.nftGuid}.pdf`);
    assert.equal(nft.certificateOfTrustJpg, `${BASE}/certificates/${job.nftGuid}.jpg`);
    assert.equal(nft.certificateOfTrustUrl, `${BASE}/certificates/${job.nftGuid}`);
    assert.equal(nft.status, NftStatus.NFT_STATUS_CREATED);
    assert.equal(nft.ownerAddress, sepolia().signerAddress);
    assert.equal(nft.contractAddress, sepolia().contracts.nft);
    assert.equal(nft.mintJobId, job.id);
    // timestampInMillis comes from updated_at
    assert.ok(Date.parse(job.updatedAt) >= createdBefore);

    // On chain: held by the custody wallet, token URI = ipfs://<metadata CID>.
    assert.equal(await ownerOf(sepolia(), '1'), sepolia().signerAddress);
    assert.equal(await tokenUri(sepolia(), '1'), `ipfs://${result['nftIPFSHash']}`);
    // Nothing is drawn on the job's path: the certificate's addresses hold, its files come with the first view.
    assert.equal(nft.certificatePdfCid, '');
    assert.equal(nft.certificateJpgCid, '');
    // The NFT as read now is the job's outcome, with the certificates this first read drew.
    const read = await getNft(job.nftGuid!);
    assert.ok(read.certificatePdfCid && read.certificateJpgCid);
    assert.deepEqual({ ...read, certificatePdfCid: '', certificateJpgCid: '' }, nft);
    first = { guid: job.nftGuid!, tokenId: '1', txHash: job.txHash!, metadataCid: result['nftIPFSHash'], imageCid: result['nftImageIPFSHash'], createdBefore, createdAfter };
  });

  it('serves the metadata at its CID: the CID matches its bytes; the image too', async () => {
    const meta = await h.client.getContent({ cid: first.metadataCid });
    assert.equal(meta.contentType, 'application/json');
    assert.equal(await independentCid(meta.content), first.metadataCid);
    const json = JSON.parse(Buffer.from(meta.content).toString('utf8')) as Record<string, unknown>;
    assert.equal(json['name'], 'Solar Park Südheide 2024');
    assert.equal(json['image'], `ipfs://${first.imageCid}`);
    const image = await h.client.getContent({ cid: first.imageCid });
    assert.deepEqual(Buffer.from(image.content), IMAGE);
    assert.equal(image.contentType, 'image/jpeg');
    assert.equal(await independentCid(image.content), first.imageCid);
    // Pinned to the IPFS node under the same CIDs.
    assert.deepEqual(ipfs.pinned.get(first.metadataCid), Buffer.from(meta.content));
    assert.deepEqual(ipfs.pinned.get(first.imageCid), IMAGE);
  });

  it('renders the certificate of trust as PDF and JPG, stored by CID', async () => {
    const nft = await getNft(first.guid);
    const pdf = Buffer.from((await h.client.getContent({ cid: nft.certificatePdfCid })).content);
    assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
    assert.ok(pdf.length > 5_000);
    assert.equal(await independentCid(pdf), nft.certificatePdfCid);
    const jpgContent = await h.client.getContent({ cid: nft.certificateJpgCid });
    assert.equal(jpgContent.contentType, 'image/jpeg');
    const decoded = jpeg.decode(Buffer.from(jpgContent.content), { useTArray: true });
    assert.equal(decoded.width, JPG_WIDTH);
    assert.equal(decoded.height, JPG_HEIGHT);
    assert.ok(ipfs.pinned.has(nft.certificatePdfCid) && ipfs.pinned.has(nft.certificateJpgCid));
    // Public read by guid (the gateway's /certificates/<guid> pages): the same NFT.
    assert.deepEqual(await getNft(first.guid, 'public'), nft);
  });

  it('mints with attributes given as an object, an image from the content store, and a PNG', async () => {
    const createdBefore = Date.now();
    const objectForm = attributesFromJson({ colour: 'green', tonnes: 12.5, audited: false });
    const res = await mint('From the store', `ipfs://${first.imageCid}`, h.alice, { attributes: objectForm });
    const createdAfter = Date.now();
    const job = await waitForJob(h.client, h.alice, res.jobId);
    assert.equal(job.status, COMPLETED, job.error);
    assert.deepEqual(job.nft!.nftJson!.attributes.map(({ traitType, value }) => ({ traitType, value })), [
      { traitType: 'colour', value: 'green' },
      { traitType: 'tonnes', value: 12.5 },
      { traitType: 'audited', value: false },
    ]);
    assert.equal(job.nft!.nftImageIpfsHash, first.imageCid, 'the same image, the same CID');
    assert.equal(job.nftId, '2');
    second = { guid: job.nftGuid!, tokenId: '2', createdBefore, createdAfter };

    const viaBase = await minted('Via the public URL', `${BASE}/ipfs/${first.imageCid}`);
    assert.equal(viaBase.nft!.nftImageIpfsHash, first.imageCid);
    const png = await minted('A PNG served as octet-stream', `${images.url}/art.png`);
    assert.equal((await h.client.getContent({ cid: png.nft!.nftImageIpfsHash })).contentType, 'image/png');
    const redirected = await minted('Redirected', `${images.url}/moved.jpg`);
    assert.equal(redirected.nft!.nftImageIpfsHash, first.imageCid);
  });

  it('refuses an image it cannot fetch, with a clear error and no NFT', async () => {
    const before = (await h.client.listNfts({ from: 0 }, alice())).nfts.length;
    const jobsBefore = (await h.client.listJobs({ kind: JobKind.JOB_KIND_NFT_MINT, pageSize: 500, pageToken: '' }, alice())).jobs.length;
    // One answer whatever went wrong (the status, the refusal, the type are in the log only): image-source.test.ts.
    const unfetchable = (url: string) =>
      `The image could not be fetched from ${url}: it must be an image of at most 262144 bytes that a public address answers within 5000 ms. Nothing was minted.`;
    for (const [name, url] of [['404', `${images.url}/missing.jpg`], ['html', `${images.url}/page.html`], ['huge', `${images.url}/huge.jpg`], ['refused', 'http://127.0.0.1:1/art.jpg']]) {
      await rejectsWith(mint(name!, url!), 'FAILED_PRECONDITION', unfetchable(url!));
    }
    await rejectsWith(mint('unknown cid', 'ipfs://bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy'), 'FAILED_PRECONDITION', /is not in the service's content store/);
    await rejectsWith(mint('scheme', 'ftp://example.org/a.jpg'), 'INVALID_ARGUMENT', /got a ftp: URL/);
    await rejectsWith(mint('', `${images.url}/art.jpg`), 'INVALID_ARGUMENT', 'name is required.');
    await rejectsWith(
      h.client.mintNft({ network: 'sepolia', name: 'x', description: '', image: `${images.url}/art.jpg`, attributes: [{ traitType: 'a', value: { nested: 1 } }] }, alice()),
      'INVALID_ARGUMENT', 'attributes[0].value must be a string, a number or a boolean.',
    );
    assert.equal((await h.client.listNfts({ from: 0 }, alice())).nfts.length, before);
    assert.equal((await h.client.listJobs({ kind: JobKind.JOB_KIND_NFT_MINT, pageSize: 500, pageToken: '' }, alice())).jobs.length, jobsBefore);
  });

  it('lists by time range, newest first', async () => {
    const inSecond = await h.client.listNfts({ from: second.createdBefore, to: second.createdAfter }, alice());
    assert.deepEqual(inSecond.nfts.map((n) => n.guid), [second.guid]);
    const both = await h.client.listNfts({ from: first.createdBefore, to: second.createdAfter }, alice());
    assert.deepEqual(both.nfts.map((n) => n.guid), [second.guid, first.guid]);
    const upToFirst = await h.client.listNfts({ to: first.createdAfter }, alice());
    assert.deepEqual(upToFirst.nfts.map((n) => n.guid), [first.guid]);
    const listed = both.nfts[1]!;
    assert.equal(listed.nftId, '1');
    assert.ok(listed.timestamp >= first.createdBefore);
    assert.equal((await h.client.listNfts({ from: 0 }, as(h.bob))).nfts.length, 0, 'NFTs are private to their account');
    await rejectsWith(h.client.listNfts({ from: 10, to: 5 }, alice()), 'INVALID_ARGUMENT', 'from must not be after to.');
  });

  it('transfers to an address: the owner on chain changes, status transferred', async () => {
    await rejectsWith(h.client.transferNft({ network: 'sepolia', nftId: '1', address: recipient }, as(h.bob)), 'NOT_FOUND', 'No NFT 1 on network sepolia in your account.');
    await rejectsWith(h.client.transferNft({ network: 'sepolia', nftId: '1', address: '0x123' }, alice()), 'INVALID_ARGUMENT', /address must be a wallet address/);
    await rejectsWith(h.client.transferNft({ network: 'sepolia', nftId: '999', address: recipient }, alice()), 'NOT_FOUND');
    const res = await h.client.transferNft({ network: 'sepolia', nftId: '1', address: recipient.toLowerCase(), idempotencyKey: 'transfer-1' }, alice());
    assert.equal(res.job!.kind, JobKind.JOB_KIND_NFT_TRANSFER);
    assert.equal(res.job!.nftId, '1');
    assert.equal(res.job!.nftGuid, first.guid);
    const again = await h.client.transferNft({ network: 'sepolia', nftId: '1', address: recipient, idempotencyKey: 'transfer-1' }, alice());
    assert.equal(again.jobId, res.jobId);
    assert.equal(again.replayed, true);
    const job = await waitForJob(h.client, h.alice, res.jobId);
    assert.equal(job.status, COMPLETED, job.error);
    assert.equal(await ownerOf(sepolia(), '1'), recipient);
    assert.deepEqual(job.request, { network: 'sepolia', nftId: '1', address: recipient });
    assert.equal((job.result as Record<string, unknown>)['status'], 'transferred');
    assert.equal((job.result as Record<string, unknown>)['transferredTo'], recipient);
    assert.ok(job.networkCost! > 0);
    const nft = await getNft(first.guid);
    assert.equal(nft.status, NftStatus.NFT_STATUS_TRANSFERRED);
    assert.equal(nft.transferredTo, recipient);
    assert.equal(nft.ownerAddress, recipient);
    assert.equal(nft.transferJobId, job.id);
    assert.equal(nft.nftTxHash, first.txHash, "the mint's transaction stays the NFT's");
    await rejectsWith(h.client.transferNft({ network: 'sepolia', nftId: '1', address: recipient }, alice()), 'FAILED_PRECONDITION', /already transferred/);
    await rejectsWith(h.client.sendNft({ network: 'sepolia', nftId: '1', email: 'x@example.org' }, alice()), 'FAILED_PRECONDITION', /already transferred/);
  });

  it('sends by e-mail through SMTP; the recipient claims with the code from the message', async () => {
    await rejectsWith(h.client.sendNft({ network: 'sepolia', nftId: '2', email: 'kim@example.org' }, as(h.bob)), 'NOT_FOUND');
    await rejectsWith(h.client.sendNft({ network: 'sepolia', nftId: '2', email: 'not-an-address' }, alice()), 'INVALID_ARGUMENT', 'email must be an e-mail address.');
    const sent = (await h.client.sendNft({ network: 'sepolia', nftId: '2', email: 'kim@example.org' }, alice())).nft!;
    assert.equal(sent.status, NftStatus.NFT_STATUS_EMAILED);
    assert.equal(sent.transferredTo, 'kim@example.org');
    assert.match(sent.transferCodes!.owner, /^[A-Za-z0-9_-]{43}$/);
    assert.match(sent.transferCodes!.receiver, /^[A-Za-z0-9_-]{43}$/);
    assert.ok(sent.timestamp >= second.createdAfter);

    const mail = smtp.messages.at(-1)!;
    assert.deepEqual(mail.to, ['kim@example.org']);
    assert.equal(mail.from, 'nft@impact.example.org');
    assert.match(decodedMail(mail.raw), /Subject: An NFT was sent to you: From the store/);
    const { code, link } = claimFromMail(mail.raw);
    assert.equal(code, sent.transferCodes!.receiver);
    assert.equal(link, `${BASE}/claim?guid=${second.guid}#code=${code}`, 'the code in the fragment, which no server sees');

    // Codes are shown once; reads show the recipient to the owner only.
    const read = await getNft(second.guid);
    assert.deepEqual(read.transferCodes, { owner: '', receiver: '' });
    assert.equal(read.transferredTo, 'kim@example.org');
    assert.equal((await getNft(second.guid, 'public')).transferredTo, undefined, 'no e-mail address in public reads');
    await rejectsWith(h.client.transferNft({ network: 'sepolia', nftId: '2', address: recipient }, alice()), 'FAILED_PRECONDITION', /revoke the send/);

    await rejectsWith(h.client.claimNft({ receiverCode: 'x'.repeat(43), address: recipient }, {}), 'PERMISSION_DENIED', 'The receiver code is not valid.');
    await rejectsWith(h.client.claimNft({ receiverCode: code, address: recipient, guid: first.guid }, {}), 'PERMISSION_DENIED', 'The receiver code is not valid.');
    await rejectsWith(h.client.claimNft({ receiverCode: sent.transferCodes!.owner, address: recipient }, {}), 'PERMISSION_DENIED', 'The receiver code is not valid.');

    const kim = Wallet.createRandom().address;
    // No account needed: the code is the authority.
    const claim = await h.client.claimNft({ receiverCode: code, address: kim, guid: second.guid, requestEcho: { operation: 'claim', receiverCode: code, address: kim } }, {});
    assert.equal(claim.job!.kind, JobKind.JOB_KIND_NFT_CLAIM);
    const job = await waitForJob(h.client, h.alice, claim.jobId); // the job is the owner's
    assert.equal(job.status, COMPLETED, job.error);
    assert.deepEqual(job.request, { operation: 'claim', address: kim }, 'the code is not kept in the echo');
    assert.equal(await ownerOf(sepolia(), '2'), kim);
    const claimed = await getNft(second.guid);
    assert.equal(claimed.status, NftStatus.NFT_STATUS_TRANSFERRED);
    assert.equal(claimed.transferredTo, kim);

    await rejectsWith(h.client.claimNft({ receiverCode: code, address: kim }, {}), 'FAILED_PRECONDITION', 'The receiver code was already used: the NFT was claimed.');
    await rejectsWith(h.client.revokeNftSend({ ownerCode: sent.transferCodes!.owner }, {}), 'FAILED_PRECONDITION', 'The NFT was already claimed; the send can no longer be revoked.');
  });

  it('revokes a send with the owner code; expired and used codes are refused', async () => {
    const job = await minted('To revoke');
    const nftId = job.nftId!;
    const send = async (email = 'lee@example.org') => (await h.client.sendNft({ network: 'sepolia', nftId, email }, alice())).nft!;

    const sent = await send();
    const revoked = await h.client.revokeNftSend({ ownerCode: sent.transferCodes!.owner, guid: job.nftGuid! }, {});
    assert.equal(revoked.message, 'The send was revoked; the NFT is available again.');
    assert.equal(revoked.nft!.status, NftStatus.NFT_STATUS_CREATED);
    assert.equal(revoked.nft!.transferredTo, undefined);
    await rejectsWith(h.client.claimNft({ receiverCode: sent.transferCodes!.receiver, address: recipient }, {}), 'FAILED_PRECONDITION',
      'The send was revoked by its owner; the receiver code no longer works.');
    await rejectsWith(h.client.revokeNftSend({ ownerCode: sent.transferCodes!.owner }, {}), 'FAILED_PRECONDITION', 'The owner code was already used: the send was revoked.');
    await rejectsWith(h.client.revokeNftSend({ ownerCode: 'nope' }, {}), 'PERMISSION_DENIED', 'The owner code is not valid.');

    // A send whose codes expired: refused, and the NFT is available again.
    const expiring = await send();
    // Time passes: the send's expiry (and its copy on the NFT) is in the past.
    await h.service.dataSource.query(`UPDATE chain.nft_sends SET expires_at = now() - interval '1 minute' WHERE nft_guid = $1 AND revoked_at IS NULL`, [job.nftGuid]);
    await h.service.dataSource.query(`UPDATE chain.nfts SET send_expires_at = now() - interval '1 minute' WHERE guid = $1`, [job.nftGuid]);
    await rejectsWith(h.client.claimNft({ receiverCode: expiring.transferCodes!.receiver, address: recipient }, {}), 'FAILED_PRECONDITION', /^The receiver code expired on .*; ask the sender to send the NFT again\.$/);
    await rejectsWith(h.client.revokeNftSend({ ownerCode: expiring.transferCodes!.owner }, {}), 'FAILED_PRECONDITION', /^The owner code expired on /);
    assert.equal((await getNft(job.nftGuid!)).status, NftStatus.NFT_STATUS_CREATED);

    // Sending again closes the expired send; its codes stay expired, the new ones work.
    const third = await send('max@example.org');
    assert.equal(third.status, NftStatus.NFT_STATUS_EMAILED);
    await rejectsWith(h.client.claimNft({ receiverCode: expiring.transferCodes!.receiver, address: recipient }, {}), 'FAILED_PRECONDITION', /expired/);

    // A claim whose transfer fails (a contract that cannot hold NFTs) gives the code back.
    const contract = sepolia().contracts.keyValueStore!;
    const bad = await h.client.claimNft({ receiverCode: third.transferCodes!.receiver, address: contract }, {});
    const failed = await waitForJob(h.client, h.alice, bad.jobId);
    assert.equal(failed.status, FAILED);
    assert.match(failed.error!, /would revert: ERC721InvalidReceiver/);
    assert.equal((await getNft(job.nftGuid!)).status, NftStatus.NFT_STATUS_EMAILED);
    const good = await h.client.claimNft({ receiverCode: third.transferCodes!.receiver, address: recipient }, {});
    assert.equal((await waitForJob(h.client, h.alice, good.jobId)).status, COMPLETED);
    assert.equal(await ownerOf(sepolia(), nftId), recipient);
  });

  it('keeps the NFT when the mail server refuses the recipient', async () => {
    const job = await minted('Bounced');
    await rejectsWith(h.client.sendNft({ network: 'sepolia', nftId: job.nftId!, email: 'bounce@example.org' }, alice()), 'FAILED_PRECONDITION',
      /^The mail server refused the message \(550 No such mailbox here\); the NFT was not sent\.$/);
    const nft = await getNft(job.nftGuid!);
    assert.equal(nft.status, NftStatus.NFT_STATUS_CREATED);
    const retry = await h.client.sendNft({ network: 'sepolia', nftId: job.nftId!, email: 'ok@example.org' }, alice());
    assert.equal(retry.nft!.status, NftStatus.NFT_STATUS_EMAILED);
  });

  it('answers one NFT by token id, and replays a mint by its Idempotency-Key without fetching again', async () => {
    const byId = (await h.client.getNft({ nftId: '2', network: 'sepolia' }, alice())).nft!;
    assert.equal(byId.guid, second.guid);
    await rejectsWith(h.client.getNft({ nftId: '2' }, as(h.bob)), 'NOT_FOUND');
    await rejectsWith(h.client.getNft({ guid: second.guid }, as(h.bob)), 'NOT_FOUND');
    await rejectsWith(h.client.getNft({ nftId: '2' }, {}), 'UNAUTHENTICATED');

    const hits = images.hits.get('/art.jpg') ?? 0;
    const a = await mint('Once', `${images.url}/art.jpg`, h.alice, { idempotencyKey: 'mint-once' });
    const b = await mint('Once', `${images.url}/art.jpg`, h.alice, { idempotencyKey: 'mint-once' });
    assert.equal(b.jobId, a.jobId);
    assert.equal(b.replayed, true);
    assert.equal(images.hits.get('/art.jpg'), hits + 1);
    await rejectsWith(mint('Twice', `${images.url}/art.jpg`, h.alice, { idempotencyKey: 'mint-once' }), 'FAILED_PRECONDITION', /already used for a different request/);
    await waitForJob(h.client, h.alice, a.jobId);
  });

  it('draws a certificate once: concurrent first views, public and the owner\'s, get the same files', async () => {
    const job = await minted('Drawn once');
    const views = await Promise.all([getNft(job.nftGuid!, 'public'), getNft(job.nftGuid!), getNft(job.nftGuid!, 'public')]);
    const cids = views.map((n) => [n.certificatePdfCid, n.certificateJpgCid]);
    assert.ok(cids[0]![0] && cids[0]![1]);
    assert.deepEqual(cids, [cids[0], cids[0], cids[0]]);
    // A later view reads what was recorded.
    const later = await getNft(job.nftGuid!, 'public');
    assert.deepEqual([later.certificatePdfCid, later.certificateJpgCid], cids[0]);
    assert.equal(Buffer.from((await h.client.getContent({ cid: later.certificatePdfCid })).content).subarray(0, 5).toString('latin1'), '%PDF-');
  });

  it('lists the last 20 without a range', async () => {
    // The worker is stopped so that the 21 mints stay queued: listing does not need them minted.
    await h.service.stopWorker();
    const carol: Caller = { accountId: '55555555-5555-4555-8555-555555555555', role: 'user' };
    const guids: string[] = [];
    for (let i = 0; i < 21; i++) {
      guids.push((await mint(`Batch ${i}`, `ipfs://${first.imageCid}`, carol)).job!.nftGuid!);
    }
    const listed: Nft[] = (await h.client.listNfts({}, as(carol))).nfts;
    assert.equal(listed.length, 20);
    assert.deepEqual(listed.map((n) => n.guid), guids.slice(1).reverse());
    assert.ok(listed.every((n) => n.status === NftStatus.NFT_STATUS_MINTING && n.nftId === ''));
    assert.equal((await h.client.listNfts({ from: 0 }, as(carol))).nfts.length, 21);
  });
});

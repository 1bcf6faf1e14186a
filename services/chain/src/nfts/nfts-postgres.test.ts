import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Wallet } from 'ethers';
import { JobStatus, NftStatus } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { ownerOf } from '../contracts/nft-contract.js';
import { startChainHarness, waitForJob, waitUntil, type ChainHarness } from '@green-impact/testing/chain/harness';
import { claimFromMail, startImageServer, testJpeg } from '@green-impact/testing/chain/nft-fixtures';

const postgresql = testDatabases.find((d) => d.name === 'postgresql')!;

/**
 * The same NFT flow on PostgreSQL (the production database), with the e-mail outbox folder instead of
 * SMTP: mint, send, claim with the code read from the .eml file.
 */
describe('NFTs on PostgreSQL (mail outbox folder)', { timeout: 120_000, skip: await skipReason(postgresql) }, () => {
  let h: ChainHarness;
  let images: Awaited<ReturnType<typeof startImageServer>>;
  let outbox: string;

  before(async () => {
    images = await startImageServer({ '/art.jpg': { type: 'image/jpeg', body: testJpeg() } });
    outbox = await mkdtemp(join(tmpdir(), 'nft-outbox-'));
    h = await startChainHarness({ db: postgresql, service: { nfts: { mailOutboxDir: outbox, image: { allowPrivateHosts: true } } } });
  });
  after(async () => {
    await h?.stop();
    await images?.stop();
    await rm(outbox, { recursive: true, force: true });
  });

  it('mints, sends by e-mail (an .eml file) and the recipient claims it', async () => {
    const caller = { caller: h.alice };
    const minted = await h.client.mintNft({ network: 'mumbai', name: 'Wind 2024', description: 'PostgreSQL smoke', image: `${images.url}/art.jpg`, attributes: [{ traitType: 'MWh', value: 812 }] }, caller);
    const job = await waitForJob(h.client, h.alice, minted.jobId);
    assert.equal(job.status, JobStatus.JOB_STATUS_COMPLETED, job.error);
    assert.equal(job.network, 'mumbai');
    assert.ok((await h.client.getNft({ guid: job.nftGuid! }, caller)).nft!.certificatePdfCid, 'the first read draws the certificates');

    const sent = (await h.client.sendNft({ network: 'amoy', nftId: job.nftId!, email: 'kim@example.org' }, caller)).nft!;
    assert.equal(sent.status, NftStatus.NFT_STATUS_EMAILED);
    await waitUntil(async () => (await readdir(outbox)).length === 1, 'the .eml file');
    const [file] = await readdir(outbox);
    const { code } = claimFromMail(await readFile(join(outbox, file!), 'utf8'));
    assert.equal(code, sent.transferCodes!.receiver);

    const wallet = Wallet.createRandom().address;
    const claim = await h.client.claimNft({ receiverCode: code, address: wallet }, {});
    assert.equal((await waitForJob(h.client, h.alice, claim.jobId)).status, JobStatus.JOB_STATUS_COMPLETED);
    assert.equal(await ownerOf(h.service.networks.resolve('amoy').network, job.nftId!), wallet);
    const listed = (await h.client.listNfts({}, caller)).nfts;
    assert.deepEqual(listed.map((n) => [n.guid, n.status, n.transferredTo]), [[job.nftGuid, NftStatus.NFT_STATUS_TRANSFERRED, wallet]]);
  });
});

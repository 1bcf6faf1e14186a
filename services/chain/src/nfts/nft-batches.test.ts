import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Interface } from 'ethers';
import { JobStatus, type Job } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { startChainHarness, waitForJob, type ChainHarness } from '@green-impact/testing/chain/harness';
import { startImageServer, testJpeg } from '@green-impact/testing/chain/nft-fixtures';
import { contractArtifact } from '../contracts/artifacts.js';
import { encodeMint, metadataDigest, ownerOf, tokenUri } from '../contracts/nft-contract.js';

const nftAbi = new Interface(contractArtifact('GreenImpactNft').abi);

/**
 * NFT mints many per transaction, as by default (CHAIN_NFT_BATCH 16, window 50 ms; embedded EVM, real
 * gRPC, both databases): queued mints go in one GreenImpactNft.mintDigests (metadata stored as digests,
 * at most half the gas per NFT of a lone mint), each job with its own NFT, token id (in the receipt's
 * Transfer order), token URI and certificates; a URI that is not a raw CID makes its batch a mintMany;
 * a mint that cannot go fails alone; a lone mint goes on its own; with batching off (CHAIN_NFT_BATCH=1)
 * each mint is its own `mint`.
 */
for (const db of testDatabases) {
  describe(`batched NFT mints by default (${db.name})`, { skip: await skipReason(db), timeout: 180_000 }, () => {
    let h: ChainHarness;
    let images: Awaited<ReturnType<typeof startImageServer>>;
    const sepolia = () => h.service.networks.resolve('sepolia').network;
    const mint = (name: string) =>
      h.client.mintNft({ network: 'sepolia', name, description: `${name}: 12.4 GWh of solar power`, image: `${images.url}/art.jpg`, attributes: [] }, { caller: h.alice });
    const parsedCall = async (job: Job) => nftAbi.parseTransaction({ data: (await sepolia().provider.getTransaction(job.txHash!))!.data })!;

    before(async () => {
      images = await startImageServer({ '/art.jpg': { type: 'image/jpeg', body: testJpeg() } });
      h = await startChainHarness({ db, service: { publicBaseUrl: 'https://impact.example.org', nfts: { image: { allowPrivateHosts: true, maxBytes: 256 * 1024, timeoutMs: 5_000 } } } });
    });
    after(async () => {
      await h?.stop();
      await images?.stop();
    });

    it('puts queued mints in one mintDigests; each job gets its own NFT, token id in entry order, URI and certificates', async () => {
      // The worker stopped, so all of them wait in the queue when it looks: the batch does not depend on timing.
      await h.service.stopWorker();
      const accepted = [];
      for (let i = 0; i < 5; i++) accepted.push(await mint(`Batch certificate ${i}`)); // in order: entry i is mint i
      await h.service.startWorker();
      const jobs = await Promise.all(accepted.map((a) => waitForJob(h.client, h.alice, a.jobId)));
      for (const job of jobs) assert.equal(job.status, JobStatus.JOB_STATUS_COMPLETED, job.error);
      assert.equal(new Set(jobs.map((j) => j.txHash)).size, 1, 'five mints in one transaction');
      const call = await parsedCall(jobs[0]!);
      assert.equal(call.name, 'mintDigests');
      const [recipients, digests] = call.args as unknown as [string[], string[]];
      assert.equal(recipients.length, 5);

      const ids = jobs.map((j) => BigInt(j.nft!.nftId));
      for (let i = 1; i < ids.length; i++) assert.equal(ids[i], ids[0]! + BigInt(i), 'consecutive token ids in the order the mints were queued');
      for (const [i, job] of jobs.entries()) {
        assert.equal(job.nft!.certificatePdfCid, '', "nothing drawn on the job's path");
        const nft = (await h.client.getNft({ guid: job.nft!.guid }, { caller: h.alice })).nft!;
        assert.equal(nft.nftId, job.nft!.nftId, 'the stored NFT has the id its job reports');
        assert.equal(nft.nftJson!.name, `Batch certificate ${i}`);
        assert.equal(await tokenUri(sepolia(), nft.nftId), `ipfs://${nft.nftIpfsHash}`, 'each token has its own metadata URI');
        assert.equal(digests[i], metadataDigest(`ipfs://${nft.nftIpfsHash}`), 'entry i of the call is the digest of mint i\'s metadata');
        assert.equal((await ownerOf(sepolia(), nft.nftId))!.toLowerCase(), sepolia().signerAddress.toLowerCase(), 'minted to the custody wallet');
        assert.ok(nft.certificatePdfCid && nft.certificateJpgCid, 'each NFT has its certificates, drawn by this first read');
        assert.equal(nft.nftTxHash, job.txHash);
      }
      // The gas is shared out: each member reports its part of the one transaction.
      const receipt = (await sepolia().provider.getTransactionReceipt(jobs[0]!.txHash!))!;
      assert.ok(jobs.every((j) => j.gasUsed! * 5 >= Number(receipt.gasUsed) && j.gasUsed! * 5 < Number(receipt.gasUsed) + 5));
      // At most half the gas of a lone mint per NFT (the URI string takes four storage slots, a digest one).
      const lone = await sepolia().provider.estimateGas({
        from: sepolia().signerAddress, to: sepolia().contracts.nft, data: encodeMint(sepolia().signerAddress, `ipfs://${jobs[0]!.nft!.nftIpfsHash}`),
      });
      assert.ok(Number(receipt.gasUsed) / 5 <= Number(lone) / 2, `${Number(receipt.gasUsed) / 5} gas per NFT against ${lone} for a lone mint`);
    });

    it('a batch with a URI that is not a raw CID stores the URI strings (mintMany)', async () => {
      await h.service.stopWorker();
      const plain = await mint('Plain certificate');
      const dagPb = await mint('dag-pb certificate');
      // A CIDv1 dag-pb URI (as an IPFS node would name a file): no raw sha-256 digest to store.
      const uri = 'ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi';
      await h.service.dataSource.query(`UPDATE chain.jobs SET payload = jsonb_set(payload, '{tokenUri}', to_jsonb($2::text)) WHERE id = $1`, [dagPb.jobId, uri]);
      await h.service.startWorker();
      const jobs = await Promise.all([plain, dagPb].map((a) => waitForJob(h.client, h.alice, a.jobId)));
      for (const job of jobs) assert.equal(job.status, JobStatus.JOB_STATUS_COMPLETED, job.error);
      assert.equal(jobs[0]!.txHash, jobs[1]!.txHash);
      assert.equal((await parsedCall(jobs[0]!)).name, 'mintMany');
      assert.equal(await tokenUri(sepolia(), jobs[1]!.nft!.nftId), uri);
      assert.equal(await tokenUri(sepolia(), jobs[0]!.nft!.nftId), `ipfs://${jobs[0]!.nft!.nftIpfsHash}`);
    });

    it('a mint that cannot go fails alone, checked before batching; the others of its batch complete', async () => {
      await h.service.stopWorker();
      const good = await mint('Good certificate');
      const bad = await mint('Spoiled certificate');
      // A row spoiled after it was accepted (URIs are made by the service; this is what the batcher re-checks).
      await h.service.dataSource.query(`UPDATE chain.jobs SET payload = jsonb_set(payload, '{tokenUri}', '""') WHERE id = $1`, [bad.jobId]);
      await h.service.startWorker();
      const [g, b] = await Promise.all([waitForJob(h.client, h.alice, good.jobId), waitForJob(h.client, h.alice, bad.jobId)]);
      assert.equal(g.status, JobStatus.JOB_STATUS_COMPLETED, g.error);
      assert.equal(b.status, JobStatus.JOB_STATUS_FAILED);
      assert.match(b.error!, /no token URI or no valid recipient; nothing was sent/);
      assert.equal(b.txHash, undefined);
      const [{ guid }] = (await h.service.dataSource.query(`SELECT payload->>'guid' AS guid FROM chain.jobs WHERE id = $1`, [bad.jobId])) as { guid: string }[];
      const [nft] = (await h.service.dataSource.query(`SELECT status, token_id FROM chain.nfts WHERE guid = $1`, [guid])) as { status: string; token_id: string | null }[];
      assert.deepEqual(nft, { status: 'failed', token_id: null }, 'the failed mint made no token');
    });

    it('a lone mint goes in a batch of its own once its window closes', async () => {
      const lone = await mint('Lone certificate');
      const job = await waitForJob(h.client, h.alice, lone.jobId);
      assert.equal(job.status, JobStatus.JOB_STATUS_COMPLETED, job.error);
      const row = (await h.service.jobs.load(lone.jobId))!;
      const members = (await h.service.dataSource.query(`SELECT count(*)::int AS n FROM chain.jobs WHERE batch_job_id = $1`, [row.batchJobId])) as { n: number }[];
      assert.equal(members[0]!.n, 1, 'the batch carries the lone mint only');
      assert.equal((await parsedCall(job)).name, 'mintDigests');
    });
  });
}

describe('NFT mints one per transaction (CHAIN_NFT_BATCH=1)', { timeout: 120_000 }, () => {
  let h: ChainHarness;
  let images: Awaited<ReturnType<typeof startImageServer>>;
  before(async () => {
    images = await startImageServer({ '/art.jpg': { type: 'image/jpeg', body: testJpeg() } });
    const pglite = testDatabases.find((d) => d.name === 'pglite')!;
    h = await startChainHarness({ db: pglite, service: { worker: { sender: { nftBatchSize: 1 } }, nfts: { image: { allowPrivateHosts: true, maxBytes: 256 * 1024, timeoutMs: 5_000 } } } });
  });
  after(async () => {
    await h?.stop();
    await images?.stop();
  });

  it('each mint is a mint transaction of its own', async () => {
    await h.service.stopWorker();
    const accepted = [];
    for (let i = 0; i < 2; i++) accepted.push(await h.client.mintNft({ network: 'sepolia', name: `Single ${i}`, description: 'one', image: `${images.url}/art.jpg`, attributes: [] }, { caller: h.alice }));
    await h.service.startWorker();
    const jobs = await Promise.all(accepted.map((a) => waitForJob(h.client, h.alice, a.jobId)));
    for (const job of jobs) assert.equal(job.status, JobStatus.JOB_STATUS_COMPLETED, job.error);
    assert.equal(new Set(jobs.map((j) => j.txHash)).size, 2);
    const provider = h.service.networks.resolve('sepolia').network.provider;
    for (const job of jobs) assert.equal(nftAbi.parseTransaction({ data: (await provider.getTransaction(job.txHash!))!.data })!.name, 'mint');
  });
});

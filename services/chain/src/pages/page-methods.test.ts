import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DocumentKind, JobStatus, type Nft } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { metricsRegistry } from '@green-impact/shared/metrics';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { rejectsWith, startChainHarness, waitForJob, type ChainHarness } from '@green-impact/testing/chain/harness';
import { startImageServer, testJpeg } from '@green-impact/testing/chain/nft-fixtures';

/** The pages' chain reads that reached the node (chain_page_node_reads_total{outcome="relayed"}). */
async function relayedReads(): Promise<number> {
  const metric = await metricsRegistry.getSingleMetric('chain_page_node_reads_total')!.get();
  return metric.values.find((v) => v.labels['outcome'] === 'relayed')?.value ?? 0;
}

const text = (page: { content: Uint8Array }) => Buffer.from(page.content).toString('utf8');
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/**
 * The pages the chain service renders for the gateway, over real gRPC on its embedded sepolia: explorer
 * (a mined mint's receipt and block), an NFT's certificate landing page (its holder read from the chain),
 * the claim pages and a written document's page with its anchoring facts; their rules refused as INVALID_ARGUMENT / NOT_FOUND. PGlite and PostgreSQL.
 */
for (const db of testDatabases) {
  describe(`Render*Page on ${db.name}`, { skip: await skipReason(db), timeout: 120_000 }, () => {
    let h: ChainHarness;
    let images: Awaited<ReturnType<typeof startImageServer>>;
    let nft: Nft;
    let block: string;

    before(async () => {
      images = await startImageServer({ '/art.jpg': { type: 'image/jpeg', body: testJpeg() } });
      h = await startChainHarness({ db, service: { nfts: { image: { allowPrivateHosts: true } } } });
      const { job } = await h.client.mintNft({ network: 'sepolia', name: 'Wind <Farm>', description: 'd', image: `${images.url}/art.jpg`, attributes: [] }, { caller: h.alice });
      const done = await waitForJob(h.client, h.alice, job!.id);
      assert.equal(done.status, JobStatus.JOB_STATUS_COMPLETED, done.error);
      block = String(done.blockNumber);
      nft = (await h.client.getNft({ guid: job!.nftGuid! }, { caller: h.alice })).nft!;
    });
    after(async () => {
      await h?.stop();
      await images?.stop();
    });

    it("renders a mined transaction's receipt and its block, reading the node once for the same page", async () => {
      const before = await relayedReads();
      const tx = await h.client.renderExplorerPage({ network: 'sepolia', txHash: nft.nftTxHash, blockNumber: '' }, {});
      assert.deepEqual([tx.contentType, tx.cacheControl], ['text/html; charset=utf-8', 'public, max-age=60']);
      assert.match(text(tx), /<span class="ok">success<\/span>/);
      assert.match(text(tx), new RegExp(`<strong>Transfer</strong> of token ${nft.nftId} minted`));
      await h.client.renderExplorerPage({ network: 'sepolia', txHash: nft.nftTxHash, blockNumber: '' }, {});
      assert.equal((await relayedReads()) - before, 1, 'the second view is served from the cache');
      const page = text(await h.client.renderExplorerPage({ network: 'sepolia', txHash: '', blockNumber: block }, {}));
      assert.match(page, new RegExp(`href="/explorer/sepolia/tx/${nft.nftTxHash}"`, 'i'));
    });

    it('refuses malformed paths and unknown networks, and answers NOT_FOUND for what the chain does not have', async () => {
      const render = (req: { network?: string; txHash?: string; blockNumber?: string }) => h.client.renderExplorerPage({ network: 'sepolia', txHash: '', blockNumber: '', ...req }, {});
      await rejectsWith(render({ txHash: '0x123' }), 'INVALID_ARGUMENT', 'A transaction hash is 0x and 64 hex digits.');
      await rejectsWith(render({ blockNumber: '012' }), 'INVALID_ARGUMENT', 'A block number is a whole number of at most 15 digits.');
      await rejectsWith(render({}), 'INVALID_ARGUMENT', /exactly one/);
      await rejectsWith(render({ network: 'a/b', txHash: nft.nftTxHash }), 'INVALID_ARGUMENT', /must name a network/);
      await rejectsWith(render({ network: 'goerli', txHash: nft.nftTxHash }), 'INVALID_ARGUMENT', /Unknown network "goerli"/);
      await rejectsWith(render({ txHash: `0x${'9'.repeat(64)}` }), 'NOT_FOUND', /knows no transaction/);
      await rejectsWith(render({ blockNumber: '999999999999999' }), 'NOT_FOUND', /has no block 999999999999999 yet/);
    });

    it("renders an NFT's certificate page with its holder read from the chain; unknown and malformed guids are NOT_FOUND", async () => {
      const page = await h.client.renderCertificatePage({ guid: nft.guid }, {});
      assert.equal(page.cacheControl, 'public, max-age=60');
      assert.match(text(page), /<title>Certificate of trust: Wind &lt;Farm&gt;<\/title>/);
      assert.match(text(page), new RegExp(`${nft.ownerAddress}</span> <span class="ok">\\(read from the chain now\\)`, 'i'));
      await rejectsWith(h.client.renderCertificatePage({ guid: UNKNOWN }, {}), 'NOT_FOUND');
      await rejectsWith(h.client.renderCertificatePage({ guid: 'x' }, {}), 'NOT_FOUND', 'No certificate x.');
    });

    it('renders the claim pages: no form for an NFT not waiting, the form with a refusal, the accepted claim', async () => {
      const render = (req: Partial<{ guid: string; receiverCode: string; address: string; refusal: string; transferJobId: string }>) =>
        h.client.renderClaimPage({ guid: '', receiverCode: '', address: '', refusal: '', transferJobId: '', ...req }, {}).then(text);
      const held = await render({ guid: nft.guid });
      assert.match(held, /not waiting to be claimed: it is minted; held by the service/);
      assert.doesNotMatch(held, /<form/);
      const again = await render({ guid: nft.guid, receiverCode: 'abc', address: '0x1', refusal: 'The address must be a wallet address.' });
      assert.match(again, /<p class="error">The address must be a wallet address.<\/p>/);
      assert.match(again, /<input type="hidden" name="code" value="abc">/);
      assert.doesNotMatch(again, /Someone sent you/, 'an NFT not waiting is left out of the form');
      assert.match(await render({ receiverCode: 'not a code!' }), /<input type="text" id="code" name="code" required/);
      const accepted = await render({ transferJobId: 'job-7', address: '0xabc', guid: nft.guid });
      assert.match(accepted, /Your claim was accepted/);
      assert.match(accepted, new RegExp(`href="certificates/${nft.guid}"`));
      await rejectsWith(h.client.renderClaimPage({ guid: UNKNOWN, receiverCode: '', address: '', refusal: '', transferJobId: '' }, {}), 'NOT_FOUND');
    });

    it("renders a written HTML document verified now, with its anchoring facts or alone, to its account or a signed link's epoch", async () => {
      const content = Buffer.from('<!doctype html><html><head><title>R</title></head><body><main>report</main></body></html>');
      const { job } = await h.client.submitDocument({ kind: DocumentKind.DOCUMENT_KIND_FRAMEWORK_HTML, network: 'sepolia', content, contentType: 'text/html; charset=utf-8', frameworkIdentifier: 'FW-P' }, { caller: h.alice });
      await waitForJob(h.client, h.alice, job!.id);
      const ask = { jobId: job!.id, raw: false, rawUrl: `/jobs/${job!.id}.html?raw=1`, pdfUrl: `/jobs/${job!.id}.pdf` };
      const page = await h.client.renderDocumentPage(ask, { caller: h.alice });
      const { cid, sha256, linkEpoch } = await h.client.getDocument({ jobId: job!.id }, { caller: h.alice });
      assert.deepEqual([page.contentType, page.cid, page.sha256, page.jobId], ['text/html; charset=utf-8', cid, sha256, job!.id]);
      assert.match(text(page), /<body>\n<aside class="anchoring"[^]*<\/aside><main>report<\/main>/);
      assert.ok(text(page).includes(`<a href="/jobs/${job!.id}.pdf">Download PDF</a>`));
      assert.ok(text(page).includes(`<span class="mono">${sha256}</span>`));
      const raw = await h.client.renderDocumentPage({ ...ask, raw: true }, { caller: h.alice });
      assert.deepEqual(Buffer.from(raw.content), content, 'the anchored bytes exactly');
      assert.match(text(await h.client.renderDocumentPage({ ...ask, linkEpoch }, {})), /Anchored on the blockchain/);
      await rejectsWith(h.client.renderDocumentPage(ask, { caller: h.bob }), 'NOT_FOUND');
      await rejectsWith(h.client.renderDocumentPage({ ...ask, linkEpoch: linkEpoch + 1 }, {}), 'NOT_FOUND');
    });
  });
}

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DocumentKind } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { rejectsWith, startChainHarness, waitForJob, type ChainHarness } from '@green-impact/testing/chain/harness';

const html = (title: string) => Buffer.from(`<!doctype html><html><head><title>${title}</title></head><body>${title}</body></html>`);
const TYPE = 'text/html; charset=utf-8';

/**
 * Who reads a stored document (content-access.ts, Documents.readByLink / revokeLinks) on the real service
 * over gRPC: a public framework's content is anyone's; a private framework's and every position-impacts
 * document only its account's, and the answer to anyone else is that of an unknown CID; a link read
 * opens the document for its current epoch only, and revoking moves the epoch on. PGlite and PostgreSQL.
 */
for (const db of testDatabases) {
  describe(`document access on ${db.name}`, { skip: await skipReason(db), timeout: 120_000 }, () => {
    let h: ChainHarness;
    const as = (caller: ChainHarness['alice'] | undefined) => (caller ? { caller } : {});
    const written = async (req: { kind: DocumentKind; title: string; public?: boolean; impacts?: boolean }) => {
      const subject = req.impacts ? { investorIdentifier: 'INV-1', positionId: 7 } : { frameworkIdentifier: `FW-${req.title}` };
      const res = await h.client.submitDocument(
        { kind: req.kind, network: 'sepolia', content: html(req.title), contentType: TYPE, ...subject, ...(req.public !== undefined ? { public: req.public } : {}) },
        as(h.alice),
      );
      await waitForJob(h.client, h.alice, res.job!.id);
      const doc = await h.client.getDocument({ jobId: res.job!.id }, as(h.alice));
      return { jobId: res.job!.id, cid: doc.cid, documentId: res.documentId, linkEpoch: doc.linkEpoch };
    };

    before(async () => {
      h = await startChainHarness({ db });
    });
    after(async () => {
      await h?.stop();
    });

    it("GetContent: a public framework's document to anyone; private ones and impacts to their account alone", async () => {
      const open = await written({ kind: DocumentKind.DOCUMENT_KIND_FRAMEWORK_HTML, title: 'open', public: true });
      const closed = await written({ kind: DocumentKind.DOCUMENT_KIND_FRAMEWORK_HTML, title: 'closed' });
      // Asked public, but a position's impacts never are.
      const impacts = await written({ kind: DocumentKind.DOCUMENT_KIND_POSITION_IMPACTS_HTML, title: 'impacts', public: true, impacts: true });

      for (const caller of [undefined, h.bob, h.alice]) {
        const served = await h.client.getContent({ cid: open.cid }, as(caller));
        assert.deepEqual([Buffer.from(served.content).toString(), served.public], [html('open').toString(), true]);
      }
      for (const doc of [closed, impacts]) {
        const mine = await h.client.getContent({ cid: doc.cid }, as(h.alice));
        assert.equal(mine.public, false);
        for (const caller of [undefined, h.bob]) {
          await rejectsWith(h.client.getContent({ cid: doc.cid }, as(caller)), 'NOT_FOUND', `No content with CID ${doc.cid}.`);
        }
      }
      // Bytes in the store that no document names are nobody's.
      const orphan = await h.service.content.put(Buffer.from('stored, never written'), 'text/plain');
      await rejectsWith(h.client.getContent({ cid: orphan.cid }, as(h.alice)), 'NOT_FOUND', `No content with CID ${orphan.cid}.`);
    });

    it('a link read opens the document for its current epoch; revoking moves the epoch on, for the owner only', async () => {
      const doc = await written({ kind: DocumentKind.DOCUMENT_KIND_FRAMEWORK_HTML, title: 'linked' });
      assert.equal(doc.linkEpoch, 0);
      const linked = await h.client.getDocument({ jobId: doc.jobId, linkEpoch: 0 }, {});
      assert.equal(linked.verified, true);
      assert.equal(Buffer.from(linked.content).toString(), html('linked').toString());
      const unknown = `No such job ${doc.jobId}.`;
      await rejectsWith(h.client.getDocument({ jobId: doc.jobId, linkEpoch: 1 }, {}), 'NOT_FOUND', unknown);
      // Links name the job's UUID only; an entry id, or a stranger with an epoch, reads nothing.
      await rejectsWith(h.client.getDocument({ jobId: String(doc.documentId), linkEpoch: 0 }, {}), 'NOT_FOUND');
      await rejectsWith(h.client.getDocument({ jobId: doc.jobId, linkEpoch: 0 }, as(h.bob)), 'NOT_FOUND');

      await rejectsWith(h.client.revokeDocumentLinks({ jobId: doc.jobId }, as(h.bob)), 'NOT_FOUND');
      await rejectsWith(h.client.revokeDocumentLinks({ jobId: doc.jobId }, {}), 'UNAUTHENTICATED');
      assert.deepEqual(await h.client.revokeDocumentLinks({ jobId: String(doc.documentId) }, as(h.alice)), { jobId: doc.jobId, linkEpoch: 1 });
      await rejectsWith(h.client.getDocument({ jobId: doc.jobId, linkEpoch: 0 }, {}), 'NOT_FOUND', unknown);
      assert.equal((await h.client.getDocument({ jobId: doc.jobId, linkEpoch: 1 }, {})).linkEpoch, 1);
      assert.equal((await h.client.getDocument({ jobId: doc.jobId }, as(h.alice))).linkEpoch, 1, 'the owner reads the epoch to sign for');

      const kv = await h.client.insertString({ network: 'sepolia', key: 'k', value: 'v' }, as(h.alice));
      await rejectsWith(h.client.revokeDocumentLinks({ jobId: kv.jobId }, as(h.alice)), 'FAILED_PRECONDITION', /is not a document job/);
      await rejectsWith(h.client.getDocument({ jobId: kv.jobId, linkEpoch: 0 }, {}), 'NOT_FOUND');
    });

    it("an NFT image from the store must be one the minting account may read", async () => {
      const closed = await written({ kind: DocumentKind.DOCUMENT_KIND_FRAMEWORK_HTML, title: 'not-an-image' });
      const mint = (caller: ChainHarness['alice']) =>
        h.client.mintNft({ network: 'sepolia', name: 'x', description: '', image: `ipfs://${closed.cid}`, attributes: [] }, as(caller));
      await rejectsWith(mint(h.bob), 'FAILED_PRECONDITION', `The image ipfs://${closed.cid} is not in the service's content store. Nothing was minted.`);
      await rejectsWith(mint(h.alice), 'FAILED_PRECONDITION', /is not an image/);
    });
  });
}

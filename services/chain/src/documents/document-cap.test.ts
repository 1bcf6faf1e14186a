import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DocumentKind } from '@green-impact/proto/greenimpact/chain/v1/chain';
import type { Caller } from '@green-impact/shared/caller';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { startChainHarness, type ChainHarness } from '@green-impact/testing/chain/harness';

/**
 * ListDocumentJobs without page_size (/v1/call's getBlockchainJobsForFrameworks / …ForImpacts) answers at
 * most MAX_LIST_ITEMS entries, oldest first, with total_count set only when it cut the list; pages are
 * not cut. A cap of 3 makes it reachable. The worker is stopped: listing does not need the jobs done.
 */
for (const db of testDatabases) {
  describe(`document entries cut at MAX_LIST_ITEMS on ${db.name}`, { skip: await skipReason(db), timeout: 120_000 }, () => {
    let h: ChainHarness;
    const FW = { frameworkIdentifier: 'FW-A' };
    const write = (caller: Caller) =>
      h.client.submitDocument(
        { kind: DocumentKind.DOCUMENT_KIND_FRAMEWORK_JSON, network: 'sepolia', content: Buffer.from('{}'), contentType: 'application/json', ...FW },
        { caller },
      );

    before(async () => {
      h = await startChainHarness({ db, service: { limits: { maxListItems: 3, maxPublicItemsPerAccount: 1_000 } } });
      await h.service.stopWorker();
      for (let i = 0; i < 5; i++) await write(h.alice);
      await write(h.bob);
    });
    after(async () => {
      await h?.stop();
    });

    it('answers the oldest MAX_LIST_ITEMS entries and their total when more match, the whole list otherwise', async () => {
      const all = await h.client.listDocumentJobs({ kinds: [], ...FW, pageSize: 10 }, { caller: h.alice });
      assert.equal(all.jobs.length, 5);
      const cut = await h.client.listDocumentJobs({ kinds: [], ...FW }, { caller: h.alice });
      assert.deepEqual(cut.jobs, all.jobs.slice(0, 3));
      assert.deepEqual([cut.totalCount, cut.nextPageToken], [5, '']);
      const whole = await h.client.listDocumentJobs({ kinds: [], ...FW }, { caller: h.bob });
      assert.deepEqual([whole.jobs.length, whole.totalCount], [1, undefined]);
    });
  });
}

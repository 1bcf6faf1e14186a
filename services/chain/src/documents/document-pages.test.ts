import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DocumentKind, type DocumentJobEntry, type ListDocumentJobsRequest } from '@green-impact/proto/greenimpact/chain/v1/chain';
import type { Caller } from '@green-impact/shared/caller';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { rejectsWith, startChainHarness, type ChainHarness } from '@green-impact/testing/chain/harness';

const token = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const html = (title: string) => Buffer.from(`<!doctype html><html><head><title>${title}</title></head><body>${title}</body></html>`);

/**
 * ListDocumentJobs with page_size / page_token (the GraphQL documents connection): keyset pages in id
 * order (the whole list's order, oldest first), counted, with the whole list's filters (account,
 * subject, kinds). PGlite and PostgreSQL. The worker is stopped: listing does not need the jobs done.
 */
for (const db of testDatabases) {
  describe(`documents paged by the service on ${db.name}`, { skip: await skipReason(db), timeout: 120_000 }, () => {
    let h: ChainHarness;
    let n = 0;
    const JSON_KINDS = [DocumentKind.DOCUMENT_KIND_FRAMEWORK_JSON, DocumentKind.DOCUMENT_KIND_POSITION_IMPACTS_JSON];
    const write = async (caller: Caller, subject: { frameworkIdentifier: string } | { investorIdentifier: string; positionId: number }, kind = DocumentKind.DOCUMENT_KIND_FRAMEWORK_HTML) => {
      const title = `doc ${++n}`;
      const content = JSON_KINDS.includes(kind)
        ? { content: Buffer.from(JSON.stringify({ title })), contentType: 'application/json' }
        : { content: html(title), contentType: 'text/html; charset=utf-8' };
      return (await h.client.submitDocument({ kind, network: 'sepolia', ...content, ...subject }, { caller })).documentId;
    };
    const allPages = async (size: number, caller: Caller, req: Partial<ListDocumentJobsRequest>, between?: (page: number) => Promise<void>) => {
      const pages: DocumentJobEntry[][] = [];
      let pageToken: string | undefined;
      for (;;) {
        const res = await h.client.listDocumentJobs({ kinds: [], ...req, pageSize: size, ...(pageToken ? { pageToken } : {}) }, { caller });
        pages.push(res.jobs);
        if (!res.nextPageToken) break;
        assert.equal(res.jobs.length, size, 'a page before the last is full');
        pageToken = res.nextPageToken;
        await between?.(pages.length);
      }
      return pages;
    };
    const FW = { frameworkIdentifier: 'FW-A' };

    before(async () => {
      h = await startChainHarness({ db });
      await h.service.stopWorker();
      for (let i = 0; i < 7; i++) {
        await write(h.alice, FW, i % 2 ? DocumentKind.DOCUMENT_KIND_FRAMEWORK_JSON : DocumentKind.DOCUMENT_KIND_FRAMEWORK_HTML);
        if (i % 3 === 0) await write(h.bob, FW);
        if (i % 2 === 0) await write(h.alice, { frameworkIdentifier: 'FW-B' });
      }
      for (let i = 0; i < 3; i++) await write(h.alice, { investorIdentifier: 'INV-1', positionId: 7 }, DocumentKind.DOCUMENT_KIND_POSITION_IMPACTS_JSON);
    });
    after(async () => {
      await h?.stop();
    });

    it('pages cover the whole list exactly once, in id order, with its count; absent page_size is the whole list', async () => {
      const listings: [Caller, Partial<ListDocumentJobsRequest>][] = [
        [h.alice, FW],
        [h.alice, { ...FW, kinds: [DocumentKind.DOCUMENT_KIND_FRAMEWORK_JSON] }],
        [h.bob, FW],
        [h.alice, { investorIdentifier: 'INV-1', positionId: 7 }],
      ];
      for (const [caller, req] of listings) {
        const whole = await h.client.listDocumentJobs({ kinds: [], ...req }, { caller });
        assert.equal(whole.nextPageToken, '');
        assert.equal(whole.totalCount, undefined);
        assert.ok(whole.jobs.length > 0);
        for (const size of [1, 2, 5, 1000]) {
          assert.deepEqual((await allPages(size, caller, req)).flat(), whole.jobs, `page size ${size}`);
        }
        const first = await h.client.listDocumentJobs({ kinds: [], ...req, pageSize: 1 }, { caller });
        assert.equal(first.totalCount, whole.jobs.length);
      }
      const alices = (await allPages(3, h.alice, FW)).flat().map((e) => e.id);
      const bobs = (await allPages(3, h.bob, FW)).flat().map((e) => e.id);
      assert.deepEqual([alices.length, bobs.length], [7, 3]);
      assert.ok(bobs.every((id) => !alices.includes(id)), "another account's documents never appear");
    });

    it('inserts and removals between pages: each entry present throughout is seen exactly once, in order', async () => {
      const before = (await allPages(100, h.alice, FW)).flat().map((e) => e.id);
      let added = 0;
      const pages = await allPages(2, h.alice, FW, async (page) => {
        if (page !== 1) return;
        added = await write(h.alice, FW);
        // Documents are not removed by the API; a row gone (the page's last and one further on) must not break the keyset.
        await h.service.dataSource.query(`DELETE FROM chain.documents WHERE id = ANY($1::bigint[])`, [[before[1], before[4]]]);
      });
      const ids = pages.flat().map((e) => e.id);
      assert.equal(new Set(ids).size, ids.length);
      assert.deepEqual([...ids].sort((a, b) => a - b), ids);
      assert.deepEqual(ids, [...before.filter((id) => id !== before[4]), added]);
    });

    it("lists a framework's EU GBS documents with its own, and by their kind alone", async () => {
      const fw = { frameworkIdentifier: 'FW-EU' };
      const own = await write(h.alice, fw);
      const euGbs = await write(h.alice, fw, DocumentKind.DOCUMENT_KIND_EU_GBS_HTML);
      const all = await h.client.listDocumentJobs({ kinds: [], ...fw }, { caller: h.alice });
      assert.deepEqual(all.jobs.map((e) => [e.id, e.kind]), [[own, DocumentKind.DOCUMENT_KIND_FRAMEWORK_HTML], [euGbs, DocumentKind.DOCUMENT_KIND_EU_GBS_HTML]]);
      const only = await h.client.listDocumentJobs({ kinds: [DocumentKind.DOCUMENT_KIND_EU_GBS_HTML], ...fw }, { caller: h.alice });
      assert.deepEqual(only.jobs.map((e) => e.id), [euGbs]);
      // A framework document: it needs the framework, and never lists under a position.
      await rejectsWith(
        h.client.submitDocument({ kind: DocumentKind.DOCUMENT_KIND_EU_GBS_HTML, network: 'sepolia', content: html('x'), contentType: 'text/html', investorIdentifier: 'INV-1', positionId: 7 }, { caller: h.alice }),
        'INVALID_ARGUMENT',
        'framework_identifier is required for framework documents.',
      );
      const position = await h.client.listDocumentJobs({ investorIdentifier: 'INV-1', positionId: 7, kinds: [DocumentKind.DOCUMENT_KIND_EU_GBS_HTML] }, { caller: h.alice });
      assert.deepEqual(position.jobs, []);
    });

    it('refuses a malformed or foreign page_token and a page_size out of 1..1000', async () => {
      const guid = '0b9f6f0c-3f0e-4d7e-9a43-2d0f3b0d5a11';
      for (const pageToken of ['not a token!', token([1, guid]), token([1, 0]), token([1, '0']), token({}), token([-1, '3'])]) {
        await rejectsWith(h.client.listDocumentJobs({ ...FW, kinds: [], pageSize: 2, pageToken }, { caller: h.alice }), 'INVALID_ARGUMENT', 'page_token must be a next_page_token of this listing.');
      }
      for (const pageSize of [0, -1, 1001]) {
        await rejectsWith(h.client.listDocumentJobs({ ...FW, kinds: [], pageSize }, { caller: h.alice }), 'INVALID_ARGUMENT', `page_size must be an integer from 1 to 1000, got ${pageSize}.`);
      }
      await rejectsWith(h.client.listDocumentJobs({ kinds: [], pageSize: 2 }, { caller: h.alice }), 'INVALID_ARGUMENT', 'framework_identifier, or investor_identifier with position_id, is required.');
    });
  });
}

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ListNftsRequest, Nft } from '@green-impact/proto/greenimpact/chain/v1/chain';
import type { Caller } from '@green-impact/shared/caller';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { rejectsWith, startChainHarness, type ChainHarness } from '@green-impact/testing/chain/harness';
import { startImageServer, testJpeg } from '@green-impact/testing/chain/nft-fixtures';

const token = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * ListNfts with page_size / page_token (the GraphQL nfts connection): pages in the spec list's order
 * (newest first, guid breaking ties) without its 20 / 1000 caps, keyset after the token's NFT, counted,
 * with the list's filters (account, network, range; failed mints are not NFTs). PGlite and PostgreSQL.
 * The worker is stopped: the mints stay queued (MINTING), which the list shows.
 */
for (const db of testDatabases) {
  describe(`NFTs paged by the service on ${db.name}`, { skip: await skipReason(db), timeout: 120_000 }, () => {
    let h: ChainHarness;
    let images: Awaited<ReturnType<typeof startImageServer>>;
    let n = 0;
    const mint = async (caller: Caller, network = 'sepolia') =>
      (await h.client.mintNft({ network, name: `NFT ${++n}`, description: '', image: `${images.url}/art.jpg`, attributes: [] }, { caller })).job!.nftGuid!;
    const fail = (guids: string[]) => h.service.dataSource.query(`UPDATE chain.nfts SET status = 'failed' WHERE guid = ANY($1::uuid[])`, [guids]);
    const allPages = async (size: number, caller: Caller, req: Partial<ListNftsRequest> = {}, between?: (page: number, last: Nft) => Promise<void>) => {
      const pages: Nft[][] = [];
      let pageToken: string | undefined;
      for (;;) {
        const res = await h.client.listNfts({ ...req, pageSize: size, ...(pageToken ? { pageToken } : {}) }, { caller });
        pages.push(res.nfts);
        if (!res.nextPageToken) break;
        assert.equal(res.nfts.length, size, 'a page before the last is full');
        pageToken = res.nextPageToken;
        await between?.(pages.length, res.nfts.at(-1)!);
      }
      return pages.flat().map((nft) => nft.guid);
    };
    let middle = 0;

    before(async () => {
      images = await startImageServer({ '/art.jpg': { type: 'image/jpeg', body: testJpeg() } });
      h = await startChainHarness({ db, service: { nfts: { image: { allowPrivateHosts: true } } } });
      await h.service.stopWorker();
      for (let i = 0; i < 23; i++) {
        if (i === 12) middle = Date.now();
        await mint(h.alice, i % 4 === 3 ? 'amoy' : 'sepolia');
        if (i % 8 === 0) await mint(h.bob);
      }
    });
    after(async () => {
      await h?.stop();
      await images?.stop();
    });

    it("pages cover the list once, newest first, without the spec's caps; counted; only the caller's NFTs", async () => {
      const whole = await h.client.listNfts({ from: 0 }, { caller: h.alice });
      assert.deepEqual([whole.nfts.length, whole.nextPageToken, whole.totalCount], [23, '', undefined]);
      assert.equal((await h.client.listNfts({}, { caller: h.alice })).nfts.length, 20, 'the spec list keeps its cap');
      const order = whole.nfts.map((nft) => nft.guid);
      for (const size of [1, 4, 23, 1000]) {
        assert.deepEqual(await allPages(size, h.alice), order, `page size ${size}`);
        assert.deepEqual(await allPages(size, h.alice, { from: 0 }), order, `page size ${size}, from 0`);
      }
      assert.equal((await h.client.listNfts({ pageSize: 5 }, { caller: h.alice })).totalCount, 23);
      for (const req of [{ network: 'amoy' }, { network: 'sepolia', to: middle }, { from: middle }]) {
        const expected = (await h.client.listNfts({ from: 0, ...req }, { caller: h.alice })).nfts.map((nft) => nft.guid);
        assert.ok(expected.length > 0 && expected.length < 23, JSON.stringify(req));
        assert.deepEqual(await allPages(3, h.alice, req), expected, JSON.stringify(req));
        assert.equal((await h.client.listNfts({ ...req, pageSize: 1 }, { caller: h.alice })).totalCount, expected.length);
      }
      const bobs = await allPages(2, h.bob);
      assert.equal(bobs.length, 3);
      assert.ok(bobs.every((guid) => !order.includes(guid)), "another account's NFTs never appear");
    });

    it('new mints and failed mints between pages: each NFT listed throughout is seen exactly once, in order', async () => {
      const before = await allPages(100, h.alice);
      let added = '';
      const seen = await allPages(5, h.alice, {}, async (page, last) => {
        if (page !== 1) return;
        // Newer than the page: before the cursor, so not on the pages after it.
        added = await mint(h.alice);
        // The page's last NFT (the token's) and one further on drop out of the list.
        await fail([last.guid, before[8]!]);
      });
      assert.equal(new Set(seen).size, seen.length);
      assert.deepEqual(seen, before.filter((guid) => guid !== before[8]));
      assert.ok(!seen.includes(added));
      assert.equal((await h.client.listNfts({ pageSize: 1 }, { caller: h.alice })).totalCount, before.length - 1);
    });

    it('NFTs created at the same instant are ordered by guid, the same on every page', async () => {
      const before = await allPages(100, h.alice);
      await h.service.dataSource.query(`UPDATE chain.nfts SET created_at = (SELECT created_at FROM chain.nfts WHERE guid = $1) WHERE guid = ANY($2::uuid[])`, [before[3], before.slice(2, 9)]);
      const whole = (await h.client.listNfts({ from: 0 }, { caller: h.alice })).nfts.map((nft) => nft.guid);
      assert.deepEqual(whole.slice(2, 9), [...before.slice(2, 9)].sort().reverse());
      for (const size of [1, 2, 3]) assert.deepEqual(await allPages(size, h.alice), whole, `page size ${size}`);
    });

    it('refuses a malformed or foreign page_token and a page_size out of 1..1000', async () => {
      const [bobs] = (await h.client.listNfts({ pageSize: 1 }, { caller: h.bob })).nfts;
      const unknown = '0b9f6f0c-3f0e-4d7e-9a43-2d0f3b0d5a11';
      for (const pageToken of ['not a token!', token([1, '12']), token([1, unknown]), token([1, bobs!.guid]), token([1, bobs!.guid.toUpperCase()]), token({})]) {
        await rejectsWith(h.client.listNfts({ pageSize: 2, pageToken }, { caller: h.alice }), 'INVALID_ARGUMENT', 'page_token must be a next_page_token of this listing.');
      }
      for (const pageSize of [0, 1001]) {
        await rejectsWith(h.client.listNfts({ pageSize }, { caller: h.alice }), 'INVALID_ARGUMENT', `page_size must be an integer from 1 to 1000, got ${pageSize}.`);
      }
    });
  });
}

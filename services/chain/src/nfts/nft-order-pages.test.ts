import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ListNftsRequest } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { rejectsWith, startChainHarness, type ChainHarness } from '@green-impact/testing/chain/harness';
import { startImageServer, testJpeg } from '@green-impact/testing/chain/nft-fixtures';
import { keysetOf, orderOf } from '@green-impact/shared/paging';
import { keysetPage } from '../keyset-query.js';
import { NftEntity } from './nft-entities.js';
import { NFT_ORDERS } from './nft-store.js';

const token = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const untoken = (text: string): unknown => JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
/** The gateway's page_before for the last items of a list (pagination.ts END_OF_LIST). */
const END = token([Number.MAX_SAFE_INTEGER, '999999999999999']);

/**
 * ListNfts with page_order and page_before (the GraphQL nfts connection's orderBy and last/before): each
 * order both ways, a page at a time, backward from the end and from a token, ties broken by guid, NFTs not
 * minted yet where PostgreSQL puts NULLs; the default order (newest first) keeps its tokens of a guid.
 * PGlite and PostgreSQL. The worker is stopped: the NFTs stay as the test sets them.
 */
for (const db of testDatabases) {
  describe(`NFTs ordered by the service on ${db.name}`, { skip: await skipReason(db), timeout: 120_000 }, () => {
    let h: ChainHarness;
    let images: Awaited<ReturnType<typeof startImageServer>>;
    /** Label (A to D, in the order of minting) → guid, and back. */
    const guids: Record<string, string> = {};
    const labels = new Map<string, string>();
    /** Labels with equal values, in guid order (the tie-break). */
    const tie = (...xs: string[]) => xs.sort((x, y) => (guids[x]! < guids[y]! ? -1 : 1));

    before(async () => {
      images = await startImageServer({ '/art.jpg': { type: 'image/jpeg', body: testJpeg() } });
      h = await startChainHarness({ db, service: { nfts: { image: { allowPrivateHosts: true } } } });
      await h.service.stopWorker();
      // Network, created_at (A and C equal to the microsecond), minted_at and token id (B not minted yet).
      const nfts = [
        ['sepolia', '2026-01-02 10:00:00.123456+00', '2026-03-01 00:00:00+00', '7'],
        ['amoy', '2026-01-01 10:00:00+00', null, null],
        ['sepolia', '2026-01-02 10:00:00.123456+00', '2026-03-01 00:00:00+00', '12'],
        ['amoy', '2026-01-03 10:00:00+00', '2026-02-01 00:00:00+00', '100'],
      ] as const;
      for (const [i, [network, createdAt, mintedAt, tokenId]] of nfts.entries()) {
        const minted = await h.client.mintNft({ network, name: `NFT ${i}`, description: '', image: `${images.url}/art.jpg`, attributes: [] }, { caller: h.alice });
        const guid = minted.job!.nftGuid!;
        guids['ABCD'[i]!] = guid;
        labels.set(guid, 'ABCD'[i]!);
        await h.service.dataSource.query(`UPDATE chain.nfts SET created_at = $2, minted_at = $3, token_id = $4 WHERE guid = $1`, [guid, createdAt, mintedAt, tokenId]);
      }
      await h.client.mintNft({ network: 'sepolia', name: 'Bob', description: '', image: `${images.url}/art.jpg`, attributes: [] }, { caller: h.bob });
    });
    after(async () => {
      await h?.stop();
      await images?.stop();
    });

    const read = async (order: { field: string; descending: boolean } | undefined, pageSize: number, between: Partial<ListNftsRequest> = {}) => {
      const res = await h.client.listNfts({ pageSize, ...(order ? { pageOrder: order } : {}), ...between }, { caller: h.alice });
      return { ...res, labels: res.nfts.map((n) => labels.get(n.guid) ?? `other ${n.guid}`) };
    };
    const walk = async (order: { field: string; descending: boolean } | undefined) => {
      const seen: string[] = [];
      let pageToken: string | undefined;
      do {
        const res = await read(order, 1, pageToken ? { pageToken } : {});
        seen.push(...res.labels);
        if (res.nextPageToken) assert.equal(res.itemPageTokens.at(-1), res.nextPageToken, "next_page_token is the last NFT's token");
        pageToken = res.nextPageToken || undefined;
      } while (pageToken);
      return seen;
    };

    it('page_order orders the pages by a field, then guid, both ways, forward and backward; tokens resume only their order', async () => {
      const expected: Record<string, string[]> = {
        id: tie('A', 'B', 'C', 'D'),
        created_at: ['B', ...tie('A', 'C'), 'D'],
        minted_at: ['D', ...tie('A', 'C'), 'B'],
        // As numbers (7 < 12 < 100), the NFT without a token id last.
        token_id: ['A', 'C', 'D', 'B'],
        network: [...tie('B', 'D'), ...tie('A', 'C')],
      };
      for (const [field, up] of Object.entries(expected)) {
        const down = [...up].reverse();
        assert.deepEqual((await read({ field, descending: false }, 100)).labels, up, `${field} ascending`);
        assert.deepEqual(await walk({ field, descending: false }), up, `${field} ascending, a page at a time`);
        assert.deepEqual(await walk({ field, descending: true }), down, `${field} descending, a page at a time`);
        const last = await read({ field, descending: true }, 3, { pageBefore: END });
        assert.deepEqual([last.labels, last.hasPreviousPage, last.totalCount], [down.slice(1), true, 4], `${field} descending, last 3`);
        const earlier = await read({ field, descending: true }, 5, { pageBefore: last.itemPageTokens[0]! });
        assert.deepEqual([earlier.labels, earlier.hasPreviousPage], [down.slice(0, 1), false], `${field} descending, before the last 3`);
        const resumed = await read({ field, descending: true }, 5, { pageToken: last.itemPageTokens[1]! });
        assert.deepEqual(resumed.labels, down.slice(3), `${field} descending, forward from a backward page's token`);
      }
      const byMinted = await read({ field: 'minted_at', descending: false }, 1);
      const sameOrder = 'must be a next_page_token of this listing in the same order.';
      await rejectsWith(read({ field: 'token_id', descending: false }, 1, { pageToken: byMinted.nextPageToken }), 'INVALID_ARGUMENT', `page_token ${sameOrder}`);
      await rejectsWith(read(undefined, 1, { pageToken: byMinted.nextPageToken }), 'INVALID_ARGUMENT', `page_token ${sameOrder}`);
      await rejectsWith(read({ field: 'minted_at', descending: true }, 1, { pageBefore: byMinted.nextPageToken }), 'INVALID_ARGUMENT', `page_before ${sameOrder}`);
      const [bobs] = (await h.client.listNfts({ pageSize: 1 }, { caller: h.bob })).nfts;
      await rejectsWith(read(undefined, 1, { pageBefore: token([1, bobs!.guid]) }), 'INVALID_ARGUMENT', 'page_before must be a next_page_token of this listing.');
      await rejectsWith(read(undefined, 1, { pageBefore: token([1, '12']) }), 'INVALID_ARGUMENT', 'page_token must be a next_page_token of this listing.');
      await rejectsWith(read(undefined, 1, { pageToken: byMinted.nextPageToken, pageBefore: END }), 'INVALID_ARGUMENT', 'page_token and page_before cannot be given together: a page is read forward or backward.');
      await rejectsWith(
        read({ field: 'status', descending: false }, 1),
        'INVALID_ARGUMENT',
        'page_order.field must be one of id, created_at, minted_at, token_id, network, got "status".',
      );
    });

    it('without page_order: newest first with the guid tokens as before, also backward', async () => {
      const newest = ['D', ...tie('A', 'C').reverse(), 'B'];
      assert.deepEqual(await walk(undefined), newest);
      const first = await read(undefined, 2);
      assert.deepEqual(first.itemPageTokens.map(untoken), [[1, guids[newest[0]!]], [2, guids[newest[1]!]]]);
      // The same order asked for by name gives the same tokens.
      assert.deepEqual((await read({ field: 'created_at', descending: true }, 2)).itemPageTokens, first.itemPageTokens);
      const last = await read(undefined, 2, { pageBefore: END });
      assert.deepEqual([last.labels, last.hasPreviousPage, last.itemPageTokens.map(untoken)], [newest.slice(2), true, [[3, guids[newest[2]!]], [4, guids[newest[3]!]]]]);
      const between = await read(undefined, 10, { pageBefore: last.itemPageTokens[0]! });
      assert.deepEqual([between.labels, between.hasPreviousPage], [newest.slice(0, 2), false]);
      assert.deepEqual((await read(undefined, 10, { pageToken: first.itemPageTokens[0]! })).labels, newest.slice(1));
    });

    it("a page token's value is read back from the caller's own NFTs only: another account's item tells nothing (issue 46)", async () => {
      // Bob's NFT is older than all of Alice's: a keyset after Alice's A (newest first) would reach it
      // if A's creation time were read back from any account's row.
      const [bobs] = (await h.client.listNfts({ pageSize: 1 }, { caller: h.bob })).nfts;
      await h.service.dataSource.query(`UPDATE chain.nfts SET created_at = '2025-06-01 00:00:00+00' WHERE guid = $1`, [bobs!.guid]);
      const bobsListing = () => h.service.dataSource.getRepository(NftEntity).createQueryBuilder('n').where('n.account_id = :account', { account: h.bob.accountId });
      const order = orderOf(NFT_ORDERS, undefined);
      const alicesToken = { offset: 1, id: guids['A']! };
      assert.deepEqual(await keysetPage(bobsListing(), order, alicesToken, 10, false, h.bob.accountId), []);
      assert.deepEqual(await keysetPage(bobsListing(), order, alicesToken, 10, true, h.bob.accountId), []);
      // Bob's own token still pages Bob's list.
      assert.deepEqual((await keysetPage(bobsListing(), order, undefined, 10, false, h.bob.accountId)).map((r) => r.guid), [bobs!.guid]);
      assert.throws(() => keysetOf(order, alicesToken, 1), /needs the caller/, 'an unscoped read-back is a programming error');
    });
  });
}

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import type { Asset, GetAssetsRequest } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import type { Caller } from '@green-impact/shared/caller';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { FRAMEWORK, loadFixture } from '@green-impact/testing/portfolio/fixture';
import { rejectsWith, startPortfolioHarness, type PortfolioHarness } from '@green-impact/testing/portfolio/harness';

const token = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** GetAssets with page_size / page_token: keyset pages in id order, counted, only the assets the caller may see. */
for (const db of testDatabases) {
  describe(`assets paged by the service on ${db.name}`, { skip: await skipReason(db) }, () => {
    let h: PortfolioHarness;
    const addAsset = (caller: Caller, assetIdentifier: string, visibility: Visibility, issuerIdentifier = 'ISSUER-A') =>
      h.portfolio.addAsset(
        { assetIdentifier, assetName: `Bond ${assetIdentifier}`, issuerIdentifier, frameworkIdentifier: FRAMEWORK, assetCurrencyCode: 'EUR', assetVisibility: visibility },
        { caller },
      );
    const allPages = async (size: number, caller: Caller, filter: Partial<GetAssetsRequest> = {}, between?: (page: number) => Promise<void>) => {
      const pages: Asset[][] = [];
      let pageToken: string | undefined;
      for (;;) {
        const res = await h.portfolio.getAssets({ ...filter, pageSize: size, ...(pageToken ? { pageToken } : {}) }, { caller });
        pages.push(res.assets);
        if (!res.nextPageToken) break;
        assert.equal(res.assets.length, size, 'a page before the last is full');
        pageToken = res.nextPageToken;
        await between?.(pages.length);
      }
      return pages;
    };
    const identifiers = (assets: Asset[]) => assets.map((a) => a.assetIdentifier);

    before(async () => {
      h = await startPortfolioHarness(db);
      await loadFixture(h.taxonomy, h.issuer);
      // Interleaved, so the caller's visible ids are not one run of the table.
      for (let n = 1; n <= 5; n++) {
        await addAsset(h.issuer, `PUB-${n}`, Visibility.VISIBILITY_PUBLIC, n % 2 ? 'ISSUER-A' : 'ISSUER-B');
        if (n <= 2) await addAsset(h.issuer, `HIDDEN-${n}`, Visibility.VISIBILITY_PRIVATE);
        if (n <= 4) await addAsset(h.investor, `MINE-${n}`, Visibility.VISIBILITY_PRIVATE, n % 2 ? 'ISSUER-A' : 'ISSUER-B');
        if (n <= 2) await addAsset(h.stranger, `THEIRS-${n}`, Visibility.VISIBILITY_PRIVATE);
      }
    });
    after(async () => {
      await h?.stop();
    });

    it('pages cover the visible assets exactly once, in id order, with their count; filters apply; absent page_size is the whole list', async () => {
      const whole = await h.portfolio.getAssets({}, { caller: h.investor });
      assert.deepEqual([whole.assets.length, whole.nextPageToken, whole.totalCount], [9, '', undefined]);
      assert.ok(identifiers(whole.assets).every((i) => i.startsWith('PUB-') || i.startsWith('MINE-')), 'only own and public assets');
      for (const size of [1, 4, 9, 1000]) assert.deepEqual((await allPages(size, h.investor)).flat(), whole.assets, `page size ${size}`);
      assert.equal((await h.portfolio.getAssets({ pageSize: 2 }, { caller: h.investor })).totalCount, 9);
      for (const filter of [{ issuerIdentifier: 'ISSUER-B' }, { issuerVisibility: Visibility.VISIBILITY_PRIVATE }, { frameworkIdentifier: FRAMEWORK }]) {
        const filtered = (await h.portfolio.getAssets(filter, { caller: h.investor })).assets;
        assert.deepEqual((await allPages(2, h.investor, filter)).flat(), filtered, JSON.stringify(filter));
        assert.equal((await h.portfolio.getAssets({ ...filter, pageSize: 1 }, { caller: h.investor })).totalCount, filtered.length);
      }
      const theirs = identifiers((await allPages(3, h.stranger)).flat());
      assert.deepEqual(theirs.sort(), ['PUB-1', 'PUB-2', 'PUB-3', 'PUB-4', 'PUB-5', 'THEIRS-1', 'THEIRS-2']);
    });

    it('inserts and removals between pages: each asset present throughout is seen exactly once, in order', async () => {
      const before = (await allPages(100, h.investor)).flat();
      const pages = await allPages(3, h.investor, {}, async (page) => {
        if (page === 1) {
          // MINE-1 is on the first page, already read; MINE-4 is on a later one.
          for (const assetIdentifier of ['MINE-1', 'MINE-4']) await h.portfolio.removeAsset({ assetIdentifier }, { caller: h.investor });
          await addAsset(h.investor, 'MINE-LATE', Visibility.VISIBILITY_PRIVATE);
        }
      });
      const seen = pages.flat();
      const ids = seen.map((a) => a.assetId);
      assert.equal(new Set(ids).size, ids.length);
      assert.deepEqual([...ids].sort((a, b) => a - b), ids);
      const kept = before.filter((a) => a.assetIdentifier !== 'MINE-4');
      assert.deepEqual(identifiers(seen.filter((a) => before.some((b) => b.assetId === a.assetId))), identifiers(kept));
      assert.ok(!identifiers(seen).includes('MINE-4'));
      assert.ok(identifiers(seen).includes('MINE-LATE'));
    });

    it('page_before pages backward: the same assets as forward, reversed, with has_previous_page; not with page_token', async () => {
      const whole = (await h.portfolio.getAssets({}, { caller: h.investor })).assets;
      const end = token([Number.MAX_SAFE_INTEGER, '999999999999999']);
      const backward: Asset[] = [];
      let pageBefore = end;
      for (;;) {
        const res = await h.portfolio.getAssets({ pageSize: 2, pageBefore }, { caller: h.investor });
        assert.equal(res.totalCount, whole.length);
        backward.unshift(...res.assets);
        if (!res.hasPreviousPage) break;
        pageBefore = token([1, String(res.assets[0]!.assetId)]);
      }
      assert.deepEqual(backward, whole);
      // A next_page_token ends a backward page too, and the backward page's token resumes forward.
      const first = await h.portfolio.getAssets({ pageSize: 4 }, { caller: h.investor });
      const back = await h.portfolio.getAssets({ pageSize: 10, pageBefore: first.nextPageToken }, { caller: h.investor });
      assert.deepEqual([back.assets, back.hasPreviousPage], [first.assets.slice(0, 3), false]);
      const resumed = await h.portfolio.getAssets({ pageSize: 100, pageToken: back.nextPageToken }, { caller: h.investor });
      assert.deepEqual(resumed.assets, whole.slice(3));
      await rejectsWith(
        h.portfolio.getAssets({ pageSize: 2, pageToken: first.nextPageToken, pageBefore: end }, { caller: h.investor }),
        'INVALID_ARGUMENT',
        'page_token and page_before cannot be given together: a page is read forward or backward.',
      );
    });

    it('page_order orders the pages by a field, then id, both ways, forward and backward; tokens resume only their order', async () => {
      // Ties (two names), missing maturities and values: each sorts where PostgreSQL puts NULLs.
      const ordered = [
        { assetIdentifier: 'ORD-C', assetName: 'Beta', dateMaturity: '2031-01-01', assetValueOutstanding: 300 },
        { assetIdentifier: 'ORD-A', assetName: 'Alpha', dateMaturity: undefined, assetValueOutstanding: 100.5 },
        { assetIdentifier: 'ORD-B', assetName: 'Beta', dateMaturity: '2030-06-30', assetValueOutstanding: undefined },
        { assetIdentifier: 'ORD-D', assetName: 'Alpha', dateMaturity: '2030-06-30', assetValueOutstanding: 7 },
      ];
      for (const a of ordered) {
        await h.portfolio.addAsset(
          { ...a, issuerIdentifier: 'ISSUER-O', frameworkIdentifier: FRAMEWORK, assetCurrencyCode: 'EUR', assetVisibility: Visibility.VISIBILITY_PRIVATE },
          { caller: h.stranger },
        );
      }
      const filter = { issuerIdentifier: 'ISSUER-O' };
      const read = async (field: string, descending: boolean, size: number, between: { pageToken?: string; pageBefore?: string } = {}) =>
        h.portfolio.getAssets({ ...filter, pageSize: size, pageOrder: { field, descending }, ...between }, { caller: h.stranger });
      const walk = async (field: string, descending: boolean) => {
        const seen: string[] = [];
        let pageToken: string | undefined;
        do {
          const res = await read(field, descending, 1, pageToken ? { pageToken } : {});
          seen.push(...identifiers(res.assets));
          if (res.nextPageToken) assert.equal(res.itemPageTokens.at(-1), res.nextPageToken, "next_page_token is the last item's token");
          pageToken = res.nextPageToken;
        } while (pageToken);
        return seen;
      };
      const expected: Record<string, string[]> = {
        id: ['ORD-C', 'ORD-A', 'ORD-B', 'ORD-D'],
        identifier: ['ORD-A', 'ORD-B', 'ORD-C', 'ORD-D'],
        name: ['ORD-A', 'ORD-D', 'ORD-C', 'ORD-B'],
        date_maturity: ['ORD-B', 'ORD-D', 'ORD-C', 'ORD-A'],
        value_outstanding: ['ORD-D', 'ORD-A', 'ORD-C', 'ORD-B'],
      };
      for (const [field, up] of Object.entries(expected)) {
        assert.deepEqual(identifiers((await read(field, false, 100)).assets), up, `${field} ascending`);
        assert.deepEqual(await walk(field, false), up, `${field} ascending, a page at a time`);
        // Descending reverses the whole order, the id tie-break too.
        assert.deepEqual(await walk(field, true), [...up].reverse(), `${field} descending, a page at a time`);
        // Backward from the end, and from an item's token, in the same order.
        const end = token([Number.MAX_SAFE_INTEGER, '999999999999999']);
        const last = await read(field, true, 3, { pageBefore: end });
        assert.deepEqual([identifiers(last.assets), last.hasPreviousPage], [[...up].reverse().slice(1), true], `${field} descending, last 3`);
        const before = await read(field, true, 5, { pageBefore: last.itemPageTokens[0]! });
        assert.deepEqual([identifiers(before.assets), before.hasPreviousPage], [[up.at(-1)], false]);
        // An item's token from a backward page resumes forward after it.
        const resumed = await read(field, true, 5, { pageToken: last.itemPageTokens[1]! });
        assert.deepEqual(identifiers(resumed.assets), [...up].reverse().slice(3));
      }
      const byName = await read('name', false, 1);
      await rejectsWith(read('identifier', false, 1, { pageToken: byName.nextPageToken }), 'INVALID_ARGUMENT', 'page_token must be a next_page_token of this listing in the same order.');
      await rejectsWith(read('name', true, 1, { pageToken: byName.nextPageToken }), 'INVALID_ARGUMENT', 'page_token must be a next_page_token of this listing in the same order.');
      await rejectsWith(read('id', false, 1, { pageBefore: byName.nextPageToken }), 'INVALID_ARGUMENT', 'page_before must be a next_page_token of this listing in the same order.');
      await rejectsWith(
        read('currency_code', false, 1),
        'INVALID_ARGUMENT',
        'page_order.field must be one of id, identifier, name, issuer_identifier, date_maturity, value_outstanding, got "currency_code".',
      );
    });

    it('refuses a malformed or foreign page_token and a page_size out of 1..1000', async () => {
      for (const pageToken of ['not a token!', token([1, 'a3f1c2d4-guid']), token([1, 0]), token({})]) {
        await rejectsWith(h.portfolio.getAssets({ pageSize: 2, pageToken }, { caller: h.investor }), 'INVALID_ARGUMENT', 'page_token must be a next_page_token of this listing.');
      }
      for (const pageSize of [0, 1001]) {
        await rejectsWith(h.portfolio.getAssets({ pageSize }, { caller: h.investor }), 'INVALID_ARGUMENT', `page_size must be an integer from 1 to 1000, got ${pageSize}.`);
      }
    });
  });
}

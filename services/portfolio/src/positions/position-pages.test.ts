import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import type { GetPositionsRequest, Position } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import type { Caller } from '@green-impact/shared/caller';
import { generateEncryptionKey, MASKED, WRONG_KEY_MESSAGE } from '@green-impact/shared/pii';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { FRAMEWORK, loadFixture } from '@green-impact/testing/portfolio/fixture';
import { rejectsWith, startPortfolioHarness, type PortfolioHarness } from '@green-impact/testing/portfolio/harness';

const token = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** GetPositions with page_size / page_token: keyset pages in id order, counted, filtered as the whole list. */
for (const db of testDatabases) {
  describe(`positions paged by the service on ${db.name}`, { skip: await skipReason(db) }, () => {
    let h: PortfolioHarness;
    const key = generateEncryptionKey();
    const base: GetPositionsRequest = { investorIdentifier: '', investorIdentifiersAllowed: [], investorFilterActive: false };
    const add = async (caller: Caller, investorIdentifier: string, assetIdentifier: string, amount: number) =>
      (await h.portfolio.addPosition({ investorIdentifier, assetIdentifier, positionAmount: amount, positionCurrencyCode: 'EUR' }, { caller })).id!;
    /** Every page of the listing, following next_page_token; checks each page's count and size. */
    const allPages = async (req: Partial<GetPositionsRequest>, size: number, caller: Caller, between?: (page: number) => Promise<void>) => {
      const pages: Position[][] = [];
      let pageToken: string | undefined;
      for (;;) {
        const res = await h.portfolio.getPositions({ ...base, ...req, pageSize: size, ...(pageToken ? { pageToken } : {}) }, { caller });
        assert.ok(res.positions.length <= size);
        assert.equal(typeof res.totalCount, 'number');
        pages.push(res.positions);
        if (!res.nextPageToken) break;
        assert.equal(res.positions.length, size, 'a page before the last is full');
        pageToken = res.nextPageToken;
        await between?.(pages.length);
      }
      return pages;
    };
    const idsOf = (pages: Position[][]) => pages.flat().map((p) => p.positionId);

    before(async () => {
      h = await startPortfolioHarness(db);
      await loadFixture(h.taxonomy, h.issuer);
      for (const [assetIdentifier, issuerIdentifier] of [['PUB-1', 'ISSUER-A'], ['PUB-2', 'ISSUER-B']]) {
        await h.portfolio.addAsset(
          { assetIdentifier: assetIdentifier!, assetName: `${assetIdentifier} bond`, issuerIdentifier: issuerIdentifier!, frameworkIdentifier: FRAMEWORK, assetCurrencyCode: 'SEK', assetValueOutstanding: 10_000_000, assetVisibility: Visibility.VISIBILITY_PUBLIC },
          { caller: h.issuer },
        );
      }
      await h.portfolio.addInvestor({ investorIdentifier: 'inv-1', investorName: 'First Fund', investorCurrencyCode: 'EUR' }, { caller: h.investor });
      await h.portfolio.addInvestor({ investorIdentifier: 'inv-2', investorName: 'Second Fund', investorCurrencyCode: 'EUR', encryptionKey: key }, { caller: h.investor });
      await h.portfolio.addInvestor({ investorIdentifier: 'inv-1', investorName: 'Stranger Fund', investorCurrencyCode: 'EUR' }, { caller: h.stranger });
      // Interleaved with another account's positions, so the ids of one account are not contiguous.
      for (let n = 1; n <= 12; n++) {
        await add(h.investor, n % 3 === 0 ? 'inv-2' : 'inv-1', n % 2 === 0 ? 'PUB-2' : 'PUB-1', n);
        if (n % 4 === 0) await add(h.stranger, 'inv-1', 'PUB-1', 1_000 + n);
      }
    });
    after(async () => {
      await h?.stop();
    });

    it('pages cover the whole list exactly once, in id order, with its count; absent page_size is the whole list', async () => {
      const whole = await h.portfolio.getPositions(base, { caller: h.investor });
      assert.equal(whole.positions.length, 12);
      assert.equal(whole.nextPageToken, '');
      assert.equal(whole.totalCount, undefined, 'the whole list (/v1/call) carries no page fields');
      for (const size of [1, 5, 12, 1000]) {
        const pages = await allPages({}, size, h.investor);
        assert.deepEqual(pages.flat(), whole.positions, `page size ${size}`);
        assert.equal(pages.length, Math.ceil(12 / size));
      }
      const first = await h.portfolio.getPositions({ ...base, pageSize: 5 }, { caller: h.investor });
      assert.equal(first.totalCount, 12);
      const ids = whole.positions.map((p) => p.positionId);
      assert.deepEqual([...ids].sort((a, b) => a - b), ids, 'id order');
    });

    it('applies the filters of the whole list to pages and count: investor, asset, issuer, allowed investors', async () => {
      const cases: Partial<GetPositionsRequest>[] = [
        { investorIdentifier: 'inv-1' },
        { assetIdentifier: 'PUB-2' },
        { issuerIdentifier: 'ISSUER-A' },
        { investorFilterActive: true, investorIdentifiersAllowed: ['inv-2'] },
        { investorFilterActive: true, investorIdentifiersAllowed: [] },
        { investorIdentifier: 'inv-1', investorFilterActive: true, investorIdentifiersAllowed: ['inv-2'] },
      ];
      for (const req of cases) {
        const whole = await h.portfolio.getPositions({ ...base, ...req }, { caller: h.investor });
        const pages = await allPages(req, 2, h.investor);
        assert.deepEqual(pages.flat(), whole.positions, JSON.stringify(req));
        const first = await h.portfolio.getPositions({ ...base, ...req, pageSize: 2 }, { caller: h.investor });
        assert.equal(first.totalCount, whole.positions.length, JSON.stringify(req));
      }
      await rejectsWith(h.portfolio.getPositions({ ...base, investorIdentifier: 'nobody', pageSize: 2 }, { caller: h.investor }), 'NOT_FOUND', 'No such investor.');
    });

    it("never shows another account's positions, whatever the token", async () => {
      const mine = new Set(idsOf(await allPages({}, 3, h.investor)));
      const theirs = idsOf(await allPages({}, 2, h.stranger));
      assert.equal(theirs.length, 3);
      assert.ok(theirs.every((id) => !mine.has(id)));
      // A token cut from the stranger's list resumes after that id in my list, with my rows only.
      const after = await h.portfolio.getPositions({ ...base, pageSize: 100, pageToken: token([1, String(theirs[0])]) }, { caller: h.investor });
      assert.ok(after.positions.every((p) => mine.has(p.positionId) && p.positionId > theirs[0]!));
      assert.equal(after.totalCount, 12);
    });

    it('inserts and removals between pages: each position present throughout is seen exactly once, in order', async () => {
      const before = idsOf(await allPages({}, 100, h.investor));
      const added: number[] = [];
      const removed: number[] = [];
      const pages = await allPages({}, 4, h.investor, async (page) => {
        if (page === 1) {
          // Remove the last of the page just read and one further on; add one (it comes after every page).
          const seen = idsOf(await allPages({}, 100, h.investor));
          for (const id of [seen[3]!, seen[8]!]) {
            await h.portfolio.removePosition({ investorIdentifier: 'inv-1', positionId: id }, { caller: h.investor }).catch(() =>
              h.portfolio.removePosition({ investorIdentifier: 'inv-2', positionId: id }, { caller: h.investor }),
            );
            removed.push(id);
          }
          added.push(await add(h.investor, 'inv-1', 'PUB-1', 99));
        }
      });
      const seen = idsOf(pages);
      assert.equal(new Set(seen).size, seen.length, 'no position twice');
      assert.deepEqual([...seen].sort((a, b) => a - b), seen, 'in order');
      for (const id of before.filter((id) => !removed.includes(id))) assert.ok(seen.includes(id), `kept position ${id} seen`);
      assert.ok(!seen.includes(removed[1]!), 'a position removed before its page is not shown');
      assert.ok(seen.includes(added[0]!), 'a position added after the cursor is shown');
    });

    it('refuses a malformed or foreign page_token and a page_size out of 1..1000 (INVALID_ARGUMENT)', async () => {
      const tokenMessage = 'page_token must be a next_page_token of this listing.';
      for (const pageToken of ['not a token!', 'abc', token({ id: 1 }), token([1, 'guid-of-an-nft']), token([-1, '1']), token([1, '0']), token([1, 1])]) {
        await rejectsWith(h.portfolio.getPositions({ ...base, pageSize: 2, pageToken }, { caller: h.investor }), 'INVALID_ARGUMENT', tokenMessage);
      }
      for (const pageSize of [0, -1, 1001]) {
        await rejectsWith(h.portfolio.getPositions({ ...base, pageSize }, { caller: h.investor }), 'INVALID_ARGUMENT',
          `page_size must be an integer from 1 to 1000, got ${pageSize}.`);
      }
      // An empty token is the first page.
      const first = await h.portfolio.getPositions({ ...base, pageSize: 2, pageToken: '' }, { caller: h.investor });
      assert.equal(first.positions.length, 2);
    });

    it('checks the decryption key against the whole listing, not the page', async () => {
      // The first page holds only inv-1 (stored in clear); the key fits inv-2, further on.
      const first = await h.portfolio.getPositions({ ...base, investorIdentifier: 'inv-1', pageSize: 1, decryptionKey: key }, { caller: h.investor });
      assert.equal(first.positions[0]!.investorName, 'First Fund');
      const two = await allPages({ investorIdentifier: 'inv-2', decryptionKey: key }, 1, h.investor);
      assert.ok(two.flat().every((p) => p.investorName === 'Second Fund' && !p.masked));
      const masked = await h.portfolio.getPositions({ ...base, investorIdentifier: 'inv-2', pageSize: 1 }, { caller: h.investor });
      assert.equal(masked.positions[0]!.investorName, MASKED);
      await rejectsWith(h.portfolio.getPositions({ ...base, pageSize: 1, decryptionKey: generateEncryptionKey() }, { caller: h.investor }), 'INVALID_ARGUMENT', WRONG_KEY_MESSAGE);
    });

    it('answers a first page that holds the whole listing without a count query, with the same count and key check', async () => {
      const whole = await allPages({}, 1000, h.investor);
      assert.equal(whole.length, 1, 'one page');
      const one = await h.portfolio.getPositions({ ...base, pageSize: 1000 }, { caller: h.investor });
      const counted = await h.portfolio.getPositions({ ...base, pageSize: 1 }, { caller: h.investor });
      assert.deepEqual([one.totalCount, one.nextPageToken], [counted.totalCount, '']);
      assert.equal(one.positions.length, counted.totalCount);
      // The key is judged on the rows of that page, which are the whole listing.
      await rejectsWith(h.portfolio.getPositions({ ...base, pageSize: 1000, decryptionKey: generateEncryptionKey() }, { caller: h.investor }), 'INVALID_ARGUMENT', WRONG_KEY_MESSAGE);
      const opened = await h.portfolio.getPositions({ ...base, pageSize: 1000, decryptionKey: key }, { caller: h.investor });
      assert.ok(opened.positions.some((p) => p.investorName === 'Second Fund' && !p.masked));
    });
  });
}

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Investor } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import type { Caller } from '@green-impact/shared/caller';
import { generateEncryptionKey, MASKED, WRONG_KEY_MESSAGE } from '@green-impact/shared/pii';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { rejectsWith, startPortfolioHarness, type PortfolioHarness } from '@green-impact/testing/portfolio/harness';

const token = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** GetInvestors with page_size / page_token: keyset pages in id order, counted, only the caller's account. */
for (const db of testDatabases) {
  describe(`investors paged by the service on ${db.name}`, { skip: await skipReason(db) }, () => {
    let h: PortfolioHarness;
    const key = generateEncryptionKey();
    const addInvestor = (caller: Caller, investorIdentifier: string, encryptionKey?: string) =>
      h.portfolio.addInvestor({ investorIdentifier, investorName: `Fund ${investorIdentifier}`, investorCurrencyCode: 'EUR', ...(encryptionKey ? { encryptionKey } : {}) }, { caller });
    const allPages = async (size: number, caller: Caller, decryptionKey?: string, between?: (page: number) => Promise<void>) => {
      const pages: Investor[][] = [];
      let pageToken: string | undefined;
      for (;;) {
        const res = await h.portfolio.getInvestors({ pageSize: size, ...(pageToken ? { pageToken } : {}), ...(decryptionKey ? { decryptionKey } : {}) }, { caller });
        pages.push(res.investors);
        if (!res.nextPageToken) break;
        assert.equal(res.investors.length, size, 'a page before the last is full');
        pageToken = res.nextPageToken;
        await between?.(pages.length);
      }
      return pages;
    };
    const idsOf = (pages: Investor[][]) => pages.flat().map((i) => i.investorId);

    before(async () => {
      h = await startPortfolioHarness(db);
      for (let n = 1; n <= 9; n++) {
        await addInvestor(h.investor, `inv-${n}`, n === 7 ? key : undefined);
        if (n % 3 === 0) await addInvestor(h.stranger, `other-${n}`);
      }
    });
    after(async () => {
      await h?.stop();
    });

    it('pages cover the account exactly once, in id order, with its count; absent page_size is the whole list', async () => {
      const whole = await h.portfolio.getInvestors({}, { caller: h.investor });
      assert.deepEqual([whole.investors.length, whole.nextPageToken, whole.totalCount], [9, '', undefined]);
      for (const size of [1, 4, 9, 1000]) {
        const pages = await allPages(size, h.investor);
        assert.deepEqual(pages.flat(), whole.investors, `page size ${size}`);
      }
      const first = await h.portfolio.getInvestors({ pageSize: 4 }, { caller: h.investor });
      assert.equal(first.totalCount, 9);
      const theirs = idsOf(await allPages(2, h.stranger));
      assert.equal(theirs.length, 3);
      assert.ok(theirs.every((id) => !idsOf([whole.investors]).includes(id)), "another account's investors never appear");
    });

    it('inserts and removals between pages: each investor present throughout is seen exactly once, in order', async () => {
      const before = idsOf(await allPages(100, h.investor));
      const removedIdentifiers = ['inv-2', 'inv-8'];
      const pages = await allPages(3, h.investor, undefined, async (page) => {
        if (page === 1) {
          await addInvestor(h.investor, 'inv-late');
          for (const investorIdentifier of removedIdentifiers) await h.portfolio.removeInvestor({ investorIdentifier }, { caller: h.investor });
        }
      });
      const seen = pages.flat();
      const ids = seen.map((i) => i.investorId);
      assert.equal(new Set(ids).size, ids.length);
      assert.deepEqual([...ids].sort((a, b) => a - b), ids);
      const kept = before.length - 1; // inv-8 is removed before its page; inv-2 was on the first page, already read.
      assert.equal(ids.filter((id) => before.includes(id)).length, kept);
      assert.ok(!seen.some((i) => i.investorIdentifier === 'inv-8'));
      assert.ok(seen.some((i) => i.investorIdentifier === 'inv-late'));
    });

    it('page_before pages backward: the same investors as forward, reversed, keys opened; a wrong key is refused there too', async () => {
      const whole = (await allPages(1000, h.investor, key)).flat();
      const backward: Investor[] = [];
      let pageBefore = token([Number.MAX_SAFE_INTEGER, '999999999999999']);
      for (;;) {
        const res = await h.portfolio.getInvestors({ pageSize: 2, pageBefore, decryptionKey: key }, { caller: h.investor });
        assert.equal(res.totalCount, whole.length);
        backward.unshift(...res.investors);
        if (!res.hasPreviousPage) break;
        pageBefore = token([1, String(res.investors[0]!.investorId)]);
      }
      assert.deepEqual(backward, whole);
      await rejectsWith(
        h.portfolio.getInvestors({ pageSize: 2, pageBefore, decryptionKey: generateEncryptionKey() }, { caller: h.investor }),
        'INVALID_ARGUMENT',
        WRONG_KEY_MESSAGE,
      );
    });

    it('refuses a malformed or foreign page_token and a page_size out of 1..1000; checks the key against the whole account', async () => {
      for (const pageToken of ['not a token!', token([1, 'guid']), token([1, 0]), token({})]) {
        await rejectsWith(h.portfolio.getInvestors({ pageSize: 2, pageToken }, { caller: h.investor }), 'INVALID_ARGUMENT', 'page_token must be a next_page_token of this listing.');
      }
      for (const pageSize of [0, 1001]) {
        await rejectsWith(h.portfolio.getInvestors({ pageSize }, { caller: h.investor }), 'INVALID_ARGUMENT', `page_size must be an integer from 1 to 1000, got ${pageSize}.`);
      }
      // The key fits inv-7, not on the first page: still accepted; a wrong key is refused on any page.
      const first = await h.portfolio.getInvestors({ pageSize: 1, decryptionKey: key }, { caller: h.investor });
      assert.equal(first.investors.length, 1);
      const opened = (await allPages(2, h.investor, key)).flat().find((i) => i.investorIdentifier === 'inv-7')!;
      assert.deepEqual([opened.investorName, opened.masked], ['Fund inv-7', false]);
      const masked = (await allPages(2, h.investor)).flat().find((i) => i.investorIdentifier === 'inv-7')!;
      assert.equal(masked.investorName, MASKED);
      await rejectsWith(h.portfolio.getInvestors({ pageSize: 1, decryptionKey: generateEncryptionKey() }, { caller: h.investor }), 'INVALID_ARGUMENT', WRONG_KEY_MESSAGE);
      // A first page holding every investor is counted and key-checked on its own rows.
      const whole = await h.portfolio.getInvestors({ pageSize: 1000 }, { caller: h.investor });
      assert.deepEqual([whole.totalCount, whole.nextPageToken], [first.totalCount, '']);
      assert.equal(whole.investors.length, whole.totalCount);
      await rejectsWith(h.portfolio.getInvestors({ pageSize: 1000, decryptionKey: generateEncryptionKey() }, { caller: h.investor }), 'INVALID_ARGUMENT', WRONG_KEY_MESSAGE);
    });
  });
}

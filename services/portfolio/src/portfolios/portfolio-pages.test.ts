import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import type { GetPortfoliosRequest, Portfolio } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import type { Caller } from '@green-impact/shared/caller';
import { generateEncryptionKey, MASKED, WRONG_KEY_MESSAGE } from '@green-impact/shared/pii';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { FRAMEWORK, loadFixture } from '@green-impact/testing/portfolio/fixture';
import { rejectsWith, startPortfolioHarness, type PortfolioHarness } from '@green-impact/testing/portfolio/harness';

const token = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** GetPortfolios with page_size / page_token: keyset pages in id order, counted, with the whole list's filters. */
for (const db of testDatabases) {
  describe(`portfolios paged by the service on ${db.name}`, { skip: await skipReason(db) }, () => {
    let h: PortfolioHarness;
    const key = generateEncryptionKey();
    const addPortfolio = (caller: Caller, investorIdentifier: string, portfolioIdentifier: string) => h.portfolio.addPortfolio({ investorIdentifier, portfolioIdentifier }, { caller });
    const allPages = async (size: number, caller: Caller, req: Partial<GetPortfoliosRequest> = {}, between?: (page: number) => Promise<void>) => {
      const pages: Portfolio[][] = [];
      let pageToken: string | undefined;
      for (;;) {
        const res = await h.portfolio.getPortfolios({ investorIdentifier: '', investorIdentifiersAllowed: [], investorFilterActive: false, ...req, pageSize: size, ...(pageToken ? { pageToken } : {}) }, { caller });
        pages.push(res.portfolios);
        if (!res.nextPageToken) break;
        assert.equal(res.portfolios.length, size, 'a page before the last is full');
        pageToken = res.nextPageToken;
        await between?.(pages.length);
      }
      return pages;
    };
    const whole = async (caller: Caller, req: Partial<GetPortfoliosRequest> = {}) =>
      h.portfolio.getPortfolios({ investorIdentifier: '', investorIdentifiersAllowed: [], investorFilterActive: false, ...req }, { caller });
    const names = (list: Portfolio[]) => list.map((p) => p.portfolioIdentifier);

    before(async () => {
      h = await startPortfolioHarness(db);
      await loadFixture(h.taxonomy, h.issuer);
      await h.portfolio.addAsset(
        { assetIdentifier: 'GB-1', assetName: 'Green Bond', issuerIdentifier: 'ISSUER-A', frameworkIdentifier: FRAMEWORK, assetCurrencyCode: 'EUR', assetVisibility: Visibility.VISIBILITY_PUBLIC },
        { caller: h.issuer },
      );
      for (const [caller, investorIdentifier, encryptionKey] of [[h.investor, 'inv-a', undefined], [h.investor, 'inv-b', key], [h.stranger, 'other', undefined]] as const) {
        await h.portfolio.addInvestor({ investorIdentifier, investorName: `Fund ${investorIdentifier}`, investorCurrencyCode: 'EUR', ...(encryptionKey ? { encryptionKey } : {}) }, { caller });
      }
      // Interleaved: inv-a's and inv-b's portfolios alternate, the stranger's sit between them.
      for (let n = 1; n <= 4; n++) {
        await addPortfolio(h.investor, 'inv-a', `a-${n}`);
        await addPortfolio(h.investor, 'inv-b', `b-${n}`);
        if (n % 2 === 0) await addPortfolio(h.stranger, 'other', `o-${n}`);
      }
      const { id } = await h.portfolio.addPosition({ investorIdentifier: 'inv-a', assetIdentifier: 'GB-1', positionAmount: 1_000, positionCurrencyCode: 'EUR' }, { caller: h.investor });
      for (const portfolioIdentifier of ['a-2', 'a-4']) await h.portfolio.addPositionToPortfolio({ investorIdentifier: 'inv-a', portfolioIdentifier, positionId: id! }, { caller: h.investor });
    });
    after(async () => {
      await h?.stop();
    });

    it('pages cover the listing exactly once, in id order, with its count; filters apply; absent page_size is the whole list', async () => {
      const all = await whole(h.investor);
      assert.deepEqual([all.portfolios.length, all.nextPageToken, all.totalCount], [8, '', undefined]);
      for (const size of [1, 3, 8, 1000]) assert.deepEqual((await allPages(size, h.investor)).flat(), all.portfolios, `page size ${size}`);
      assert.equal((await h.portfolio.getPortfolios({ investorIdentifier: '', investorIdentifiersAllowed: [], investorFilterActive: false, pageSize: 2 }, { caller: h.investor })).totalCount, 8);
      const filters: Partial<GetPortfoliosRequest>[] = [
        { investorIdentifier: 'inv-b' },
        { assetIdentifier: 'GB-1' },
        { investorFilterActive: true, investorIdentifiersAllowed: ['inv-a'] },
        { investorFilterActive: true, investorIdentifiersAllowed: [] },
      ];
      for (const filter of filters) {
        const filtered = (await whole(h.investor, filter)).portfolios;
        assert.deepEqual((await allPages(2, h.investor, filter)).flat(), filtered, JSON.stringify(filter));
      }
      assert.deepEqual(names((await allPages(3, h.investor, { assetIdentifier: 'GB-1' })).flat()), ['a-2', 'a-4']);
      assert.deepEqual(names((await allPages(1, h.stranger)).flat()), ['o-2', 'o-4'], "another account's portfolios never appear");
    });

    it('inserts and removals between pages: each portfolio present throughout is seen exactly once, in order', async () => {
      const before = (await allPages(100, h.investor)).flat();
      const pages = await allPages(3, h.investor, {}, async (page) => {
        if (page === 1) {
          // a-1 is on the first page, already read; b-3 is on a later one.
          await h.portfolio.removePortfolio({ investorIdentifier: 'inv-a', portfolioIdentifier: 'a-1' }, { caller: h.investor });
          await h.portfolio.removePortfolio({ investorIdentifier: 'inv-b', portfolioIdentifier: 'b-3' }, { caller: h.investor });
          await addPortfolio(h.investor, 'inv-a', 'a-late');
        }
      });
      const seen = pages.flat();
      const ids = seen.map((p) => p.portfolioId);
      assert.equal(new Set(ids).size, ids.length);
      assert.deepEqual([...ids].sort((a, b) => a - b), ids);
      assert.deepEqual(names(seen.filter((p) => before.some((b) => b.portfolioId === p.portfolioId))), names(before.filter((p) => p.portfolioIdentifier !== 'b-3')));
      assert.ok(names(seen).includes('a-late'));
    });

    it('refuses a malformed or foreign page_token and a page_size out of 1..1000; checks the key against the whole listing', async () => {
      const ask = (req: Partial<GetPortfoliosRequest>) => h.portfolio.getPortfolios({ investorIdentifier: '', investorIdentifiersAllowed: [], investorFilterActive: false, ...req }, { caller: h.investor });
      for (const pageToken of ['not a token!', token([1, 'a3f1c2d4-guid']), token([1, 0]), token({})]) {
        await rejectsWith(ask({ pageSize: 2, pageToken }), 'INVALID_ARGUMENT', 'page_token must be a next_page_token of this listing.');
      }
      for (const pageSize of [0, 1001]) await rejectsWith(ask({ pageSize }), 'INVALID_ARGUMENT', `page_size must be an integer from 1 to 1000, got ${pageSize}.`);
      // A page holding only inv-a's portfolio is still answered with inv-b's key (the key fits the listing), which opens inv-b's names.
      const singles = await allPages(1, h.investor, { decryptionKey: key });
      assert.ok(singles.some((page) => page[0]!.investorIdentifier === 'inv-a'));
      const opened = (await allPages(2, h.investor, { decryptionKey: key })).flat().filter((p) => p.investorIdentifier === 'inv-b');
      assert.ok(opened.length > 0 && opened.every((p) => p.investorName === 'Fund inv-b' && !p.masked));
      const masked = (await allPages(2, h.investor)).flat().filter((p) => p.investorIdentifier === 'inv-b');
      assert.ok(masked.every((p) => p.investorName === MASKED && p.masked));
      await rejectsWith(ask({ pageSize: 1, decryptionKey: generateEncryptionKey() }), 'INVALID_ARGUMENT', WRONG_KEY_MESSAGE);
    });
  });
}

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ServiceError } from '@grpc/grpc-js';
import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import type { StreamImpactRecordsResponse, StreamImpactRecordsRequest } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import type { Caller } from '@green-impact/shared/caller';
import { recordsOf } from '@green-impact/shared/impact-record-columns';
import { grpcErrorToDomain } from '@green-impact/shared/grpc/status-map';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { FRAMEWORK, loadFixture, type FixtureIds } from '@green-impact/testing/portfolio/fixture';
import { rejectsWith, startPortfolioHarness, type PortfolioHarness } from '@green-impact/testing/portfolio/harness';

/**
 * StreamImpactRecords over real gRPC: pages of page_size in the whole-list order, tokens that resume,
 * limit and the count of a connection's page, the scope's rules, and refusals before the first page.
 */
for (const db of testDatabases) {
  describe(`StreamImpactRecords on ${db.name}`, { skip: await skipReason(db) }, () => {
    let h: PortfolioHarness;
    let ids: FixtureIds;
    const me = () => ({ caller: h.investor });
    const YEAR = 2024;

    /** Every message of a stream, or its refusal as a DomainError. */
    const pages = async (req: Partial<StreamImpactRecordsRequest>, caller: Caller = h.investor): Promise<StreamImpactRecordsResponse[]> => {
      const out: StreamImpactRecordsResponse[] = [];
      const request = { investorIdentifier: 'inv-s', portfolioIdentifier: '', reportingYear: YEAR, pageSize: 0, pageToken: '', limit: 0, columns: false, ...req };
      try {
        for await (const page of h.portfolio.streamImpactRecords(request, { caller })) out.push(page as StreamImpactRecordsResponse);
      } catch (err) {
        throw grpcErrorToDomain(err as ServiceError);
      }
      return out;
    };

    before(async () => {
      h = await startPortfolioHarness(db);
      ids = await loadFixture(h.taxonomy, h.issuer);
      await h.portfolio.addAsset(
        { assetIdentifier: 'GB-S', assetName: 'Green Bond', issuerIdentifier: 'ISSUER-A', frameworkIdentifier: FRAMEWORK, assetCurrencyCode: 'SEK', assetValueOutstanding: 10_000_000, assetVisibility: Visibility.VISIBILITY_PUBLIC },
        { caller: h.issuer },
      );
      await h.portfolio.addInvestor({ investorIdentifier: 'inv-s', investorName: 'Stream Fund', investorCurrencyCode: 'EUR' }, me());
      await h.portfolio.addPortfolio({ investorIdentifier: 'inv-s', portfolioIdentifier: 'half' }, me());
      for (let n = 0; n < 4; n++) {
        const { id } = await h.portfolio.addPosition(
          { investorIdentifier: 'inv-s', assetIdentifier: 'GB-S', positionAmount: 100_000 + n, positionCurrencyCode: 'SEK', reportingYear: YEAR },
          me(),
        );
        if (n % 2) await h.portfolio.addPositionToPortfolio({ investorIdentifier: 'inv-s', portfolioIdentifier: 'half', positionId: id! }, me());
      }
    });
    after(async () => {
      await h?.stop();
    });

    it('streams the records of the whole-list read, page_size per message, the last one without a token', async () => {
      const whole = await h.portfolio.getInvestorImpacts({ investorIdentifier: 'inv-s', reportingYear: YEAR, computeMissing: false }, me());
      assert.equal(whole.impacts.length, 12, '4 positions × 3 framework rows');
      const streamed = await pages({ pageSize: 5 });
      assert.deepEqual(streamed.map((p) => p.impacts.length), [5, 5, 2]);
      assert.deepEqual(streamed.flatMap((p) => p.impacts), whole.impacts);
      assert.deepEqual(streamed.map((p) => p.nextPageToken !== ''), [true, true, false]);
      assert.equal(streamed[0]!.totalCount, undefined, 'counted only for a limited read');
      // A page that ends the records exactly: no empty page after it.
      assert.deepEqual((await pages({ pageSize: 4 })).map((p) => [p.impacts.length, p.nextPageToken === '']), [[4, false], [4, false], [4, true]]);
      assert.deepEqual((await pages({})).map((p) => p.impacts.length), [12], 'default page: 1000');
    });

    it('resumes after a token, stops at limit and counts for a connection page', async () => {
      const whole = (await pages({})).flatMap((p) => p.impacts);
      const [first] = await pages({ pageSize: 5, limit: 5 });
      assert.equal(first!.totalCount, 12);
      assert.deepEqual(first!.impacts, whole.slice(0, 5));
      const rest = await pages({ pageSize: 3, limit: 5, pageToken: first!.nextPageToken });
      assert.deepEqual(rest.map((p) => p.impacts.length), [3, 2]);
      assert.deepEqual(rest.flatMap((p) => p.impacts), whole.slice(5, 10));
      assert.equal(rest[0]!.totalCount, 12);
      const last = await pages({ pageSize: 100, limit: 100, pageToken: rest.at(-1)!.nextPageToken });
      assert.deepEqual(last.flatMap((p) => p.impacts), whole.slice(10));
      assert.equal(last.at(-1)!.nextPageToken, '');
    });

    it('in columns: the same pages and tokens, a position\'s inputs and a row\'s names once per page', async () => {
      for (const req of [{ pageSize: 5 }, { pageSize: 4 }, { pageSize: 5, limit: 7 }, { portfolioIdentifier: 'half', pageSize: 2 }, { reportingYear: 2023 }]) {
        const whole = await pages(req);
        const columns = await pages({ ...req, columns: true });
        assert.deepEqual(columns.map((p) => p.impacts), whole.map(() => []));
        assert.deepEqual(columns.map((p) => recordsOf(p.columns!)), whole.map((p) => p.impacts));
        assert.deepEqual(columns.map((p) => [p.nextPageToken, p.totalCount]), whole.map((p) => [p.nextPageToken, p.totalCount]));
        for (const { columns: c } of columns) {
          assert.deepEqual(c!.positions.map((p) => p.positionId), [...new Set(c!.positions.map((p) => p.positionId))]);
          assert.equal(new Set(c!.position).size, c!.positions.length, 'no position without records');
          assert.ok(c!.rowNames.length <= 3, '3 framework rows');
        }
      }
    });

    it("a portfolio's records are its positions'; a year without records is one empty page", async () => {
      const whole = await h.portfolio.getPortfolioImpacts({ portfolioIdentifier: 'half', reportingYear: YEAR, computeMissing: false }, me());
      const streamed = await pages({ portfolioIdentifier: 'half', pageSize: 2 });
      assert.equal(whole.impacts.length, 6);
      assert.deepEqual(streamed.flatMap((p) => p.impacts), whole.impacts);
      assert.deepEqual((await pages({ reportingYear: 2023 })).map((p) => [p.impacts, p.nextPageToken]), [[[], '']]);
    });

    it('a row renamed between two computations: each record keeps the names its computation was made with', async () => {
      await h.taxonomy.addSubCategory(
        { subCategoryName: 'Solar power', subCategoryNameChanged: 'Solar PV', categoryId: ids[2024].category, reportingYear: YEAR, languageCode: 'en' },
        { caller: h.issuer },
      );
      await h.portfolio.addPosition({ investorIdentifier: 'inv-s', assetIdentifier: 'GB-S', positionAmount: 200_000, positionCurrencyCode: 'SEK', reportingYear: YEAR }, me());
      const whole = await h.portfolio.getInvestorImpacts({ investorIdentifier: 'inv-s', reportingYear: YEAR, computeMissing: false }, me());
      const names = (name: string) => whole.impacts.filter((r) => r.subCategoryName === name).length;
      assert.deepEqual([names('Solar power'), names('Solar PV')], [8, 2], 'the 4 old positions keep the old name, the new one has the new');
      for (const req of [{}, { pageSize: 7 }, { pageSize: 3, limit: 14 }]) {
        const streamed = await pages(req);
        const columns = await pages({ ...req, columns: true });
        assert.deepEqual(columns.map((p) => recordsOf(p.columns!)), streamed.map((p) => p.impacts));
      }
      const [page] = await pages({ columns: true });
      assert.equal(page!.columns!.rowNames.length, 5, '3 framework rows, 2 of them under two names');
    });

    it('refuses before the first page: bad arguments, unknown or foreign scopes', async () => {
      await rejectsWith(pages({ pageSize: 5_001 }), 'INVALID_ARGUMENT', 'page_size must be an integer from 1 to 5000, got 5001.');
      await rejectsWith(pages({ pageToken: 'nope' }), 'INVALID_ARGUMENT', 'page_token must be a next_page_token of this listing.');
      await rejectsWith(pages({ pageToken: Buffer.from(JSON.stringify([1, '7'])).toString('base64url') }), 'INVALID_ARGUMENT', 'page_token must be a next_page_token of this listing.');
      await rejectsWith(pages({ reportingYear: 24 }), 'INVALID_ARGUMENT', /reporting_year must be a 4-digit year/);
      await rejectsWith(pages({ investorIdentifier: 'nobody' }), 'NOT_FOUND', 'No such investor.');
      await rejectsWith(pages({ portfolioIdentifier: 'none' }), 'NOT_FOUND', 'No such portfolio "none".');
      // Another account's investor is no investor of the caller's.
      await rejectsWith(pages({}, h.issuer), 'NOT_FOUND', 'No such investor.');
      await rejectsWith(pages({}, { ...h.investor, accountId: 'not-a-uuid' }), 'UNAUTHENTICATED');
    });
  });
}

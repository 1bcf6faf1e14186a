import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import { DomainError } from '@green-impact/shared/errors';
import { publicLimitError } from '@green-impact/shared/public-items';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { FRAMEWORK, loadFixture } from '@green-impact/testing/portfolio/fixture';
import { startPortfolioHarness, type PortfolioHarness } from '@green-impact/testing/portfolio/harness';

/**
 * MAX_PUBLIC_ITEMS_PER_ACCOUNT under concurrent publications through the real portfolio service over gRPC
 * (public-items-lock.test checks the lock itself on a table of its own): many public assets added at once
 * by one account publish exactly the limit, the rest refused, whatever the interleaving.
 */
const LIMIT = 3;
const AT_ONCE = 8;
const skips = await Promise.all(testDatabases.map((db) => skipReason(db)));

for (const [i, db] of testDatabases.entries()) {
  describe(`the public asset limit under concurrent publications on ${db.name}`, { skip: skips[i]! }, () => {
    let h: PortfolioHarness;
    before(async () => {
      h = await startPortfolioHarness(db, { limits: { maxListItems: 2_000, maxPublicItemsPerAccount: LIMIT } });
      await loadFixture(h.taxonomy, h.issuer);
    });
    after(async () => {
      await h?.stop();
    });

    it(`${AT_ONCE} public assets added at once publish exactly ${LIMIT}`, async () => {
      const outcomes = await Promise.allSettled(
        Array.from({ length: AT_ONCE }, (_, n) =>
          h.portfolio.addAsset(
            { assetIdentifier: `RACE-${n}`, assetName: `Race ${n}`, issuerIdentifier: 'ISSUER-A', frameworkIdentifier: FRAMEWORK, assetCurrencyCode: 'SEK', assetValueOutstanding: 1_000_000, assetVisibility: Visibility.VISIBILITY_PUBLIC },
            { caller: h.issuer },
          ),
        ),
      );
      const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
      assert.equal(outcomes.length - refused.length, LIMIT, JSON.stringify(refused.map((r) => String(r.reason))));
      // The client maps the gRPC status back to the service's DomainError: the limit's own refusal, nothing else.
      for (const r of refused) {
        const err = r.reason as DomainError;
        assert.ok(err instanceof DomainError, String(err));
        assert.deepEqual([err.code, err.message], ['FAILED_PRECONDITION', publicLimitError('asset', LIMIT).message]);
      }
      const [{ n }] = await h.service.dataSource.query(
        `SELECT count(*)::int AS n FROM portfolio.assets WHERE account_id = $1 AND visibility = 'public'`,
        [h.issuer.accountId],
      );
      assert.equal(n, LIMIT);
    });
  });
}

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { rejectsWith, startPortfolioHarness, type PortfolioHarness } from '@green-impact/testing/portfolio/harness';

/**
 * Assets written before the portfolio service recorded their frameworks with taxonomy (issue 46) are
 * recorded once, at the first start after the upgrade: then their framework keeps its currency too. Real
 * taxonomy and portfolio services over gRPC; the old asset is written as the old service wrote it.
 */
for (const db of testDatabases) {
  describe(`recording the frameworks of assets written before, on ${db.name}`, { skip: await skipReason(db) }, () => {
    let h: PortfolioHarness;

    before(async () => {
      h = await startPortfolioHarness(db);
    });
    after(async () => {
      await h?.stop();
    });

    it("records each asset once, after which another account's framework keeps its currency; a later run does nothing", async () => {
      // The first start found no asset and noted it done.
      assert.equal(await h.service.holderBackfill, 0);
      for (const currencyCode of ['EUR', 'SEK']) await h.taxonomy.addCurrency({ currencyCode }, { caller: h.issuer });
      const addFramework = (currency: string) =>
        h.taxonomy.addFramework({ frameworkIdentifier: 'OLD', frameworkName: 'Old framework', frameworkCurrencyCode: currency, frameworkVisibility: Visibility.VISIBILITY_PUBLIC }, { caller: h.issuer });
      const frameworkId = (await addFramework('EUR')).id!;

      // An asset of another account on it, written before references were recorded (no call to taxonomy),
      // and the backfill not yet done: the state an upgrade starts from.
      await h.service.dataSource.query(
        `INSERT INTO portfolio.assets (account_id, asset_identifier, asset_name, issuer_identifier, issuer_name, framework_id,
           framework_identifier, framework_name, currency_code, visibility)
         VALUES ($1, 'SE-OLD', 'Old bond', 'ISS', 'ISS', $2, 'OLD', 'Old framework', 'EUR', 'private')`,
        [h.investor.accountId, frameworkId],
      );
      await h.service.dataSource.query(`DELETE FROM portfolio.framework_holder_backfill`);

      assert.equal(await h.service.stores.assets.recordEveryHolder(), 1);
      await rejectsWith(addFramework('SEK'), 'FAILED_PRECONDITION', `Framework "OLD" is held by other accounts' assets: its currency (EUR) stays as it is. Add a framework under a new identifier instead.`);
      assert.equal(await h.service.stores.assets.recordEveryHolder(), undefined);

      // Removed through the service, the asset lets the framework go.
      await h.portfolio.removeAsset({ assetIdentifier: 'SE-OLD' }, { caller: h.investor });
      await addFramework('SEK');
    });
  });
}

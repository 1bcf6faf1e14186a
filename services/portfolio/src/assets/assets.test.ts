import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { FRAMEWORK, loadFixture, PRIVATE_FRAMEWORK, type FixtureIds } from '@green-impact/testing/portfolio/fixture';
import { near, rejectsWith, startPortfolioHarness, type PortfolioHarness } from '@green-impact/testing/portfolio/harness';

for (const db of testDatabases) {
  describe(`assets over gRPC on ${db.name}`, { skip: await skipReason(db) }, () => {
    let h: PortfolioHarness;
    let ids: FixtureIds;
    const issuer = () => ({ caller: h.issuer });
    const investor = () => ({ caller: h.investor });

    before(async () => {
      h = await startPortfolioHarness(db);
      ids = await loadFixture(h.taxonomy, h.issuer);
    });
    after(async () => {
      await h?.stop();
    });

    it('adds an asset tied to a visible framework, private by default, and updates it by identifier', async () => {
      const added = await h.portfolio.addAsset(
        {
          assetIdentifier: 'SE0000000001',
          assetName: 'Green Bond 2029',
          issuerIdentifier: 'ISSUER-A',
          frameworkIdentifier: FRAMEWORK,
          assetValueOutstanding: 10_000_000,
          assetCurrencyCode: 'sek',
          dateIssued: '2024-03-01',
          dateMaturity: '2029-03-01',
        },
        issuer(),
      );
      assert.equal(added.message, `Asset added with id ${added.id}.`);
      const [asset] = (await h.portfolio.getAssets({}, issuer())).assets;
      assert.deepEqual(asset, {
        assetId: added.id,
        assetIdentifier: 'SE0000000001',
        assetName: 'Green Bond 2029',
        assetValueOutstanding: 10_000_000,
        assetCurrencyCode: 'SEK',
        assetDateIssued: '2024-03-01',
        assetDateMaturity: '2029-03-01',
        issuerIdentifier: 'ISSUER-A',
        issuerName: 'ISSUER-A',
        frameworkIdentifier: FRAMEWORK,
        frameworkName: 'Green Bond Framework',
        assetVisibility: Visibility.VISIBILITY_PRIVATE,
        frameworkId: asset!.frameworkId,
        owned: true,
      });
      assert.ok(asset!.frameworkId > 0);

      const updated = await h.portfolio.addAsset(
        {
          assetIdentifier: 'SE0000000001',
          assetName: 'Green Bond 2029 A',
          issuerIdentifier: 'ISSUER-A',
          frameworkIdentifier: FRAMEWORK,
          assetCurrencyCode: 'SEK',
          assetVisibility: Visibility.VISIBILITY_PUBLIC,
          issuerName: 'Issuer A AB',
        },
        issuer(),
      );
      assert.deepEqual(updated, { message: 'Asset updated.', id: added.id });
      const [again] = (await h.portfolio.getAssets({}, issuer())).assets;
      // Absent optional fields keep their values on an update.
      assert.deepEqual(
        [again!.assetName, again!.assetValueOutstanding, again!.assetDateIssued, again!.assetVisibility, again!.issuerName],
        ['Green Bond 2029 A', 10_000_000, '2024-03-01', Visibility.VISIBILITY_PUBLIC, 'Issuer A AB'],
      );
      // Another asset of the same issuer takes the issuer's known name.
      await h.portfolio.addAsset(
        { assetIdentifier: 'SE0000000002', assetName: 'Private Note', issuerIdentifier: 'ISSUER-A', frameworkIdentifier: PRIVATE_FRAMEWORK, assetCurrencyCode: 'EUR' },
        issuer(),
      );
      const second = (await h.portfolio.getAssetsByIdentifiers({ assetIdentifiers: ['SE0000000002'] }, issuer())).assets[0]!;
      assert.equal(second.issuerName, 'Issuer A AB');
      assert.equal(second.assetValueOutstanding, undefined);
    });

    it('refuses frameworks the caller cannot see, and invalid input', async () => {
      const base = { assetIdentifier: 'X1', assetName: 'X', issuerIdentifier: 'I', frameworkIdentifier: FRAMEWORK, assetCurrencyCode: 'EUR' };
      await rejectsWith(h.portfolio.addAsset({ ...base, frameworkIdentifier: PRIVATE_FRAMEWORK }, investor()), 'NOT_FOUND', 'No such framework "GB-PRIVATE".');
      await rejectsWith(h.portfolio.addAsset({ ...base, frameworkIdentifier: 'NOPE' }, investor()), 'NOT_FOUND', 'No such framework "NOPE".');
      await rejectsWith(h.portfolio.addAsset({ ...base, assetCurrencyCode: 'EU' }, investor()), 'INVALID_ARGUMENT',
        'asset_currency_code must be a 3-letter currency code, got "EU".');
      await rejectsWith(h.portfolio.addAsset({ ...base, dateIssued: '2023-02-29' }, investor()), 'INVALID_ARGUMENT',
        'date_issued must be a date YYYY-MM-DD, got "2023-02-29".');
      await rejectsWith(h.portfolio.addAsset({ ...base, dateIssued: '2024-01-02', dateMaturity: '2024-01-01' }, investor()), 'INVALID_ARGUMENT',
        'date_maturity must not be before date_issued.');
      await rejectsWith(h.portfolio.addAsset({ ...base, assetValueOutstanding: -1 }, investor()), 'INVALID_ARGUMENT');
      await rejectsWith(h.portfolio.addAsset({ ...base, assetIdentifier: ' ' }, investor()), 'INVALID_ARGUMENT', 'asset_identifier must be 1 to 255 characters.');
      await rejectsWith(h.portfolio.addAsset(base), 'UNAUTHENTICATED');
      await rejectsWith(h.portfolio.getAssets({}, { caller: { accountId: 'not-a-uuid', role: 'user' } }), 'UNAUTHENTICATED');
    });

    it('shows other accounts only public assets; filters by visibility, issuer and framework', async () => {
      const names = (list: { assetIdentifier: string }[]) => list.map((a) => a.assetIdentifier);
      assert.deepEqual(names((await h.portfolio.getAssets({}, issuer())).assets), ['SE0000000001', 'SE0000000002']);
      const seen = (await h.portfolio.getAssets({}, investor())).assets;
      assert.deepEqual(names(seen), ['SE0000000001']);
      assert.equal(seen[0]!.owned, false);
      assert.deepEqual((await h.portfolio.getAssets({ issuerVisibility: Visibility.VISIBILITY_PRIVATE }, investor())).assets, []);
      assert.deepEqual(names((await h.portfolio.getAssets({ issuerVisibility: Visibility.VISIBILITY_PRIVATE }, issuer())).assets), ['SE0000000002']);
      assert.deepEqual(names((await h.portfolio.getAssets({ frameworkIdentifier: PRIVATE_FRAMEWORK }, issuer())).assets), ['SE0000000002']);
      assert.deepEqual((await h.portfolio.getAssets({ issuerIdentifier: 'ISSUER-B' }, issuer())).assets, []);
      assert.deepEqual((await h.portfolio.getAssets({}, { caller: h.stranger })).assets.length, 1);

      // The investor's account may use the same identifier for an asset of its own; it then reads its own first.
      await h.portfolio.addAsset(
        { assetIdentifier: 'SE0000000001', assetName: 'My copy', issuerIdentifier: 'ISSUER-B', frameworkIdentifier: FRAMEWORK, assetCurrencyCode: 'EUR' },
        investor(),
      );
      const batch = await h.portfolio.getAssetsByIdentifiers({ assetIdentifiers: ['SE0000000002', 'SE0000000001', 'NOPE'] }, investor());
      assert.deepEqual(batch.assets.map((a) => [a.assetIdentifier, a.assetName, a.owned]), [['SE0000000001', 'My copy', true]]);
      const byIssuer = await h.portfolio.getAssetsByIdentifiers({ assetIdentifiers: ['SE0000000001', 'SE0000000002'] }, issuer());
      assert.deepEqual(byIssuer.assets.map((a) => a.assetName), ['Green Bond 2029 A', 'Private Note']);
      assert.equal((await h.portfolio.getAssets({}, investor())).assets.length, 2);
    });

    it('lets only the owner remove an asset', async () => {
      await h.portfolio.addAsset(
        { assetIdentifier: 'TEMP', assetName: 'Temp', issuerIdentifier: 'ISSUER-A', frameworkIdentifier: FRAMEWORK, assetCurrencyCode: 'EUR', assetVisibility: Visibility.VISIBILITY_PUBLIC },
        issuer(),
      );
      await rejectsWith(h.portfolio.removeAsset({ assetIdentifier: 'TEMP' }, investor()), 'PERMISSION_DENIED', 'Not authorized.');
      await rejectsWith(h.portfolio.removeAsset({ assetIdentifier: 'SE0000000002' }, investor()), 'NOT_FOUND', 'No such asset "SE0000000002".');
      const removed = await h.portfolio.removeAsset({ assetIdentifier: 'TEMP' }, issuer());
      assert.equal(removed.message, 'Asset removed.');
      await rejectsWith(h.portfolio.removeAsset({ assetIdentifier: 'TEMP' }, issuer()), 'NOT_FOUND');
    });

    it('attributes the framework rows of a year to the asset share, in the asset currency', async () => {
      // The investor's own SE0000000001 is read first for the investor; it has no value outstanding.
      await rejectsWith(
        h.portfolio.getAssetFrameworkDetails({ assetIdentifier: 'SE0000000001', reportingYear: 2024 }, investor()),
        'FAILED_PRECONDITION',
        'Asset "SE0000000001" has no asset_value_outstanding; its share of the framework cannot be computed.',
      );
      // A = 10 000 000 SEK = 800 000 EUR (1 SEK = 0.08 EUR in 2024); D = max(L, V) = 2 500 000; share 0.32.
      // Volumes back in SEK at 12.5 SEK/EUR: 0.32 · 1 000 000 · 12.5 = 4 000 000; 0.32 · 500 000 · 12.5 = 2 000 000.
      // Values: 0.32 · 12 500 = 4 000; 0.32 · 4 000 = 1 280; 0.32 · 3 000 = 960.
      const [d] = (await h.portfolio.getAssetFrameworkDetails({ assetIdentifier: 'SE0000000001', reportingYear: 2024 }, issuer())).frameworks;
      assert.equal(d!.frameworkIdentifier, FRAMEWORK);
      assert.equal(d!.currencyCode, 'SEK');
      assert.equal(d!.frameworkCurrencyCode, 'EUR');
      assert.equal(d!.attributionDenominator, 2_500_000);
      near(d!.attributionShare, 0.32, 'share');
      near(d!.fxRate, 12.5, 'EUR→SEK');
      assert.equal(d!.valueOutstandingFramework, false);
      assert.equal(d!.frameworkValueOutstanding, 2_000_000);
      assert.equal(d!.frameworkAllocatedAmount, 2_500_000);
      const rows = d!.framework.map((r) => [r.subCategoryId, r.indicatorId, r.subCategoryVolume, r.indicatorValue, r.currencyCode, r.year] as const);
      const y = ids[2024];
      const expected = [
        [y.solar, y.ghg, 4_000_000, 4_000],
        [y.solar, y.energy, 4_000_000, 1_280],
        [y.wind, y.ghg, 2_000_000, 960],
      ];
      assert.equal(rows.length, 3);
      for (const [sub, ind, volume, value] of expected) {
        const row = rows.find((r) => r[0] === sub && r[1] === ind);
        assert.ok(row, `row ${sub}/${ind}`);
        near(row[2], volume!, `volume ${sub}/${ind}`);
        near(row[3], value!, `value ${sub}/${ind}`);
        assert.deepEqual([row[4], row[5]], ['SEK', 2024]);
      }
      const solarRow = d!.framework.find((r) => r.subCategoryId === y.solar)!;
      assert.deepEqual(Object.keys(solarRow.sdg), ['7']);
      assert.deepEqual(Object.keys(solarRow.euObjective), ['1']);

      const [sv] = (await h.portfolio.getAssetFrameworkDetails({ assetIdentifier: 'SE0000000001', reportingYear: 2024, languageCode: 'sv' }, issuer())).frameworks;
      assert.deepEqual(
        [...new Set(sv!.framework.filter((r) => r.indicatorId === y.ghg).map((r) => r.indicatorName))],
        ['Undvikna växthusgaser'],
      );
      assert.equal(sv!.framework.find((r) => r.indicatorId === y.energy)!.indicatorName, 'Renewable energy generated');
    });

    it('says clearly when a year has no figures or no FX rate', async () => {
      // 2023: SEK/EUR 10 exists, D = V = 1 000 000: 1 000 000 EUR of 10 000 000 SEK → share 1.
      const [d2023] = (await h.portfolio.getAssetFrameworkDetails({ assetIdentifier: 'SE0000000001', reportingYear: 2023 }, issuer())).frameworks;
      near(d2023!.attributionShare, 1, '2023 share');
      near(d2023!.framework[0]!.subCategoryVolume, 7_300_000, '2023 volume in SEK'); // 1 · 730 000 EUR · 10
      await rejectsWith(
        h.portfolio.getAssetFrameworkDetails({ assetIdentifier: 'SE0000000001', reportingYear: 2022 }, issuer()),
        'FAILED_PRECONDITION',
        /has no year specifics for 2022/,
      );
      await h.portfolio.addAsset(
        { assetIdentifier: 'US-1', assetName: 'Dollar note', issuerIdentifier: 'ISSUER-A', frameworkIdentifier: FRAMEWORK, assetCurrencyCode: 'USD', assetValueOutstanding: 1_000 },
        issuer(),
      );
      await rejectsWith(
        h.portfolio.getAssetFrameworkDetails({ assetIdentifier: 'US-1', reportingYear: 2023 }, issuer()),
        'FAILED_PRECONDITION',
        'No FX rate between USD and EUR for 2023.',
      );
      await rejectsWith(
        h.portfolio.getAssetFrameworkDetails({ assetIdentifier: 'NOPE', reportingYear: 2024 }, issuer()),
        'NOT_FOUND',
        'No such asset "NOPE".',
      );
    });
  });
}

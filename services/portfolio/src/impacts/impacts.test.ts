import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import type { ImpactRecord } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { FRAMEWORK, loadFixture, type FixtureIds } from '@green-impact/testing/portfolio/fixture';
import { near, rejectsWith, startPortfolioHarness, type PortfolioHarness } from '@green-impact/testing/portfolio/harness';
import { indicatorTotals, subCategoryVolumeTotals } from './totals.js';

for (const db of testDatabases) {
  describe(`impacts over gRPC on ${db.name}`, { skip: await skipReason(db) }, () => {
    let h: PortfolioHarness;
    let fx: FixtureIds;
    const me = () => ({ caller: h.investor });
    const ids: Record<string, number> = {};
    const rowOf = (records: ImpactRecord[], subCategoryId: number, indicatorId: number) => {
      const r = records.find((x) => x.subCategoryId === subCategoryId && x.indicatorId === indicatorId);
      assert.ok(r, `record ${subCategoryId}/${indicatorId}`);
      return r;
    };
    const impactRows = async (positionId: number): Promise<number> =>
      (await h.service.dataSource.query(
        `SELECT count(*)::int AS n FROM portfolio.impacts i JOIN portfolio.impact_computations c ON c.id = i.computation_id WHERE c.position_id = $1`,
        [positionId],
      ))[0].n;

    before(async () => {
      h = await startPortfolioHarness(db);
      fx = await loadFixture(h.taxonomy, h.issuer);
      await h.portfolio.addAsset(
        { assetIdentifier: 'GB-2029', assetName: 'Green Bond 2029', issuerIdentifier: 'ISSUER-A', frameworkIdentifier: FRAMEWORK, assetCurrencyCode: 'SEK', assetValueOutstanding: 10_000_000, assetVisibility: Visibility.VISIBILITY_PUBLIC },
        { caller: h.issuer },
      );
      await h.portfolio.addInvestor({ investorIdentifier: 'inv-1', investorName: 'First Fund', investorCurrencyCode: 'EUR' }, me());
    });
    after(async () => {
      await h?.stop();
    });

    it('computes and stores impacts when a position is added with a reporting year', async () => {
      // 100 000 SEK in 2024: rate 0.08 → P_f = 8 000 EUR; D = max(2 500 000, 2 000 000) = 2 500 000; P_f/D = 0.0032.
      // No start date: 1 January 2024 for 365 days, in leap year 2024 τ = 365/366.
      const r = await h.portfolio.addPosition(
        { investorIdentifier: 'inv-1', assetIdentifier: 'GB-2029', positionAmount: 100_000, positionCurrencyCode: 'SEK', reportingYear: 2024 },
        me(),
      );
      ids['full'] = r.id!;
      assert.equal(r.message, `Position added with id ${r.id}.`);
      assert.equal(r.impacts.length, 3);
      const y = fx[2024];
      const tau = 365 / 366;
      const ghg = rowOf(r.impacts, y.solar, y.ghg);
      near(ghg.value, 40 * tau, 'impact solar/GHG'); // 0.0032 · 12 500 = 40
      near(ghg.attributedVolume, 3_200 * tau, 'volume solar'); // 0.0032 · 1 000 000
      near(rowOf(r.impacts, y.solar, y.energy).value, 12.8 * tau, 'impact solar/energy'); // 0.0032 · 4 000
      near(rowOf(r.impacts, y.wind, y.ghg).value, 9.6 * tau, 'impact wind/GHG'); // 0.0032 · 3 000
      near(rowOf(r.impacts, y.wind, y.ghg).attributedVolume, 1_600 * tau, 'volume wind'); // 0.0032 · 500 000
      near(ghg.fxRate, 0.08, 'fx');
      near(ghg.positionAmountFrameworkCurrency, 8_000, 'P_f');
      assert.deepEqual(
        {
          positionId: ghg.positionId, reportingYear: ghg.reportingYear, investor: ghg.investorIdentifier, asset: ghg.assetIdentifier,
          framework: ghg.frameworkIdentifier, currency: ghg.frameworkCurrencyCode, D: ghg.attributionDenominator, tau: ghg.tau,
          amount: ghg.positionAmount, positionCurrency: ghg.positionCurrencyCode, x: ghg.indicatorValue, s: ghg.subCategoryVolume,
          V: ghg.frameworkValueOutstanding, L: ghg.frameworkAllocatedAmount, flag: ghg.valueOutstandingFramework,
          held: ghg.holdingDaysInYear, days: ghg.daysInYear, names: [ghg.categoryName, ghg.subCategoryName, ghg.superIndicatorName, ghg.indicatorName, ghg.unitName],
        },
        {
          positionId: r.id, reportingYear: 2024, investor: 'inv-1', asset: 'GB-2029', framework: FRAMEWORK, currency: 'EUR',
          D: 2_500_000, tau, amount: 100_000, positionCurrency: 'SEK', x: 12_500, s: 1_000_000, V: 2_000_000, L: 2_500_000,
          flag: false, held: 365, days: 366, names: ['Renewable energy', 'Solar power', 'GHG emissions', 'GHG avoided', 'tCO2e'],
        },
      );
      assert.ok(!Number.isNaN(Date.parse(ghg.computedAt)));
      const [p] = (await h.portfolio.getPositionsByIds({ positionIds: [r.id!] }, me())).positions;
      assert.deepEqual(p!.impactYears, [2024]);
      assert.deepEqual((await h.portfolio.getPositionImpacts({ positionId: r.id!, computeMissing: false }, me())).impacts, r.impacts);
    });

    it('splits a holding from 1 July 2023 over 2023 and 2024', async () => {
      // 50 000 EUR (rate 1). 2023: D = V = 1 000 000 → 0.05; τ = 184/365 → 0.05 · 730 · 184/365 = 18.4.
      const r = await h.portfolio.addPosition(
        { investorIdentifier: 'inv-1', assetIdentifier: 'GB-2029', positionAmount: 50_000, positionCurrencyCode: 'EUR', reportingYear: 2023, positionStartDate: '2023-07-01' },
        me(),
      );
      ids['split'] = r.id!;
      const [only] = r.impacts;
      assert.equal(r.impacts.length, 1);
      near(only!.value, 18.4, '2023 impact');
      near(only!.attributedVolume, 18_400, '2023 volume'); // 0.05 · 730 000 · 184/365
      assert.deepEqual([only!.holdingDaysInYear, only!.daysInYear, only!.fxRate, only!.attributionDenominator], [184, 365, 1, 1_000_000]);

      // 2024: D = 2 500 000 → 0.02; τ = 181/366 → 0.02 · 12 500 · 181/366.
      const computed = await h.portfolio.computePositionImpacts({ positionId: r.id!, reportingYear: 2024 }, me());
      assert.equal(computed.message, `Impacts of position ${r.id} for 2024 computed: 3 records.`);
      near(rowOf(computed.impacts, fx[2024].solar, fx[2024].ghg).value, (250 * 181) / 366, '2024 impact');
      assert.equal(computed.impacts[0]!.holdingDaysInYear, 181);
      const all = (await h.portfolio.getPositionImpacts({ positionId: r.id!, computeMissing: false }, me())).impacts;
      assert.deepEqual(all.map((x) => x.reportingYear), [2023, 2024, 2024, 2024]);
      assert.equal((await h.portfolio.getPositionImpacts({ positionId: r.id!, reportingYear: 2023, computeMissing: false }, me())).impacts.length, 1);
    });

    it('recomputes on demand, replacing the year’s records', async () => {
      const before = (await h.portfolio.getPositionImpacts({ positionId: ids['full']!, reportingYear: 2024, computeMissing: false }, me())).impacts;
      // The issuer doubles x(solar, GHG) for 2024.
      await h.taxonomy.addCategoryIndicatorToFramework(
        { frameworkIdentifier: FRAMEWORK, subCategoryId: fx[2024].solar, subCategoryVolume: 1_000_000, indicatorId: fx[2024].ghg, indicatorValue: 25_000, reportingYear: 2024 },
        { caller: h.issuer },
      );
      const again = await h.portfolio.computePositionImpacts({ positionId: ids['full']!, reportingYear: 2024 }, me());
      assert.equal(again.impacts.length, 3);
      near(rowOf(again.impacts, fx[2024].solar, fx[2024].ghg).value, (80 * 365) / 366, 'recomputed impact');
      assert.ok(again.impacts.every((x) => !before.some((b) => b.id === x.id)), 'records were replaced');
      assert.equal(await impactRows(ids['full']!), 3);
    });

    it('fails clearly without FX rate or year figures, and then adds no position', async () => {
      const count = async () => (await h.portfolio.getPositions({ investorIdentifier: 'inv-1', investorIdentifiersAllowed: [], investorFilterActive: false }, me())).positions.length;
      const n = await count();
      await rejectsWith(
        h.portfolio.addPosition({ investorIdentifier: 'inv-1', assetIdentifier: 'GB-2029', positionAmount: 10, positionCurrencyCode: 'USD', reportingYear: 2023 }, me()),
        'FAILED_PRECONDITION',
        'No FX rate between USD and EUR for 2023.',
      );
      await rejectsWith(
        h.portfolio.addPosition({ investorIdentifier: 'inv-1', assetIdentifier: 'GB-2029', positionAmount: 10, positionCurrencyCode: 'EUR', reportingYear: 2022 }, me()),
        'FAILED_PRECONDITION',
        /has no year specifics for 2022/,
      );
      assert.equal(await count(), n);
      await rejectsWith(h.portfolio.computePositionImpacts({ positionId: ids['full']!, reportingYear: 2022 }, me()), 'FAILED_PRECONDITION');
      await rejectsWith(h.portfolio.computePositionImpacts({ positionId: ids['full']!, reportingYear: 2024 }, { caller: h.stranger }), 'NOT_FOUND',
        `No such position ${ids['full']}.`);
      await rejectsWith(h.portfolio.getPositionImpacts({ positionId: 999_999, computeMissing: false }, me()), 'NOT_FOUND', 'No such position 999999.');
    });

    it('totals a portfolio’s and an investor’s impacts per indicator and unit, computing missing ones on request', async () => {
      // A third position, 200 000 SEK from 1 January 2024 for 366 days: τ = 1, P_f = 16 000 EUR, P_f/D = 0.0064.
      const third = await h.portfolio.addPosition(
        { investorIdentifier: 'inv-1', assetIdentifier: 'GB-2029', positionAmount: 200_000, positionCurrencyCode: 'SEK', positionDays: 366 },
        me(),
      );
      ids['third'] = third.id!;
      await h.portfolio.addPortfolio({ investorIdentifier: 'inv-1', portfolioIdentifier: 'pf' }, me());
      for (const id of [ids['full']!, ids['third']!]) {
        await h.portfolio.addPositionToPortfolio({ investorIdentifier: 'inv-1', portfolioIdentifier: 'pf', positionId: id }, me());
      }
      const y = fx[2024];
      const stored = await h.portfolio.getPortfolioImpacts({ portfolioIdentifier: 'pf', reportingYear: 2024, computeMissing: false }, me());
      assert.deepEqual([stored.portfolioIdentifier, stored.investorIdentifier, stored.reportingYear], ['pf', 'inv-1', 2024]);
      assert.deepEqual(stored.positionIdsWithoutImpacts, [ids['third']]);
      assert.equal(stored.impacts.length, 3);

      const all = await h.portfolio.getPortfolioImpacts({ portfolioIdentifier: 'pf', reportingYear: 2024, computeMissing: true }, me());
      assert.deepEqual(all.positionIdsWithoutImpacts, []);
      assert.equal(all.impacts.length, 6);
      const tau = 365 / 366;
      const ghg = all.totals.find((t) => t.indicatorId === y.ghg)!;
      // GHG: full (x now 25 000 and 3 000) = 0.0032·τ·28 000; third = 0.0064·28 000 = 179.2.
      near(ghg.value, 0.0032 * tau * 28_000 + 179.2, 'GHG total');
      assert.deepEqual([ghg.unitId, ghg.unitName, ghg.positionCount, ghg.indicatorName], [y.tco2e, 'tCO2e', 2, 'GHG avoided']);
      const energy = all.totals.find((t) => t.indicatorId === y.energy)!;
      near(energy.value, 12.8 * tau + 25.6, 'energy total'); // 0.0064 · 4 000 = 25.6
      const solar = all.volumeTotals.find((t) => t.subCategoryId === y.solar)!;
      // Once per position, not once per indicator row: 3 200·τ + 6 400.
      near(solar.attributedVolume, 3_200 * tau + 6_400, 'solar volume');
      assert.equal(solar.currencyCode, 'EUR');

      // Totals alone (no records read) are the records' totals (totals.ts), up to rounding.
      const totalsOnly = await h.portfolio.getPortfolioImpacts({ portfolioIdentifier: 'pf', reportingYear: 2024, computeMissing: false, omitRecords: true }, me());
      assert.deepEqual(totalsOnly.impacts, []);
      const fromRecords = indicatorTotals(all.impacts);
      assert.deepEqual(totalsOnly.totals.map((t) => ({ ...t, value: 0 })), fromRecords.map((t) => ({ ...t, value: 0 })));
      totalsOnly.totals.forEach((t, i) => near(t.value, fromRecords[i]!.value, `total ${t.indicatorId}`));
      const volumesFromRecords = subCategoryVolumeTotals(all.impacts);
      assert.equal(totalsOnly.volumeTotals.length, volumesFromRecords.length);
      totalsOnly.volumeTotals.forEach((t, i) => near(t.attributedVolume, volumesFromRecords[i]!.attributedVolume, `volume ${t.subCategoryId}`));

      const investor = await h.portfolio.getInvestorImpacts({ investorIdentifier: 'inv-1', reportingYear: 2024, computeMissing: false }, me());
      // The split position's 2024 records count too.
      near(investor.totals.find((t) => t.indicatorId === y.ghg)!.value, ghg.value + (0.02 * (181 / 366)) * (12_500 + 3_000), 'investor GHG');
      assert.equal(investor.totals.find((t) => t.indicatorId === y.ghg)!.positionCount, 3);
      await rejectsWith(h.portfolio.getInvestorImpacts({ investorIdentifier: 'nobody', reportingYear: 2024, computeMissing: false }, me()), 'NOT_FOUND', 'No such investor.');
      await rejectsWith(h.portfolio.getPortfolioImpacts({ portfolioIdentifier: 'pf', reportingYear: 2024, computeMissing: false }, { caller: h.stranger }), 'NOT_FOUND');
    });

    it('computes a missing year on a position read when asked to', async () => {
      const r = await h.portfolio.addPosition({ investorIdentifier: 'inv-1', assetIdentifier: 'GB-2029', positionAmount: 1, positionCurrencyCode: 'EUR' }, me());
      assert.deepEqual((await h.portfolio.getPositionImpacts({ positionId: r.id!, reportingYear: 2024, computeMissing: false }, me())).impacts, []);
      assert.equal((await h.portfolio.getPositionImpacts({ positionId: r.id!, reportingYear: 2024, computeMissing: true }, me())).impacts.length, 3);
    });

    // Impact rows go with their computation by a statement trigger, not a foreign key: none may be left behind.
    const orphanRows = async (): Promise<number> =>
      (await h.service.dataSource.query(
        `SELECT count(*)::int AS n FROM portfolio.impacts i WHERE NOT EXISTS (SELECT 1 FROM portfolio.impact_computations c WHERE c.id = i.computation_id)`,
      ))[0].n;

    it('removes a position’s impact records with it', async () => {
      assert.equal(await impactRows(ids['split']!), 4);
      await h.portfolio.removePosition({ investorIdentifier: 'inv-1', positionId: ids['split']! }, me());
      assert.equal(await impactRows(ids['split']!), 0);
      const [{ n }] = await h.service.dataSource.query(`SELECT count(*)::int AS n FROM portfolio.impact_computations WHERE position_id = $1`, [ids['split']]);
      assert.equal(n, 0);
      assert.equal(await orphanRows(), 0);
    });

    it('removes the impact records of every position of a removed investor', async () => {
      await h.portfolio.addInvestor({ investorIdentifier: 'inv-gone', investorName: 'Gone Fund', investorCurrencyCode: 'EUR' }, me());
      const added = [];
      for (const amount of [1_000, 2_000]) {
        added.push((await h.portfolio.addPosition({ investorIdentifier: 'inv-gone', assetIdentifier: 'GB-2029', positionAmount: amount, positionCurrencyCode: 'EUR', reportingYear: 2024 }, me())).id!);
      }
      const [{ n: before }] = await h.service.dataSource.query(`SELECT count(*)::int AS n FROM portfolio.impacts`);
      assert.equal(await impactRows(added[0]!), 3);
      await h.portfolio.removeInvestor({ investorIdentifier: 'inv-gone' }, me());
      const [{ n: afterwards }] = await h.service.dataSource.query(`SELECT count(*)::int AS n FROM portfolio.impacts`);
      assert.equal(afterwards, before - 6);
      assert.equal(await orphanRows(), 0);
    });
  });
}

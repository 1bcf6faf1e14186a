import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import { RecomputeScope, RecomputeStatus, type ImpactRecomputeJob } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { createLogger } from '@green-impact/shared/logger';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { FRAMEWORK, loadFixture } from '@green-impact/testing/portfolio/fixture';
import { near, startPortfolioHarness, type PortfolioHarness } from '@green-impact/testing/portfolio/harness';
import { RecomputeJobStore } from './recompute-job-store.js';
import { RecomputeRunner } from './recompute-runner.js';

for (const db of testDatabases) {
  describe(`stale impacts after framework and FX changes on ${db.name}`, { skip: await skipReason(db) }, () => {
    let h: PortfolioHarness;
    let runner: RecomputeRunner | undefined;
    const me = () => ({ caller: h.investor });
    const investorImpacts = (reportingYear: number) =>
      h.portfolio.getInvestorImpacts({ investorIdentifier: 'inv-stale', reportingYear, computeMissing: false }, me());
    /** Waits for the announcement to reach the service: a stale job of the account in one of the states. */
    const staleJob = async (statuses: RecomputeStatus[], notIn: string[] = []): Promise<ImpactRecomputeJob> => {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const { jobs } = await h.portfolio.listImpactRecomputeJobs({ limit: 0, statuses }, me());
        const job = jobs.find((j) => j.scope === RecomputeScope.RECOMPUTE_SCOPE_STALE && !notIn.includes(j.jobId));
        if (job) return job;
        assert.ok(Date.now() < deadline, 'no stale recompute job after the taxonomy change');
        await sleep(50);
      }
    };

    before(async () => {
      h = await startPortfolioHarness(db, { bus: true, recompute: { pollMs: 100, leaseMs: 2_000 } });
      await loadFixture(h.taxonomy, h.issuer);
      await h.portfolio.addAsset(
        { assetIdentifier: 'GB-2029', assetName: 'Green Bond 2029', issuerIdentifier: 'ISSUER-A', frameworkIdentifier: FRAMEWORK, assetCurrencyCode: 'SEK', assetValueOutstanding: 10_000_000, assetVisibility: Visibility.VISIBILITY_PUBLIC },
        { caller: h.issuer },
      );
      await h.portfolio.addInvestor({ investorIdentifier: 'inv-stale', investorName: 'Stale Fund', investorCurrencyCode: 'EUR' }, me());
      for (const amount of [100_000, 200_000, 300_000]) {
        await h.portfolio.addPosition({ investorIdentifier: 'inv-stale', assetIdentifier: 'GB-2029', positionAmount: amount, positionCurrencyCode: 'SEK', reportingYear: 2024 }, me());
      }
      await h.portfolio.addPosition({ investorIdentifier: 'inv-stale', assetIdentifier: 'GB-2029', positionAmount: 50_000, positionCurrencyCode: 'EUR', reportingYear: 2023 }, me());
      // This replica stops working jobs, so the stale state can be seen before a recompute clears it.
      await h.service.stores.recomputeRunner.close();
    });
    after(async () => {
      await runner?.close();
      await h?.stop();
    });

    it('marks the impacts of a changed framework year stale, reads say so until the recompute job finished', async () => {
      const before = await investorImpacts(2024);
      assert.equal(before.stalePositions, 0);
      // L 2 500 000 → 5 000 000: D doubles, every 2024 impact halves. 2023 is another year: untouched.
      await h.taxonomy.addYearSpecificsToFramework(
        { frameworkIdentifier: FRAMEWORK, valueOutstanding: 2_000_000, allocatedAmount: 5_000_000, valueOutstandingFramework: false, reportingYear: 2024 },
        { caller: h.issuer },
      );
      const queued = await staleJob([RecomputeStatus.RECOMPUTE_STATUS_QUEUED]);
      assert.equal(queued.reason, 'taxonomy-change');
      const stale = await investorImpacts(2024);
      assert.equal(stale.stalePositions, 3);
      assert.ok(stale.impacts.length > 0 && stale.impacts.every((r) => r.stale));
      assert.deepEqual(stale.totals, before.totals, 'stale figures are the stored ones until recomputed');
      const other = await investorImpacts(2023);
      assert.equal(other.stalePositions, 0);
      assert.ok(other.impacts.every((r) => !r.stale));

      runner = new RecomputeRunner(h.service.dataSource, new RecomputeJobStore(h.service.dataSource), h.service.stores.impacts, createLogger('stale-test'), { pollMs: 100 });
      runner.start();
      const done = await staleJob([RecomputeStatus.RECOMPUTE_STATUS_COMPLETED]);
      assert.equal(done.jobId, queued.jobId);
      assert.equal(done.done, 3);
      const fresh = await investorImpacts(2024);
      assert.equal(fresh.stalePositions, 0);
      assert.ok(fresh.impacts.every((r) => !r.stale));
      for (const [i, t] of fresh.totals.entries()) near(t.value, before.totals[i]!.value / 2, `total ${t.indicatorName}`);
      assert.ok(fresh.impacts.every((r) => r.attributionDenominator === 5_000_000));
    });

    it('marks impacts stale after an FX rate change and recomputes them with the new rate', async () => {
      const before = await investorImpacts(2024);
      const seen = (await h.portfolio.listImpactRecomputeJobs({ limit: 0, statuses: [] }, me())).jobs.map((j) => j.jobId);
      // SEK/EUR 12.5 → 25: P_f halves for the SEK positions.
      await h.taxonomy.addFxRate({ currencyCodeNumerator: 'SEK', currencyCodeDenominator: 'EUR', currencyCodeQuota: 25, reportingYear: 2024 }, { caller: h.issuer });
      const job = await staleJob([RecomputeStatus.RECOMPUTE_STATUS_COMPLETED], seen);
      assert.equal(job.done, 3, job.error);
      const fresh = await investorImpacts(2024);
      assert.equal(fresh.stalePositions, 0);
      assert.ok(fresh.impacts.every((r) => r.fxRate === 0.04));
      for (const [i, t] of fresh.totals.entries()) near(t.value, before.totals[i]!.value / 2, `total ${t.indicatorName}`);
      // The EUR position of 2023 has no rate to change: never stale.
      assert.equal((await investorImpacts(2023)).stalePositions, 0);
    });

    it('a change that alters no stored input marks nothing (and a check is idempotent)', async () => {
      await h.taxonomy.addUnit({ unitName: 'kWh', reportingYear: 2024 }, { caller: h.issuer });
      const check = await h.service.staleFollower!.request();
      assert.equal(check.marked, 0);
      assert.deepEqual(check.jobs, []);
      assert.equal((await investorImpacts(2024)).stalePositions, 0);
    });
  });
}

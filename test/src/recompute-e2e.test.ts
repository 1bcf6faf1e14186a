import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RunningSystem } from '@green-impact/embedded/system';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { subscriptionClient } from './support/subscriptions.js';
import { createUserAccount, graphqlClient, ok, refused, startTestSystem } from './support/system.js';
import { conformingV1Client } from './support/answer-conformance.js';

const ESG = 'SVC.ESG.Credits';
const OPERATOR = 'recompute-operator-key';
const YEAR = 2024;
const POSITIONS = 12;
const idOf = (message: string): number => Number(/(\d+)\.$/.exec(message)?.[1]);

/**
 * Impact recompute jobs and stale impacts with the whole embedded system: a recompute started through
 * /v1/call and one through GraphQL, each followed to completion (polled, and through the subscription);
 * then a framework change and an FX change through /v1/call make the stored impacts stale, and the job the
 * portfolio service queues for them recomputes them with the new figures. On PGlite and on PostgreSQL.
 */
for (const db of testDatabases) {
  describe(`impact recompute jobs end to end through the gateway on ${db.name}`, { skip: await skipReason(db) }, () => {
    let system: RunningSystem;
    let manager: ReturnType<typeof conformingV1Client>;
    let issuer: ReturnType<typeof conformingV1Client>;
    let op: ReturnType<typeof conformingV1Client>;
    let managerKey: string;

    /** Polls getImpactRecomputeJob as a legacy client would, until the job ended. */
    const finished = async (jobId: string): Promise<any> => {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const job = await ok(manager(ESG, 'getImpactRecomputeJob', { job_id: jobId }), 'getImpactRecomputeJob');
        if (job.status === 'completed' || job.status === 'failed') return job;
        assert.ok(Date.now() < deadline, `job ${jobId} still ${job.status}`);
        await sleep(50);
      }
    };
    const totals = async () => ok(manager(ESG, 'getInvestorImpacts', { investor_identifier: 'inv-e2e', reporting_year: YEAR, include_records: 'no' }), 'getInvestorImpacts');
    /** The next job a taxonomy change queued, once completed. */
    const staleJobAfter = async (seen: string[]): Promise<any> => {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const jobs: any[] = await ok(manager(ESG, 'getImpactRecomputeJobs', {}), 'getImpactRecomputeJobs');
        const job = jobs.find((j) => j.reason === 'taxonomy-change' && !seen.includes(j.job_id) && j.status !== 'queued' && j.status !== 'running');
        if (job) return job;
        assert.ok(Date.now() < deadline, 'no stale recompute job completed after the taxonomy change');
        await sleep(50);
      }
    };

    before(async () => {
      system = await startTestSystem(db, OPERATOR);
      const issuerKey = await createUserAccount(system.gatewayUrl, OPERATOR, 'Issuer');
      managerKey = await createUserAccount(system.gatewayUrl, OPERATOR, 'Manager');
      op = conformingV1Client(system.gatewayUrl, OPERATOR);
      issuer = conformingV1Client(system.gatewayUrl, issuerKey);
      manager = conformingV1Client(system.gatewayUrl, managerKey);
      const id = async (operation: string, params: Record<string, unknown>) =>
        idOf((await ok(op(ESG, operation, { reporting_year: YEAR, language_code: 'en', ...params }), operation)).message);
      const category = await id('addCategory', { category_name: 'Renewable energy' });
      const solar = await id('addSubCategory', { sub_category_name: 'Solar power', category_id: category });
      const unit = await id('addUnit', { unit_name: 'tCO2e' });
      const climate = await id('addSuperIndicator', { super_indicator_name: 'Climate', category_id: category });
      const ghg = await id('addIndicator', { indicator_name: 'GHG avoided', super_indicator_id: climate, unit_id: unit });
      await ok(op(ESG, 'addCurrency', { currency_code: 'SEK' }), 'addCurrency');
      await ok(op(ESG, 'addFXrate', { currency_code_numerator: 'SEK', currency_code_denominator: 'EUR', currency_code_quota: 12.5, reporting_year: YEAR }), 'addFXrate');
      await ok(issuer(ESG, 'addFramework', { framework_identifier: 'GBF', framework_name: 'Green Bond Framework', framework_currency_code: 'EUR', framework_visibility: 'public' }), 'addFramework');
      await ok(issuer(ESG, 'addYearSpecificsToFramework', { framework_identifier: 'GBF', value_outstanding: 2_000_000, allocated_amount: 2_500_000, value_outstanding_framework: 'no', reporting_year: YEAR }), 'specifics');
      await ok(issuer(ESG, 'addCategoryIndicatorToFramework', { framework_identifier: 'GBF', sub_category_id: solar, sub_category_volume: 1_000_000, indicator_id: ghg, indicator_value: 12_500, reporting_year: YEAR }), 'row');
      await ok(issuer(ESG, 'addAsset', { asset_identifier: 'SE0001', asset_name: 'Green bond', issuer_identifier: 'NORDIC', framework_identifier: 'GBF', asset_currency_code: 'SEK', asset_visibility: 'public' }), 'addAsset');
      await ok(manager(ESG, 'addInvestor', { investor_identifier: 'inv-e2e', investor_name: 'Fund', investor_currency_code: 'EUR' }), 'addInvestor');
      for (let i = 1; i <= POSITIONS; i++) {
        await ok(manager(ESG, 'addPosition', { investor_identifier: 'inv-e2e', asset_identifier: 'SE0001', position_amount: 10_000 * i, position_currency_code: 'SEK' }), 'addPosition');
      }
    });
    after(async () => system?.stop());

    it('through /v1/call: startImpactRecompute answers a job id at once; polling shows it completed', async () => {
      const before = await totals();
      assert.equal(before.position_ids_without_impacts.length, POSITIONS);
      const started = await ok(manager(ESG, 'startImpactRecompute', { scope: 'investor', investor_identifier: 'inv-e2e', reporting_year: YEAR }), 'startImpactRecompute');
      assert.equal(started.message, `Recompute job queued with id ${started.job_id}.`);
      assert.equal(started.created, 'yes');
      assert.equal(started.job.scope, 'investor');
      const job = await finished(started.job_id);
      assert.equal(job.status, 'completed', job.error);
      assert.equal(job.done, POSITIONS);
      assert.equal(job.total, POSITIONS);
      const after = await totals();
      assert.deepEqual(after.position_ids_without_impacts, []);
      assert.equal(after.stale_positions, 0);
      // 10 000 · (1 + … + 12) SEK ÷ 12.5 = 62 400 EUR; ÷ D 2 500 000 · 12 500 · τ (365/366).
      assert.ok(Math.abs(after.totals[0].value - (62_400 / 2_500_000) * 12_500 * (365 / 366)) < 1e-9);

      await refused(manager(ESG, 'startImpactRecompute', { scope: 'investor', investor_identifier: 'nobody', reporting_year: YEAR }), 404, 'NOT_FOUND', 'No such investor.');
      await refused(manager(ESG, 'startImpactRecompute', { scope: 'everything' }), 400, 'INVALID_ARGUMENT');
      await refused(manager(ESG, 'getImpactRecomputeJob', { job_id: '00000000-0000-4000-8000-000000000000' }), 404, 'NOT_FOUND');
      await refused(issuer(ESG, 'getImpactRecomputeJob', { job_id: started.job_id }), 404, 'NOT_FOUND');
    });

    it('through GraphQL: startImpactRecompute, then impactRecomputeJobUpdated until COMPLETED, and impactRecomputeJob', async () => {
      const gql = graphqlClient(system.gatewayUrl, managerKey);
      const res = await gql('mutation { startImpactRecompute(scope: ACCOUNT, year: 2024) { message created job { id status scope year } } }');
      assert.equal(res.errors, undefined, JSON.stringify(res.errors));
      const { job } = res.data.startImpactRecompute;
      assert.equal(job.scope, 'ACCOUNT');
      assert.equal(job.year, YEAR);
      const ws = subscriptionClient(system.gatewayUrl, managerKey);
      const seen: any[] = [];
      try {
        const updates = ws.iterate<{ impactRecomputeJobUpdated: any }>({
          query: 'subscription($id: ID!) { impactRecomputeJobUpdated(id: $id) { id status done total } }',
          variables: { id: job.id },
        });
        for await (const update of updates) {
          assert.equal(update.errors, undefined, JSON.stringify(update.errors));
          seen.push(update.data!.impactRecomputeJobUpdated);
        }
      } finally {
        await ws.dispose();
      }
      assert.deepEqual(seen.at(-1), { id: job.id, status: 'COMPLETED', done: POSITIONS, total: POSITIONS });
      const read = await gql('query($id: ID!) { impactRecomputeJob(id: $id) { status done error reason attempts finishedAt } completed: impactRecomputeJobs(status: COMPLETED) { totalCount } }', { id: job.id });
      assert.equal(read.errors, undefined, JSON.stringify(read.errors));
      assert.deepEqual({ ...read.data.impactRecomputeJob, finishedAt: typeof read.data.impactRecomputeJob.finishedAt }, {
        status: 'COMPLETED', done: POSITIONS, error: null, reason: 'requested', attempts: 1, finishedAt: 'string',
      });
      assert.equal(read.data.completed.totalCount, 2);
    });

    it('a framework change and an FX change make the impacts stale; the queued job recomputes them', async () => {
      const before = await totals();
      const seen = (await ok(manager(ESG, 'getImpactRecomputeJobs', {}), 'jobs')).map((j: any) => j.job_id);
      // L 2 500 000 → 5 000 000: D doubles.
      await ok(issuer(ESG, 'addYearSpecificsToFramework', { framework_identifier: 'GBF', value_outstanding: 2_000_000, allocated_amount: 5_000_000, value_outstanding_framework: 'no', reporting_year: YEAR }), 'specifics');
      const first = await staleJobAfter(seen);
      assert.equal(first.status, 'completed', first.error);
      assert.equal(first.scope, 'stale');
      const halved = await totals();
      assert.equal(halved.stale_positions, 0);
      assert.ok(Math.abs(halved.totals[0].value - before.totals[0].value / 2) < 1e-9);

      // 12.5 → 25 SEK per EUR: P_f halves.
      await ok(op(ESG, 'addFXrate', { currency_code_numerator: 'SEK', currency_code_denominator: 'EUR', currency_code_quota: 25, reporting_year: YEAR }), 'addFXrate');
      const second = await staleJobAfter([...seen, first.job_id]);
      assert.equal(second.status, 'completed', second.error);
      const quartered = await ok(manager(ESG, 'getInvestorImpacts', { investor_identifier: 'inv-e2e', reporting_year: YEAR }), 'records');
      assert.ok(Math.abs(quartered.totals[0].value - before.totals[0].value / 4) < 1e-9);
      assert.ok(quartered.impacts.every((r: any) => r.stale === 'no' && r.fx_rate === 0.04));
    });
  });
}

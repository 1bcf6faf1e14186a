import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import { RecomputeScope, RecomputeStatus, type ImpactRecomputeJob } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { FRAMEWORK, loadFixture } from '@green-impact/testing/portfolio/fixture';
import { rejectsWith, startPortfolioHarness, type PortfolioHarness } from '@green-impact/testing/portfolio/harness';

const POSITIONS = 25;
const TERMINAL = new Set([RecomputeStatus.RECOMPUTE_STATUS_COMPLETED, RecomputeStatus.RECOMPUTE_STATUS_FAILED]);

for (const db of testDatabases) {
  describe(`impact recompute jobs on ${db.name}`, { skip: await skipReason(db) }, () => {
    let h: PortfolioHarness;
    const me = () => ({ caller: h.investor });
    const positionIds: number[] = [];
    const computedAt = async (): Promise<Map<number, string>> => {
      const rows: { positionId: number; at: Date }[] = await h.service.dataSource.query(
        `SELECT position_id AS "positionId", computed_at AS at FROM portfolio.impact_computations WHERE position_id = ANY($1) AND reporting_year = 2024`,
        [positionIds],
      );
      return new Map(rows.map((r) => [r.positionId, r.at.toISOString()]));
    };
    /** The rows of this account's recompute jobs of one scope and year, as the table holds them. */
    const jobsOf = (scope: string, year: number): Promise<{ id: string; status: string }[]> =>
      h.service.dataSource.query(
        `SELECT id, status FROM portfolio.recompute_jobs WHERE account_id = $1 AND scope = $2 AND reporting_year = $3 ORDER BY created_at`,
        [h.investor.accountId, scope, year],
      );
    /** Polls the job as a client would, until it ended. */
    const finished = async (jobId: string, timeoutMs = 30_000): Promise<ImpactRecomputeJob> => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const { job } = await h.portfolio.getImpactRecomputeJob({ jobId }, me());
        if (job && TERMINAL.has(job.status)) return job;
        assert.ok(Date.now() < deadline, `job ${jobId} still ${job?.status} after ${timeoutMs} ms`);
        await sleep(50);
      }
    };

    before(async () => {
      // Batches of 10 positions: 25 positions are 3 batches (3 transactions).
      h = await startPortfolioHarness(db, { recompute: { batchSize: 10, leaseMs: 1_000, pollMs: 200 } });
      await loadFixture(h.taxonomy, h.issuer);
      await h.portfolio.addAsset(
        { assetIdentifier: 'GB-2029', assetName: 'Green Bond 2029', issuerIdentifier: 'ISSUER-A', frameworkIdentifier: FRAMEWORK, assetCurrencyCode: 'SEK', assetValueOutstanding: 10_000_000, assetVisibility: Visibility.VISIBILITY_PUBLIC },
        { caller: h.issuer },
      );
      await h.portfolio.addInvestor({ investorIdentifier: 'inv-jobs', investorName: 'Jobs Fund', investorCurrencyCode: 'EUR' }, me());
      await h.portfolio.addPortfolio({ investorIdentifier: 'inv-jobs', portfolioIdentifier: 'core' }, me());
      for (let i = 0; i < POSITIONS; i++) {
        const { id } = await h.portfolio.addPosition(
          { investorIdentifier: 'inv-jobs', assetIdentifier: 'GB-2029', positionAmount: 1_000 * (i + 1), positionCurrencyCode: 'SEK' },
          me(),
        );
        positionIds.push(id!);
        if (i % 2 === 0) await h.portfolio.addPositionToPortfolio({ investorIdentifier: 'inv-jobs', portfolioIdentifier: 'core', positionId: id! }, me());
      }
    });
    after(async () => {
      await h?.stop();
    });

    it('recomputes an investor as a job: the id at once, then progress to completion in batches', async () => {
      const started = await h.portfolio.startImpactRecompute({ scope: RecomputeScope.RECOMPUTE_SCOPE_INVESTOR, investorIdentifier: 'inv-jobs', portfolioIdentifier: '', reportingYear: 2024 }, me());
      assert.equal(started.created, true);
      assert.match(started.job!.jobId, /^[0-9a-f-]{36}$/);
      assert.equal(started.message, `Recompute job queued with id ${started.job!.jobId}.`);
      assert.equal(started.job!.scopeIdentifier, 'inv-jobs');
      assert.equal(started.job!.reason, 'requested');

      const job = await finished(started.job!.jobId);
      assert.equal(job.status, RecomputeStatus.RECOMPUTE_STATUS_COMPLETED, job.error);
      assert.equal(job.done, POSITIONS);
      assert.equal(job.total, POSITIONS);
      assert.equal(job.attempts, 1);
      assert.ok(job.startedAt && job.finishedAt);
      assert.equal((await computedAt()).size, POSITIONS);
      const totals = await h.portfolio.getInvestorImpacts({ investorIdentifier: 'inv-jobs', reportingYear: 2024, computeMissing: false, omitRecords: true }, me());
      assert.deepEqual(totals.positionIdsWithoutImpacts, []);
      assert.equal(totals.stalePositions, 0);
    });

    it('recomputes a portfolio, and says what it did on a second run (idempotent)', async () => {
      const before = await h.portfolio.getPortfolioImpacts({ portfolioIdentifier: 'core', reportingYear: 2024, computeMissing: false }, me());
      for (let run = 0; run < 2; run++) {
        const { job } = await h.portfolio.startImpactRecompute({ scope: RecomputeScope.RECOMPUTE_SCOPE_PORTFOLIO, investorIdentifier: '', portfolioIdentifier: 'core', reportingYear: 2024 }, me());
        const done = await finished(job!.jobId);
        assert.equal(done.status, RecomputeStatus.RECOMPUTE_STATUS_COMPLETED, done.error);
        assert.equal(done.done, Math.ceil(POSITIONS / 2));
      }
      const afterRuns = await h.portfolio.getPortfolioImpacts({ portfolioIdentifier: 'core', reportingYear: 2024, computeMissing: false }, me());
      assert.deepEqual(afterRuns.totals, before.totals);
      assert.deepEqual(afterRuns.impacts.map(({ computedAt: _, id: _id, ...r }) => r), before.impacts.map(({ computedAt: _, id: _id, ...r }) => r));
    });

    it('takes over a job left running by a replica that died, and resumes after its last batch', async () => {
      const before = await computedAt();
      const cursor = positionIds[9]!;
      const [{ id }] = await h.service.dataSource.query(
        `INSERT INTO portfolio.recompute_jobs (id, account_id, account_role, scope, scope_identifier, reporting_year, reason, status,
           total, done, cursor, attempts, owner, heartbeat_at, started_at)
         VALUES (gen_random_uuid(), $1, 'user', 'account', '', 2024, 'requested', 'running', $2, 10, $3, 1, 'dead-replica',
           now() - interval '1 hour', now() - interval '1 hour')
         RETURNING id`,
        [h.investor.accountId, POSITIONS, cursor],
      );
      h.service.stores.recomputeRunner.kick();
      const job = await finished(id);
      assert.equal(job.status, RecomputeStatus.RECOMPUTE_STATUS_COMPLETED, job.error);
      assert.equal(job.attempts, 2);
      assert.equal(job.done, POSITIONS);
      const afterTakeover = await computedAt();
      for (const pid of positionIds) {
        if (pid <= cursor) assert.equal(afterTakeover.get(pid), before.get(pid), `position ${pid} was done before the crash`);
        else assert.notEqual(afterTakeover.get(pid), before.get(pid), `position ${pid} is recomputed`);
      }
    });

    it('fails a job with the reason when an input is missing, and keeps other accounts apart', async () => {
      const { job } = await h.portfolio.startImpactRecompute({ scope: RecomputeScope.RECOMPUTE_SCOPE_ACCOUNT, investorIdentifier: '', portfolioIdentifier: '', reportingYear: 2022 }, me());
      const failed = await finished(job!.jobId);
      assert.equal(failed.status, RecomputeStatus.RECOMPUTE_STATUS_FAILED);
      assert.match(failed.error, /2022/);
      assert.equal(failed.done, 0);
      await rejectsWith(h.portfolio.getImpactRecomputeJob({ jobId: job!.jobId }, { caller: h.stranger }), 'NOT_FOUND', `No such recompute job "${job!.jobId}".`);
      const { jobs } = await h.portfolio.listImpactRecomputeJobs({ limit: 0, statuses: [RecomputeStatus.RECOMPUTE_STATUS_FAILED] }, me());
      assert.deepEqual(jobs.map((j) => j.jobId), [job!.jobId]);
      assert.deepEqual((await h.portfolio.listImpactRecomputeJobs({ limit: 0, statuses: [] }, { caller: h.stranger })).jobs, []);
    });

    it('keeps the person who started it (a bearer token\'s subject and issuer); an API-key start names nobody', async () => {
      const person = { caller: { ...h.investor, subject: 'kim@idp', issuer: 'https://login.example.com/' } };
      const { job } = await h.portfolio.startImpactRecompute({ scope: RecomputeScope.RECOMPUTE_SCOPE_ACCOUNT, investorIdentifier: '', portfolioIdentifier: '', reportingYear: 2021 }, person);
      assert.deepEqual(job!.actedBy, { subject: 'kim@idp', issuer: 'https://login.example.com/' });
      assert.deepEqual((await finished(job!.jobId)).actedBy, { subject: 'kim@idp', issuer: 'https://login.example.com/' }, 'read back with an API key');
      const [row] = await h.service.dataSource.query(`SELECT acted_by_subject AS s, acted_by_issuer AS i FROM portfolio.recompute_jobs WHERE id = $1`, [job!.jobId]);
      assert.deepEqual(row, { s: 'kim@idp', i: 'https://login.example.com/' });
      const byKey = await h.portfolio.startImpactRecompute({ scope: RecomputeScope.RECOMPUTE_SCOPE_ACCOUNT, investorIdentifier: '', portfolioIdentifier: '', reportingYear: 2020 }, me());
      assert.equal((await finished(byKey.job!.jobId)).actedBy, undefined);
    });

    it('answers a start of a recompute that another replica is running with that job, never a second one', async () => {
      const [{ investorId }] = await h.service.dataSource.query(
        `SELECT id AS "investorId" FROM portfolio.investors WHERE account_id = $1 AND investor_identifier = 'inv-jobs'`,
        [h.investor.accountId],
      );
      // A job of this recompute running on a replica that keeps its lease (heartbeat ahead of now): nothing here takes it over.
      const [{ id }] = await h.service.dataSource.query(
        `INSERT INTO portfolio.recompute_jobs (id, account_id, account_role, scope, scope_identifier, scope_id, reporting_year, reason, status,
           total, done, cursor, attempts, owner, heartbeat_at, started_at)
         VALUES (gen_random_uuid(), $1, 'user', 'investor', 'inv-jobs', $2, 2019, 'requested', 'running', $3, 0, 0, 1, 'live-replica',
           now() + interval '1 hour', now())
         RETURNING id`,
        [h.investor.accountId, investorId, POSITIONS],
      );
      const start = () => h.portfolio.startImpactRecompute({ scope: RecomputeScope.RECOMPUTE_SCOPE_INVESTOR, investorIdentifier: 'inv-jobs', portfolioIdentifier: '', reportingYear: 2019 }, me());
      const answers = await Promise.all([start(), start()]);
      assert.deepEqual(answers.map((a) => [a.created, a.job!.jobId, a.job!.status]), [
        [false, id, RecomputeStatus.RECOMPUTE_STATUS_RUNNING],
        [false, id, RecomputeStatus.RECOMPUTE_STATUS_RUNNING],
      ]);
      assert.deepEqual(await jobsOf('investor', 2019), [{ id, status: 'running' }]);
      await h.service.dataSource.query(`UPDATE portfolio.recompute_jobs SET status = 'failed', finished_at = now() WHERE id = $1`, [id]);
    });

    it('refuses a start without what its scope needs', async () => {
      await rejectsWith(h.portfolio.startImpactRecompute({ scope: RecomputeScope.RECOMPUTE_SCOPE_INVESTOR, investorIdentifier: 'nobody', portfolioIdentifier: '', reportingYear: 2024 }, me()), 'NOT_FOUND', 'No such investor.');
      await rejectsWith(h.portfolio.startImpactRecompute({ scope: RecomputeScope.RECOMPUTE_SCOPE_PORTFOLIO, investorIdentifier: '', portfolioIdentifier: 'core', reportingYear: undefined }, me()), 'INVALID_ARGUMENT', 'reporting_year is required.');
      await rejectsWith(h.portfolio.startImpactRecompute({ scope: RecomputeScope.RECOMPUTE_SCOPE_UNSPECIFIED, investorIdentifier: '', portfolioIdentifier: '', reportingYear: 2024 }, me()), 'INVALID_ARGUMENT');
      await rejectsWith(h.portfolio.getImpactRecomputeJob({ jobId: 'not-a-job' }, me()), 'NOT_FOUND');
    });

    // Last: it stops this replica's runner, so queued jobs stay queued and the answers below cannot depend
    // on how fast a job finishes.
    it('two starts of the same recompute at once make one job, and a start while it is queued answers it', async () => {
      await h.service.stores.recomputeRunner.close();
      const start = () => h.portfolio.startImpactRecompute({ scope: RecomputeScope.RECOMPUTE_SCOPE_PORTFOLIO, investorIdentifier: '', portfolioIdentifier: 'core', reportingYear: 2018 }, me());
      const both = await Promise.all([start(), start()]);
      assert.deepEqual(both.map((a) => a.created).sort(), [false, true], 'exactly one of the two starts creates the job');
      assert.equal(both[0]!.job!.jobId, both[1]!.job!.jobId);
      const later = await start();
      assert.deepEqual([later.created, later.job!.jobId, later.job!.status], [false, both[0]!.job!.jobId, RecomputeStatus.RECOMPUTE_STATUS_QUEUED]);
      assert.deepEqual(await jobsOf('portfolio', 2018), [{ id: both[0]!.job!.jobId, status: 'queued' }]);
    });
  });
}

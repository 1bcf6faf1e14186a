import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { createScratchPostgresDatabase, skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { ESG, idOf, seedReferenceData, YEAR } from './support/dataset.js';
import { topologyEnv, topologyPorts } from './support/distributed.js';
import { startProcesses, type ProcessSet } from './support/processes.js';
import { createUserAccount, ok, v1Client } from './support/system.js';

const postgres = testDatabases.find((d) => d.name === 'postgresql')!;
const OPERATOR = `gi_${randomBytes(32).toString('base64url')}`; // BOOTSTRAP_API_KEY: random (a weak one is refused at start)
const POSITIONS = 2_000;
const ROWS_PER_POSITION = 2;
const BATCH = 10;

/**
 * A recompute job survives its portfolio process being SIGKILLed in the middle: the process runs on a
 * scratch PostgreSQL database with small batches (RECOMPUTE_BATCH) and a short lease; once some batches
 * committed but not all it is killed, a new process takes the job over when the lease expired, and the
 * stored records are exactly positions × rows, none doubled, with the figures of a fresh recompute.
 */
describe('a recompute job resumed after its portfolio process was SIGKILLed', { skip: await skipReason(postgres), timeout: 120_000 }, () => {
  let db: { url: string; stop(): Promise<void> };
  let procs: ProcessSet | undefined;
  let sql: pg.Client;
  let manager: ReturnType<typeof v1Client>;

  before(async () => {
    db = await createScratchPostgresDatabase();
    const env = topologyEnv(await topologyPorts(), {
      DATABASE_URL: db.url,
      DATABASE_POOL_SIZE: '4',
      BOOTSTRAP_API_KEY: OPERATOR,
      RATE_LIMIT_PER_KEY: '0', // the seeding adds positions 16 at a time with one key
      RATE_LIMIT_PER_ADDRESS: '0',
      RECOMPUTE_BATCH: String(BATCH),
      RECOMPUTE_JOB_LEASE_MS: '1000',
      RECOMPUTE_JOB_POLL_MS: '200',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
    });
    procs = await startProcesses(env, ['identity', 'taxonomy', 'portfolio', 'gateway']);
    const op = v1Client(procs.url, OPERATOR);
    const issuer = v1Client(procs.url, await createUserAccount(procs.url, OPERATOR, 'Resume Issuer'));
    manager = v1Client(procs.url, await createUserAccount(procs.url, OPERATOR, 'Resume Manager'));
    const tax = await seedReferenceData(op);
    const second = idOf((await ok(op(ESG, 'addIndicator', { reporting_year: YEAR, language_code: 'en', indicator_name: 'GHG avoided', super_indicator_id: tax.superIndicator, unit_id: tax.unit }), 'addIndicator')).message);
    const indicators = [tax.indicator, second];
    const solar = tax.subCategory;
    await ok(issuer(ESG, 'addFramework', { framework_identifier: 'GBF', framework_name: 'Green Bond Framework', framework_currency_code: 'EUR', framework_visibility: 'public' }), 'addFramework');
    await ok(issuer(ESG, 'addYearSpecificsToFramework', { framework_identifier: 'GBF', value_outstanding: 2_000_000_000, allocated_amount: 1_800_000_000, value_outstanding_framework: 'no', reporting_year: YEAR }), 'specifics');
    for (const [i, indicator] of indicators.entries()) {
      await ok(issuer(ESG, 'addCategoryIndicatorToFramework', { framework_identifier: 'GBF', sub_category_id: solar, sub_category_volume: 1_000_000, indicator_id: indicator, indicator_value: 12_500 + i, reporting_year: YEAR }), 'row');
    }
    await ok(issuer(ESG, 'addAsset', { asset_identifier: 'SE0001', asset_name: 'Green bond', issuer_identifier: 'NORDIC', framework_identifier: 'GBF', asset_currency_code: 'SEK', asset_visibility: 'public' }), 'addAsset');
    await ok(manager(ESG, 'addInvestor', { investor_identifier: 'inv-kill', investor_name: 'Fund', investor_currency_code: 'EUR' }), 'addInvestor');
    let next = 0;
    // Four writers of one account: its share of the portfolio service's pool (half of it) bounds a flood, and
    // on a loaded machine 16 at once waited past its 1 s and were refused 503 "please retry" (pool-share.ts).
    // A client retries that answer, as the message says; so does this setup.
    const addPosition = async (i: number) => {
      const params = { investor_identifier: 'inv-kill', asset_identifier: 'SE0001', position_amount: 10_000 + i, position_currency_code: i % 2 ? 'SEK' : 'EUR' };
      for (let attempt = 1; ; attempt++) {
        const res = await manager(ESG, 'addPosition', params);
        if (res.status !== 503 || attempt === 5) return ok(Promise.resolve(res), 'addPosition');
        await new Promise((r) => setTimeout(r, 200 * attempt));
      }
    };
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let i; (i = next++) < POSITIONS; ) await addPosition(i);
      }),
    );
    sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
  });

  after(async () => {
    await sql?.end();
    const exits = await procs?.stop();
    await db?.stop();
    // The portfolio process was killed on purpose; everything else stops cleanly.
    assert.deepEqual(exits?.filter((e) => e.code !== 0), [], procs?.output().slice(-4000));
  });

  const job = async (jobId: string) => ok(manager(ESG, 'getImpactRecomputeJob', { job_id: jobId }), 'getImpactRecomputeJob');
  const start = async () => (await ok(manager(ESG, 'startImpactRecompute', { scope: 'investor', investor_identifier: 'inv-kill', reporting_year: YEAR }), 'startImpactRecompute')).job_id as string;
  /** The progress every poll saw, per job: it may only grow, across the kill too. */
  const progress: number[] = [];
  const completed = async (jobId: string) => {
    progress.length = 0;
    const deadline = Date.now() + 60_000;
    for (;;) {
      // Right after the restart the gateway may still be reconnecting (503 UNAVAILABLE): asked again.
      const res = await manager(ESG, 'getImpactRecomputeJob', { job_id: jobId });
      const j = res.status === 503 ? { status: 'unreachable' } : await ok(Promise.resolve(res), 'getImpactRecomputeJob');
      if (typeof j.done === 'number') progress.push(j.done);
      if (j.status === 'completed' || j.status === 'failed') return j;
      assert.ok(Date.now() < deadline, `job ${jobId} still ${JSON.stringify(j)}`);
      await sleep(100);
    }
  };
  const stored = async () => {
    const { rows } = await sql.query(
      `SELECT count(*)::int AS rows, count(DISTINCT (c.position_id, i.sub_category_id, i.indicator_id))::int AS distinct_rows,
              count(DISTINCT c.position_id)::int AS positions, sum(i.value) AS value, sum(i.attributed_volume) AS volume
         FROM portfolio.impacts i JOIN portfolio.impact_computations c ON c.id = i.computation_id WHERE c.reporting_year = $1`,
      [YEAR],
    );
    return rows[0] as { rows: number; distinct_rows: number; positions: number; value: number; volume: number };
  };

  it('a new process takes the job over after the kill and stores every row exactly once', async () => {
    // The records written when the positions were added go, so only the job can bring them back.
    await sql.query('DELETE FROM portfolio.impact_computations WHERE reporting_year = $1', [YEAR]);
    const jobId = await start();
    let seen: { done: number; total: number } = { done: 0, total: 0 };
    for (;;) {
      const j = await job(jobId);
      seen = { done: j.done, total: j.total };
      if (j.done > 0) break;
      await sleep(10);
    }
    await procs!.kill('portfolio');
    const atKill = (await sql.query('SELECT done, total, status FROM portfolio.recompute_jobs WHERE id = $1', [jobId])).rows[0];
    assert.ok(atKill.done >= seen.done && atKill.done < POSITIONS, `killed mid-job: ${JSON.stringify(atKill)}`);
    assert.equal(atKill.done % BATCH, 0, 'progress counts whole batches');
    const partial = await stored();
    assert.equal(partial.rows, atKill.done * ROWS_PER_POSITION, 'the committed batches, and only they, are stored');

    await procs!.restart('portfolio').catch((err: Error) => assert.fail(`${err.message}:\n${procs!.output().slice(-3000)}`));
    const finished = await completed(jobId);
    assert.deepEqual({ status: finished.status, done: finished.done, total: finished.total }, { status: 'completed', done: POSITIONS, total: POSITIONS });
    assert.ok(progress.every((done, i) => done >= (i ? progress[i - 1]! : atKill.done)), `progress went back: ${atKill.done} then ${progress.join(', ')}`);
    const resumed = await stored();
    assert.deepEqual({ rows: resumed.rows, distinct: resumed.distinct_rows, positions: resumed.positions }, { rows: POSITIONS * ROWS_PER_POSITION, distinct: POSITIONS * ROWS_PER_POSITION, positions: POSITIONS });

    // A fresh recompute by the new process finds the same figures.
    assert.equal((await completed(await start())).status, 'completed');
    const fresh = await stored();
    assert.equal(fresh.rows, POSITIONS * ROWS_PER_POSITION);
    assert.ok(Math.abs(fresh.value - resumed.value) <= 1e-9 * Math.abs(fresh.value), `${fresh.value} vs ${resumed.value}`);
    assert.ok(Math.abs(fresh.volume - resumed.volume) <= 1e-9 * Math.abs(fresh.volume), `${fresh.volume} vs ${resumed.volume}`);
  });
});

// (b) at 100 000 positions: one investor's positions (BENCH_SCALE100K_N, default 100 000) in the two assets
// of a framework with 24 rows, recomputed and stored through the tracked recompute job
// (startImpactRecompute, then getImpactRecomputeJob polled with its progress printed): firstComputeMs from
// the start until the job completed, then the stored rows counted in PostgreSQL. Six positions are added
// through /v1/call (each asset, currency and holding kind); the others are copies of them with other amounts
// inserted in one statement, since adding 100 000 through the API would take minutes and measure nothing here.
// The figure goes with the 1-minute load average as the job starts and ends and with the CPU time the job took
// (lib/cpu.mjs: the system's process and the PostgreSQL backends of the scratch database), which says more than
// the wall time on a shared machine.
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { cpuProbe, pidsGroup, postgresBackendsGroup } from './cpu.mjs';
import { ESG } from './http.mjs';
import { POSTGRES_SERVER_URL } from './system.mjs';
import { scaleFramework } from './impact-scale.mjs';

const round = (x, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
const SEEDS = 6;

export async function impactsAt100k({ client, data, year, positions: n, databaseUrl, systemPid, progress }) {
  const me = (operation, parameters) => client.v1(data.key, ESG, operation, parameters);
  const investor = 'INV-100K';
  const { rows, assets } = await scaleFramework(me, data, year, '100K');
  await me('addInvestor', { investor_identifier: investor, investor_name: 'Investor at 100k', investor_currency_code: 'EUR' });
  const currencies = ['EUR', 'SEK', 'USD'];
  for (let i = 0; i < SEEDS; i++) {
    await me('addPosition', { investor_identifier: investor, asset_identifier: assets[i % 2], position_amount: 10_000 + i * 100, position_currency_code: currencies[i % 3], position_days: 365, ...(i % 4 ? { position_start_date: '2024-03-01' } : {}) });
  }
  const sql = new pg.Client({ connectionString: databaseUrl });
  await sql.connect();
  const backends = await postgresBackendsGroup(POSTGRES_SERVER_URL, new URL(databaseUrl).pathname.slice(1));
  const cpu = cpuProbe({ system: pidsGroup(systemPid), postgresql: backends });
  try {
    const seedStart = performance.now();
    await sql.query(
      `WITH seed AS (
         SELECT row_number() OVER (ORDER BY p.id) - 1 AS k, p.*
           FROM portfolio.positions p JOIN portfolio.investors i ON i.id = p.investor_id
          WHERE i.investor_identifier = $1 AND i.account_id = $2)
       INSERT INTO portfolio.positions (account_id, investor_id, asset_id, amount, currency_code, days, start_date)
       SELECT s.account_id, s.investor_id, s.asset_id, s.amount + (g % 997) * 100, s.currency_code, s.days, s.start_date
         FROM generate_series(1, $3::int) g JOIN seed s ON s.k = g % ${SEEDS}`,
      [investor, data.accountId, n - SEEDS],
    );
    progress(`seeded ${n} positions of ${investor} (${rows} framework rows) in ${round((performance.now() - seedStart) / 1000, 1)} s`);

    const loadAtStart = round(loadavg()[0]);
    const cpuBefore = await cpu.sample();
    const started = performance.now();
    const { job_id: jobId } = await me('startImpactRecompute', { scope: 'investor', investor_identifier: investor, reporting_year: year });
    let job;
    let printed = 0;
    for (;;) {
      job = await me('getImpactRecomputeJob', { job_id: jobId });
      if (job.status === 'completed' || job.status === 'failed') break;
      if (performance.now() - printed > 2_000) {
        printed = performance.now();
        progress(`recompute job ${job.status}: ${job.done} / ${job.total} positions after ${round((performance.now() - started) / 1000, 1)} s`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const firstComputeMs = round(performance.now() - started);
    const loadAverage1m = [loadAtStart, round(loadavg()[0])];
    const { system: systemCpuMs, postgresql: postgresqlCpuMs, pidsChanged } = cpu.perRequest(cpuBefore, await cpu.sample(), 1);
    const stored = (
      await sql.query(
        `SELECT count(*)::int AS n FROM portfolio.impacts m JOIN portfolio.impact_computations c ON c.id = m.computation_id
           JOIN portfolio.positions p ON p.id = c.position_id JOIN portfolio.investors i ON i.id = p.investor_id
          WHERE i.investor_identifier = $1 AND i.account_id = $2 AND c.reporting_year = $3`,
        [investor, data.accountId, year],
      )
    ).rows[0].n;
    progress(`recompute job ${job.status}: ${job.done} / ${job.total} positions, ${stored} rows stored in ${firstComputeMs} ms (load average ${loadAverage1m.join(' → ')}; CPU ${systemCpuMs} ms in the system, ${postgresqlCpuMs} ms in PostgreSQL)`);
    return { positions: n, frameworkRows: rows, impactRows: n * rows, status: job.status, error: job.error || undefined, storedRows: stored, firstComputeMs, goalMs: 20_000, loadAverage1m, systemCpuMs, postgresqlCpuMs, ...(pidsChanged ? { pidsChanged } : {}) };
  } finally {
    await backends.close();
    await sql.end();
  }
}

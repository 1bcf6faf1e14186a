// (b) at portfolio scale: one investor with N positions (default 10 000) in assets of a framework with
// 24 rows, all of them in one portfolio, seeded through PortfolioService over gRPC. Measures the
// set-based recompute and store of every position's impacts, then the reads of the investor's and the
// portfolio's impacts (totals, without the 240 000 records) through gRPC, /v1/call and GraphQL.
import { mkdtempSync, readdirSync, renameSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ESG, pool } from './http.mjs';
import { cpuProbe, postgresBackendsGroup } from './cpu.mjs';
import { startProductionShape } from './overhead-distributed.mjs';
import { streamedRead } from './streamed-read.mjs';
import { POSTGRES_SERVER_URL } from './system.mjs';

const round = (x, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

async function timed(fn) {
  const s = performance.now();
  const result = await fn();
  return { ms: performance.now() - s, result };
}

/** Median ms of `runs` sequential calls (after one warm-up). */
async function medianMs(fn, runs = 5) {
  await fn();
  const times = [];
  for (let i = 0; i < runs; i++) times.push((await timed(fn)).ms);
  times.sort((a, b) => a - b);
  return round(times[Math.floor(times.length / 2)]);
}

/**
 * A private framework (suffix names it) with 4 rows per sub-category of the seeded taxonomy (24) and two
 * assets of it, in EUR and SEK; answers the framework's row count and the asset identifiers.
 */
export async function scaleFramework(me, data, year, suffix) {
  const framework = `GBF-${suffix}`;
  await me('addFramework', { framework_identifier: framework, framework_name: 'Framework at scale', framework_currency_code: 'EUR', framework_visibility: 'private' });
  await me('addYearSpecificsToFramework', { framework_identifier: framework, value_outstanding: 20_000_000_000, allocated_amount: 18_000_000_000, value_outstanding_framework: 'no', reporting_year: year });
  const indicators = [...new Set(data.tax.subCategories.flatMap((s) => s.indicators))];
  let rows = 0;
  for (const [k, { subCategory }] of data.tax.subCategories.entries()) {
    for (let j = 0; j < 4; j++) {
      const indicator = indicators[(k + j) % indicators.length];
      await me('addCategoryIndicatorToFramework', { framework_identifier: framework, sub_category_id: subCategory, sub_category_volume: 80_000_000 + k, indicator_id: indicator, indicator_value: 2_000 + k * 10 + j, reporting_year: year });
      rows++;
    }
  }
  const assets = [`XS-${suffix}-EUR`, `XS-${suffix}-SEK`];
  for (const [i, asset] of assets.entries()) {
    await me('addAsset', { asset_identifier: asset, asset_name: `Scale bond ${i}`, issuer_identifier: `ISSUER-${suffix}`, framework_identifier: framework, asset_currency_code: i ? 'SEK' : 'EUR', asset_value_outstanding: 1_000_000_000 });
  }
  return { framework, rows, assets };
}

export async function impactsAtScale({ client, grpc, data, year, positions: n, progress, gatewayUrl, systemPid, cpu }) {
  const caller = { accountId: data.accountId, role: 'user' };
  const me = (operation, parameters) => client.v1(data.key, ESG, operation, parameters);
  const investor = 'INV-SCALE';
  const portfolio = 'PF-SCALE';
  progress(`framework GBF-SCALE with 24 rows, ${n} positions of ${investor} in portfolio ${portfolio}…`);
  const { rows, assets } = await scaleFramework(me, data, year, 'SCALE');
  await me('addInvestor', { investor_identifier: investor, investor_name: 'Investor at scale', investor_currency_code: 'EUR' });
  await me('addPortfolio', { investor_identifier: investor, portfolio_identifier: portfolio });
  const currencies = ['EUR', 'SEK', 'USD'];
  const seedStart = performance.now();
  const ids = await pool(Array.from({ length: n }, (_, i) => i), 16, async (i) => {
    const { id } = await grpc.portfolio.addPosition(
      { investorIdentifier: investor, assetIdentifier: assets[i % 2], positionAmount: 10_000 + (i % 997) * 100, positionCurrencyCode: currencies[i % 3], positionDays: 365, ...(i % 4 ? { positionStartDate: '2024-03-01' } : {}) },
      { caller },
    );
    await grpc.portfolio.addPositionToPortfolio({ investorIdentifier: investor, portfolioIdentifier: portfolio, positionId: id }, { caller });
    return id;
  });
  progress(`seeded ${ids.length} positions in ${round((performance.now() - seedStart) / 1000, 1)} s`);

  // The first computation of every position: GetInvestorImpacts with compute_missing (set-based).
  const first = await timed(() =>
    grpc.portfolio.getInvestorImpacts({ investorIdentifier: investor, reportingYear: year, computeMissing: true, omitRecords: true }, { caller }),
  );
  const stored = first.result.totals.reduce((s, t) => s + t.positionCount, 0) > 0;
  progress(`computed and stored ${n} × ${rows} impacts in ${round(first.ms)} ms`);

  const reads = {
    'getInvestorImpacts, gRPC': () => grpc.portfolio.getInvestorImpacts({ investorIdentifier: investor, reportingYear: year, computeMissing: false, omitRecords: true }, { caller }),
    'getInvestorImpacts, /v1/call include_records no': () => me('getInvestorImpacts', { investor_identifier: investor, reporting_year: year, include_records: 'no' }),
    'portfolio impacts, /v1/call include_records no': () => me('getPortfolioImpacts', { portfolio_identifier: portfolio, reporting_year: year, include_records: 'no' }),
    'investor impacts, GraphQL totals': () =>
      client.graphql(data.key, 'query($i: String!, $y: Int!) { investor(identifier: $i) { impacts(year: $y) { totals { indicator { id } value positionCount } volumeTotals { subCategory { id } attributedVolume } positionIdsWithoutImpacts } } }', { i: investor, y: year }),
    'portfolio impacts, GraphQL totals': () =>
      client.graphql(data.key, 'query($p: String!, $y: Int!) { portfolio(identifier: $p) { impacts(year: $y) { totals { indicator { id } value positionCount } volumeTotals { subCategory { id } attributedVolume } } } }', { p: portfolio, y: year }),
  };
  const readMs = {};
  for (const [name, fn] of Object.entries(reads)) {
    readMs[name] = await medianMs(fn);
    progress(`${name}: ${readMs[name]} ms (median of 5)`);
  }
  // The same read with all records, for scale: what include_records=no saves.
  // Over 64 MiB at 10 000 positions: past gRPC's message limit, which is why the totals-only read exists.
  const withRecords = await timed(() =>
    grpc.portfolio
      .getInvestorImpacts({ investorIdentifier: investor, reportingYear: year, computeMissing: false, omitRecords: false }, { caller })
      .catch((err) => ({ failed: String(err.message ?? err).slice(0, 200) })),
  );
  // BENCH_CPU_PROF: the system process profiles from here on (system-child.mjs).
  if (process.env.BENCH_CPU_PROF) process.kill(systemPid, 'SIGUSR2');
  const records = await readEveryRecord({ gatewayUrl, key: data.key, investor, year, pid: systemPid, cpu, progress });
  return {
    positions: n,
    investor,
    frameworkRows: rows,
    impactRows: n * rows,
    stored,
    firstComputeMs: round(first.ms),
    readMs,
    investorImpactsWithRecords: { ms: round(withRecords.ms), records: withRecords.result.impacts?.length ?? 0, failed: withRecords.result.failed },
    ...records,
  };
}

/**
 * Every record of `investor` for `year` through /v1/call, streamed (StreamImpactRecords pages, written as
 * they come): twice, the faster read's times and CPU (of `pid`, and of every process `cpu` probes), the larger
 * RSS growth of `pid` (the gateway's process, or the one process that holds gateway and services). A read that
 * failed is listed with how; the figures are of those that did not (none: `failed` instead).
 */
export async function readEveryRecord({ gatewayUrl, key, investor, year, pid, cpu, progress }) {
  const reads = [];
  const loadAtStart = round(loadavg()[0]);
  for (let run = 0; run < 2; run++) {
    reads.push(await streamedRead({ baseUrl: gatewayUrl, key, body: { solution: ESG, operation: 'getInvestorImpacts', parameters: { investor_identifier: investor, reporting_year: year } }, rowKey: '"impact_id":', pid, cpu }));
    progress(`all records through /v1/call: ${JSON.stringify(reads.at(-1))}`);
  }
  const loadAverage1m = [loadAtStart, round(loadavg()[0])];
  const whole = reads.filter((r) => !r.failed);
  if (!whole.length) return { failed: reads.map((r) => r.failed).join('; '), loadAverage1m, recordsReads: reads };
  const fastest = whole.reduce((a, b) => (b.ms < a.ms ? b : a));
  return {
    recordsReadMs: fastest.ms,
    recordsReadCpuMs: fastest.cpuMs,
    ...(fastest.cpuMsByProcess ? { recordsReadCpuMsByProcess: fastest.cpuMsByProcess } : {}),
    recordsReadRows: fastest.rows,
    recordsReadMegabytes: fastest.megabytes,
    firstByteMs: fastest.firstByteMs,
    gatewayRssGrowthMb: Math.max(...whole.map((r) => r.rssGrowthMb ?? 0)),
    loadAverage1m,
    ...(whole.length < reads.length ? { failed: reads.filter((r) => r.failed).map((r) => r.failed).join('; ') } : {}),
    recordsReads: reads,
  };
}

/**
 * The same read in the production shape (lib/overhead-distributed.mjs): the gateway and each service in a
 * process of their own, on `databaseUrl`, where impactsAtScale stored the records. The RSS growth is the
 * gateway process's alone; the CPU time is reported per process, with the PostgreSQL backends of the database
 * and `extraCpuGroups` (the one-process system, serving nothing meanwhile). BENCH_CPU_PROF=<dir>: every process of the
 * shape runs with --cpu-prof, its profile (start to stop, the reads most of it) written to a directory
 * production-* there as <process>.cpuprofile.
 */
export async function recordsReadInProductionShape({ databaseUrl, operatorKey, key, investor, year, extraCpuGroups = {}, progress }) {
  const profileDir = process.env.BENCH_CPU_PROF && mkdtempSync(join(process.env.BENCH_CPU_PROF, 'production-'));
  const shape = await startProductionShape({ databaseUrl, operatorKey, nodeOptions: profileDir && `--cpu-prof --cpu-prof-dir=${profileDir}`, progress });
  let postgres;
  try {
    postgres = await postgresBackendsGroup(POSTGRES_SERVER_URL, new URL(databaseUrl).pathname.slice(1));
    const cpu = cpuProbe({ ...shape.cpuGroups(), postgresql: postgres, ...extraCpuGroups });
    const records = await readEveryRecord({ gatewayUrl: shape.url, key, investor, year, pid: shape.pids.gateway, cpu, progress });
    return { ...records, ...(shape.notes.length ? { notes: shape.notes } : {}) };
  } finally {
    await postgres?.close();
    await shape.stop();
    if (profileDir) nameProfiles(profileDir, shape.pids);
  }
}

/** --cpu-prof names a profile CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile: renamed after its process. */
function nameProfiles(dir, pids) {
  const names = new Map(Object.entries(pids).map(([name, pid]) => [String(pid), name]));
  for (const file of readdirSync(dir)) {
    const name = names.get(file.split('.')[3]);
    if (name) renameSync(join(dir, file), join(dir, `${name}.cpuprofile`));
  }
}

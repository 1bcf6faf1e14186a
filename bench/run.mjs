#!/usr/bin/env node
// npm run bench — the benchmarks, written to bench/report.md and bench/report.json with the machine noted.
//
//  (a) gateway overhead: the same read through /v1/call, through GraphQL and straight to the service's
//      gRPC method (generated definitions + createGrpcClient, with a caller), closed loop at a fixed
//      concurrency; requests/s, p50/p99, the ratios and the CPU time per request of each process (lib/cpu.mjs:
//      the system's, the PostgreSQL backends of the scratch database, the load client's). On PGlite and on
//      PostgreSQL.
//  (b) impact computation: the pure engine (services/portfolio/dist/impacts/impact-math.js) over 10 000
//      positions, the end-to-end recompute through PortfolioService one position per call for a smaller
//      N, and on PostgreSQL a portfolio at scale (lib/impact-scale.mjs): 10 000 positions × 24 framework
//      rows computed and stored set-based, then the investor's and the portfolio's impacts read, and every
//      record through /v1/call streamed (lib/streamed-read.mjs: recordsReadMs, recordsReadRows, firstByteMs,
//      gatewayRssGrowthMb and recordsReadCpuMs of the system's process, with the CPU time of the PostgreSQL
//      backends), then the same read in the production shape on the same database (impacts.scale.distributed:
//      the gateway and each service in a process of its own, the RSS growth the gateway process's, the CPU
//      time per process; BENCH_DISTRIBUTED=0 skips it). A read that fails or is cut is reported as `failed`.
//      BENCH_ONLY=scale runs this part alone; BENCH_CPU_PROF=<dir> writes a CPU profile of the system's
//      process over the streamed reads there (system.cpuprofile, lib/system-child.mjs) and one of each process
//      of the production shape (production-*/<process>.cpuprofile). Then
//      impacts.scale100k (lib/impact-scale100k.mjs): 100 000 positions (2.4 million rows) recomputed and
//      stored through the tracked recompute job, firstComputeMs (goal 20 s); BENCH_SCALE100K_N=0 skips it,
//      BENCH_ONLY=scale100k runs it alone.
//  (c) chain jobs: N key-value inserts through ChainService until completed (jobs/s), against the raw
//      rate of the same N transactions sent with ethers straight to an embedded Hardhat network. On
//      PGlite and on PostgreSQL.
//  (a') the same as (a) with the gateway and each service in a process of its own (lib/overhead-distributed.mjs,
//      scripts/start-distributed.mjs) on PostgreSQL, with the CPU time per request of the gateway, of each
//      service, of PostgreSQL and of the load client; BENCH_DISTRIBUTED=0 skips it (and (e), and the
//      production-shape read of (b)).
//  (e) in that same topology, the read mix of `npm run load` (lib/load-mix.mjs): closed loop for the saturated
//      rate, then open loop at half of it (lib/open-loop.mjs), p50/p99 from each request's scheduled time.
//  (d) chain jobs at the node's speed (lib/chain-replicas.mjs, also `npm run bench:chain`): 1 and 2
//      chain-service processes on PostgreSQL with Kafka against the raw ethers rate on one JSON-RPC node,
//      jobs/s, ratios and p50/p99 latency. BENCH_CHAIN_REPLICA_N jobs (default 200; 0 skips it).
//  idle: the production shape left alone for a quiet BENCH_IDLE_SECONDS (default 10) after it started
//      (lib/idle.mjs, also `npm run bench:idle`): idle.cpuPercentByProcess, % of one core per process (goal:
//      each service under 1 %); skipped with BENCH_DISTRIBUTED=0.
//  chain.batched: writes many per transaction (lib/chain-batched.mjs, also `npm run bench:chain-batched`):
//      documents under Merkle roots and batched key-value inserts through 2 replicas on PostgreSQL against
//      the raw rate on the same node; BENCH_CHAIN_BATCHED_N jobs of each kind (default 2000; 0 skips it).
//
// The system runs in a child process so the load generator does not share its event loop. PostgreSQL:
// a scratch database on BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres), dropped
// afterwards; skipped with a note when unreachable. Knobs: BENCH_SECONDS (per measurement, default 4),
// BENCH_WARMUP_SECONDS (each face of a read untimed before (a) and (a') measure it, the mix before (e); default 3),
// BENCH_CONCURRENCY (default 16), BENCH_CHAIN_N (default 100), BENCH_RECOMPUTE_N (default 80),
// BENCH_SCALE_N (positions of the portfolio at scale, default 10 000; 0 skips it), BENCH_REPORT_DIR (where
// report.md and report.json go, default bench/).
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { percentile } from './lib/harness.mjs';
import { measureOverhead, overheadReads } from './lib/overhead.mjs';
import { overheadDistributed } from './lib/overhead-distributed.mjs';
import { clockTicks, cpuProbe, pidsGroup, postgresBackendsGroup } from './lib/cpu.mjs';
import { httpClient, pool, retryingUnavailable } from './lib/http.mjs';
import { machine } from './lib/machine.mjs';
import { impactsAtScale, recordsReadInProductionShape } from './lib/impact-scale.mjs';
import { impactsAt100k } from './lib/impact-scale100k.mjs';
import { idleCpu } from './lib/idle.mjs';
import { chainReplicas } from './lib/chain-replicas.mjs';
import { chainBatched } from './lib/chain-batched.mjs';
import { rawChain } from './lib/raw-chain.mjs';
import { DISTRIBUTED, reportMarkdown } from './lib/report-markdown.mjs';
import { seedDataset } from './lib/seed.mjs';
import { importDist, POSTGRES_SERVER_URL, scratchPostgres, startChildProcess } from './lib/system.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
// Untimed, every face of a read of (a) and (a') before any is measured, and the read mix before (e): a cold
// path is seconds slower in the gateway and the service alike, and the face measured first paid for it.
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const CHAIN_N = Number(process.env.BENCH_CHAIN_N ?? 100);
const RECOMPUTE_N = Number(process.env.BENCH_RECOMPUTE_N ?? 80);
const SCALE_N = Number(process.env.BENCH_SCALE_N ?? 10_000);
// impacts.scale100k: positions recomputed through the tracked job (default 100 000; 0 skips it).
const SCALE100K_N = Number(process.env.BENCH_SCALE100K_N ?? 100_000);
// BENCH_ONLY=scale: only the portfolio at scale ((b) on PostgreSQL), for working on it; BENCH_ONLY=scale100k:
// only impacts.scale100k.
const ONLY_SCALE = process.env.BENCH_ONLY === 'scale' || process.env.BENCH_ONLY === 'scale100k';
const ONLY_100K = process.env.BENCH_ONLY === 'scale100k';
const ENGINE_N = 10_000;
// Random per run: the distributed system reads it as BOOTSTRAP_API_KEY, which refuses a weak key.
const OPERATOR_KEY = `gi_${randomBytes(32).toString('base64url')}`;
const YEAR = 2024;
const SIZES = { frameworks: 2, assets: 12, investors: 24, positions: 120, portfolios: 6, users: 3 };

const t0 = performance.now();
const progress = (msg) => console.log(`[bench +${((performance.now() - t0) / 1000).toFixed(0).padStart(3)} s] ${msg}`);
const round = (x, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

const { createGrpcClient } = await importDist('services/shared/dist/grpc/client.js');
const taxonomyProto = await importDist('proto/dist/gen/greenimpact/taxonomy/v1/taxonomy.js');
const portfolioProto = await importDist('proto/dist/gen/greenimpact/portfolio/v1/portfolio.js');
const chainProto = await importDist('proto/dist/gen/greenimpact/chain/v1/chain.js');

const report = {
  generatedAt: new Date().toISOString(),
  machine: machine(),
  settings: { secondsPerMeasurement: SECONDS, warmupSeconds: WARMUP_SECONDS, concurrency: CONCURRENCY, chainJobs: CHAIN_N, recomputePositions: RECOMPUTE_N, scalePositions: SCALE_N, scale100kPositions: SCALE100K_N, enginePositions: ENGINE_N, dataset: SIZES, clockTicksPerSecond: clockTicks },
  overhead: {},
  impacts: {},
  chain: {},
  notes: [],
};

// ------------------------------------------------------------------ (a) and (c) on one database

async function onDatabase(db) {
  let scratch;
  if (db === 'postgresql') {
    scratch = await scratchPostgres();
    if (scratch.unreachable) {
      report.notes.push(`PostgreSQL skipped: ${scratch.unreachable}`);
      progress(`[${db}] skipped: ${scratch.unreachable}`);
      return;
    }
  }
  progress(`[${db}] starting the system in a child process…`);
  const system = await startChildProcess({ databaseUrl: scratch?.url, bootstrapApiKey: OPERATOR_KEY });
  const client = httpClient(system.gatewayUrl, { connections: CONCURRENCY * 2 });
  let postgres;
  const grpc = {
    taxonomy: createGrpcClient(taxonomyProto.TaxonomyServiceService, system.grpc.taxonomy),
    portfolio: createGrpcClient(portfolioProto.PortfolioServiceService, system.grpc.portfolio),
    chain: createGrpcClient(chainProto.ChainServiceService, system.grpc.chain),
  };
  try {
    // CPU per request of the system's one process and, on PostgreSQL, of the backends serving its scratch database.
    postgres = scratch && (await postgresBackendsGroup(POSTGRES_SERVER_URL, new URL(scratch.url).pathname.slice(1)));
    const cpu = cpuProbe({ system: pidsGroup(system.pid), ...(postgres ? { postgresql: postgres } : {}) });
    progress(`[${db}] seeding ${JSON.stringify(SIZES)}…`);
    const data = await seedDataset(client, OPERATOR_KEY, { sizes: SIZES, year: YEAR });
    const caller = { accountId: data.accountId, role: 'user' };

    if (!ONLY_SCALE) await everyFace(db, { client, grpc, data, caller, system, cpu });

    // (b) at scale, on PostgreSQL (the production database; PGlite is the single-process default).
    if (db === 'postgresql' && SCALE_N > 0 && !ONLY_100K) {
      report.impacts.scale = await impactsAtScale({ client, grpc, data, year: YEAR, positions: SCALE_N, gatewayUrl: system.gatewayUrl, systemPid: system.pid, cpu, progress: (msg) => progress(`[${db}] (b) ${msg}`) });
      // The same records read again in the production shape, on this database (the one-process system idles).
      if (process.env.BENCH_DISTRIBUTED !== '0') {
        report.impacts.scale.distributed = await recordsReadInProductionShape({ databaseUrl: scratch.url, operatorKey: OPERATOR_KEY, key: data.key, investor: report.impacts.scale.investor, year: YEAR, extraCpuGroups: { system: pidsGroup(system.pid) }, progress: (msg) => progress(`[${db}] (b) production shape: ${msg}`) }).catch((err) => ({ failed: String(err.message ?? err).slice(0, 500) }));
      }
    }
    if (db === 'postgresql' && SCALE100K_N > 0) {
      report.impacts.scale100k = await impactsAt100k({ client, data, year: YEAR, positions: SCALE100K_N, databaseUrl: scratch.url, systemPid: system.pid, progress: (msg) => progress(`[${db}] (b) 100k: ${msg}`) });
    }
  } finally {
    await postgres?.close();
    client.close();
    for (const c of Object.values(grpc)) c.close();
    await system.stop();
    await scratch?.stop?.();
  }
}

/** (a) the same read through each face, (b) the recompute through PortfolioService, (c) chain jobs. */
async function everyFace(db, { client, grpc, data, caller, system, cpu }) {
  const reads = overheadReads({ client, grpc, data, year: YEAR });
  report.overhead[db] = await measureOverhead(reads, { concurrency: CONCURRENCY, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, metricsUrls: [`${system.gatewayUrl}/metrics`], cpu, progress: (m) => progress(`[${db}] ${m}`) });

  // (b) end to end: recompute through PortfolioService.
  progress(`[${db}] (b) recomputing the impacts of ${RECOMPUTE_N} positions through PortfolioService…`);
  const ids = data.positions.slice(0, RECOMPUTE_N).map((p) => p.id);
  const latencies = [];
  const started = performance.now();
  await pool(ids, 4, async (positionId) => {
    const s = performance.now();
    await grpc.portfolio.computePositionImpacts({ positionId, reportingYear: YEAR }, { caller });
    latencies.push(performance.now() - s);
  });
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((x, y) => x - y);
  report.impacts[`endToEnd_${db}`] = {
    positions: ids.length,
    rowsPerFramework: 12,
    concurrency: 4,
    totalMs: round(seconds * 1000),
    positionsPerSecond: round(ids.length / seconds),
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
  };

  // (c) key-value inserts through ChainService, followed to completed.
  progress(`[${db}] (c) ${CHAIN_N} key-value inserts through ChainService…`);
  report.chain[db] = await chainThroughService(grpc.chain, caller);
  progress(`[${db}] (c) ${report.chain[db].jobsPerSecond} completed jobs/s`);
}

async function chainThroughService(chain, caller) {
  const started = performance.now();
  const jobIds = await pool(Array.from({ length: CHAIN_N }, (_, i) => i), CONCURRENCY, async (i) => {
    const answer = await retryingUnavailable(() => chain.insertString({ network: 'sepolia', key: `bench-${i}`, value: `value ${i} ${'x'.repeat(64)}` }, { caller }));
    return answer.jobId;
  });
  const submitted = performance.now();
  const done = { completed: 0, failed: 0 };
  await pool(jobIds, 8, async (jobId) => {
    for (;;) {
      const { job } = await retryingUnavailable(() => chain.getJob({ jobId }, { caller }));
      if (job.status === chainProto.JobStatus.JOB_STATUS_COMPLETED) return void done.completed++;
      if (job.status === chainProto.JobStatus.JOB_STATUS_FAILED) return void done.failed++;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  });
  const seconds = (performance.now() - started) / 1000;
  return { jobs: CHAIN_N, ...done, submitMs: round(submitted - started), totalMs: round(seconds * 1000), jobsPerSecond: round(done.completed / seconds) };
}

// ------------------------------------------------------------------ (b) the pure engine

async function engine() {
  progress(`(b) the pure impact engine over ${ENGINE_N} positions…`);
  const { computePositionImpacts } = await importDist('services/portfolio/dist/impacts/impact-math.js');
  const rows = Array.from({ length: 24 }, (_, i) => ({ subCategoryId: 1 + (i >> 2), indicatorId: 1 + i, subCategoryVolume: 50_000_000 + i, indicatorValue: 1_000 + i }));
  const framework = { frameworkIdentifier: 'GBF', reportingYear: YEAR, valueOutstanding: 500_000_000, allocatedAmount: 450_000_000, valueOutstandingFramework: false, currencyCode: 'EUR' };
  const runOnce = () => {
    let check = 0;
    const s = performance.now();
    for (let i = 0; i < ENGINE_N; i++) {
      const out = computePositionImpacts({
        reportingYear: YEAR,
        position: { amount: 100_000 + i, currencyCode: i % 3 ? 'SEK' : 'EUR', positionDays: 365, startDate: i % 2 ? '2024-03-01' : null },
        fxRate: i % 3 ? 1 / 11.5 : 1,
        framework,
        rows,
      });
      check += out.rows[0].value;
    }
    return { ms: performance.now() - s, check };
  };
  runOnce(); // warm-up
  const runs = [runOnce(), runOnce(), runOnce()].sort((x, y) => x.ms - y.ms);
  const median = runs[1].ms;
  report.impacts.engine = {
    positions: ENGINE_N,
    rowsPerPosition: rows.length,
    medianTotalMs: round(median),
    microsecondsPerPosition: round((median * 1000) / ENGINE_N),
    positionsPerSecond: Math.round(ENGINE_N / (median / 1000)),
  };
}

const markdown = () => reportMarkdown(report, { concurrency: CONCURRENCY, seconds: SECONDS });

try {
  if (!ONLY_SCALE) await engine();
  if (!ONLY_SCALE) report.chain.raw = await rawChain({ transactions: CHAIN_N, progress });
  for (const db of ONLY_SCALE ? ['postgresql'] : ['pglite', 'postgresql']) await onDatabase(db);
  if (process.env.BENCH_DISTRIBUTED !== '0' && !ONLY_SCALE) {
    const distributed = await overheadDistributed({ operatorKey: OPERATOR_KEY, sizes: SIZES, year: YEAR, concurrency: CONCURRENCY, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, progress: (m) => progress(`[distributed] ${m}`) });
    if (distributed.skipped) report.notes.push(`Distributed (a) and (e) skipped: ${distributed.skipped}`);
    else {
      report.overhead[DISTRIBUTED] = distributed.rows;
      report.readMix = distributed.readMix;
      report.notes.push(...distributed.notes);
    }
  }
  if (process.env.BENCH_DISTRIBUTED !== '0' && !ONLY_SCALE) {
    report.idle = await idleCpu({ operatorKey: OPERATOR_KEY, seconds: Number(process.env.BENCH_IDLE_SECONDS ?? 10), settleSeconds: Number(process.env.BENCH_IDLE_SETTLE_SECONDS ?? 5), progress: (m) => progress(`[idle] ${m}`) });
  }
  const replicaJobs = Number(process.env.BENCH_CHAIN_REPLICA_N ?? 200);
  if (replicaJobs > 0 && !ONLY_SCALE) report.chainReplicas = await chainReplicas({ jobs: replicaJobs, progress });
  const batchedJobs = Number(process.env.BENCH_CHAIN_BATCHED_N ?? 2000);
  if (batchedJobs > 0 && !ONLY_SCALE) report.chain.batched = await chainBatched({ jobs: batchedJobs, nfts: Number(process.env.BENCH_CHAIN_NFT_N ?? 160), progress });
} finally {
  report.durationSeconds = round((performance.now() - t0) / 1000, 1);
  const out = process.env.BENCH_REPORT_DIR ?? fileURLToPath(new URL('.', import.meta.url));
  writeFileSync(join(out, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(out, 'report.md'), markdown());
  progress(`wrote report.md and report.json in ${out}`);
}
console.log(markdown());

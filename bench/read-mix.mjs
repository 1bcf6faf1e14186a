#!/usr/bin/env node
// npm run bench:read-mix — only (a') and (e) of npm run bench: the production shape on PostgreSQL, each read
// through every face and the read mix closed and open loop, with CPU time per request of every process and
// the SQL statements and backend calls per request of each read (lib/overhead-distributed.mjs). Knobs as
// npm run bench's: BENCH_SECONDS, BENCH_WARMUP_SECONDS, BENCH_CONCURRENCY.
import { randomBytes } from 'node:crypto';
import { overheadDistributed } from './lib/overhead-distributed.mjs';

const result = await overheadDistributed({
  operatorKey: `gi_${randomBytes(32).toString('base64url')}`,
  sizes: { frameworks: 2, assets: 12, investors: 24, positions: 120, portfolios: 6, users: 3 },
  year: 2024,
  concurrency: Number(process.env.BENCH_CONCURRENCY ?? 16),
  seconds: Number(process.env.BENCH_SECONDS ?? 4),
  warmupSeconds: Number(process.env.BENCH_WARMUP_SECONDS ?? 3),
  progress: (m) => console.log(`[read-mix] ${m}`),
});
console.log(JSON.stringify(result, null, 2));

#!/usr/bin/env node
// npm run bench:idle — the CPU each process of the production shape uses over a quiet window (lib/idle.mjs).
import { randomBytes } from 'node:crypto';
import { idleCpu } from './lib/idle.mjs';

const result = await idleCpu({
  operatorKey: `gi_${randomBytes(32).toString('base64url')}`,
  seconds: Number(process.env.BENCH_IDLE_SECONDS ?? 10),
  settleSeconds: Number(process.env.BENCH_IDLE_SETTLE_SECONDS ?? 5),
  progress: (m) => console.log(`[idle] ${m}`),
});
console.log(JSON.stringify(result, null, 2));

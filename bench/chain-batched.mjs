#!/usr/bin/env node
// npm run bench:chain-batched — only section (e) of npm run bench: chain writes many per transaction
// (lib/chain-batched.mjs). BENCH_CHAIN_BATCHED_N jobs of each kind (default 2000).
import { performance } from 'node:perf_hooks';
import { chainBatched, chainBatchedMarkdown } from './lib/chain-batched.mjs';

const t0 = performance.now();
const progress = (msg) => console.log(`[bench:chain-batched +${((performance.now() - t0) / 1000).toFixed(0).padStart(3)} s] ${msg}`);
const result = await chainBatched({ jobs: Number(process.env.BENCH_CHAIN_BATCHED_N ?? 2000), nfts: Number(process.env.BENCH_CHAIN_NFT_N ?? 160), progress });
console.log(JSON.stringify(result, null, 2));
console.log(chainBatchedMarkdown(result));

#!/usr/bin/env node
// npm run bench:chain — only section (d) of npm run bench: chain jobs through 1 and 2 chain-service
// replicas on PostgreSQL against the raw ethers rate on the same JSON-RPC node (lib/chain-replicas.mjs).
// BENCH_CHAIN_REPLICA_N jobs (default 200).
import { performance } from 'node:perf_hooks';
import { chainReplicas, chainReplicasMarkdown } from './lib/chain-replicas.mjs';

const t0 = performance.now();
const progress = (msg) => console.log(`[bench:chain +${((performance.now() - t0) / 1000).toFixed(0).padStart(3)} s] ${msg}`);
const result = await chainReplicas({ jobs: Number(process.env.BENCH_CHAIN_REPLICA_N ?? 200), progress });
console.log(JSON.stringify(result, null, 2));
console.log(chainReplicasMarkdown(result));

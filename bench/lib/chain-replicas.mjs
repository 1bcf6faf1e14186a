// Chain jobs at the node's own speed: the same key-value inserts sent raw with ethers to a JSON-RPC node
// (Hardhat's EVM over HTTP, its own process), and through chain-service processes (1, then 2 replicas)
// on PostgreSQL with Kafka (librdkafka's mock cluster, when it builds here) against the same node.
// Service: N inserts submitted over gRPC, 16 at a time round-robin over the replicas, until every job
// is completed; jobs/s from the first submit to the last completion, latency per job from its row
// (created_at → completed_at). BENCH_CHAIN_LOG_LEVEL / BENCH_CHAIN_LOG: the replicas' log level and where to keep their logs.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Interface, JsonRpcProvider, Wallet } from 'ethers';
import pg from 'pg';
import { percentile } from './harness.mjs';
import { pool } from './http.mjs';
import { importDist, scratchPostgres } from './system.mjs';

const CHAIN_ID = 31_777;
const kv = new Interface(['function insertString(bytes32 namespace, string key, string value)']);
const round = (x, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
const value = (key) => `value of ${key} ${'x'.repeat(64)}`;

/** Raw: `n` insertString transactions, each sent with ethers (explicit nonces), then every receipt awaited. */
export async function raw(node, n) {
  const { NODE_SIGNER_KEY } = await importDist('test/dist/support/rpc-node.js');
  const { accountNamespace } = await importDist('services/chain/dist/key-value/key-value-rules.js');
  const provider = new JsonRpcProvider(node.url, CHAIN_ID, { staticNetwork: true, cacheTimeout: -1 });
  const wallet = new Wallet(NODE_SIGNER_KEY, provider);
  const namespace = accountNamespace('bench-raw');
  const fees = await provider.getFeeData();
  const nonce = await provider.getTransactionCount(wallet.address, 'pending');
  const started = performance.now();
  const sent = [];
  for (let i = 0; i < n; i++) {
    sent.push(
      await wallet.sendTransaction({
        to: node.contracts.keyValueStore,
        data: kv.encodeFunctionData('insertString', [namespace, `raw-${i}`, value(`raw-${i}`)]),
        nonce: nonce + i,
        gasLimit: 300_000,
        maxFeePerGas: fees.maxFeePerGas,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
        chainId: CHAIN_ID,
      }),
    );
  }
  const receipts = await Promise.all(sent.map((tx) => tx.wait()));
  const ms = performance.now() - started;
  provider.destroy();
  return { transactions: n, succeeded: receipts.filter((r) => r?.status === 1).length, totalMs: round(ms), perSecond: round(n / (ms / 1000)) };
}

/** Through `replicas` chain-service processes on one PostgreSQL database. */
async function throughService(node, kafka, replicas, n, progress) {
  const { startChainReplica } = await importDist('test/dist/support/chain-replica.js');
  const { NODE_SIGNER_KEY } = await importDist('test/dist/support/rpc-node.js');
  const { createGrpcClient } = await importDist('services/shared/dist/grpc/client.js');
  const chainProto = await importDist('proto/dist/gen/greenimpact/chain/v1/chain.js');
  const db = await scratchPostgres();
  if (db.unreachable) return { skipped: `PostgreSQL unreachable: ${db.unreachable}` };
  const contentDir = mkdtempSync(join(tmpdir(), 'gi-bench-chain-'));
  const network = { name: 'sepolia', chainId: CHAIN_ID, rpcUrl: node.url, confirmations: 1, pollIntervalMs: 200, contracts: node.contracts };
  const env = {
    DATABASE_URL: db.url,
    DATABASE_POOL_SIZE: '8',
    CONTENT_DIR: contentDir,
    CHAIN_NETWORKS: JSON.stringify([network]),
    CHAIN_SIGNER_KEY_SEPOLIA: NODE_SIGNER_KEY,
    // One transaction per insert (batching is on by default): this measures the per-transaction pipeline
    // against the raw sends; bench:chain-batched measures the batched default.
    CHAIN_KV_BATCH: '1',
    LOG_LEVEL: process.env.BENCH_CHAIN_LOG_LEVEL ?? 'info',
    ...(kafka ? { KAFKA_BROKERS: kafka.brokers.join(','), KAFKA_SESSION_TIMEOUT_MS: '6000', KAFKA_HEARTBEAT_INTERVAL_MS: '500' } : {}),
  };
  const started = [];
  const sql = new pg.Client({ connectionString: db.url });
  try {
    for (let i = 0; i < replicas; i++) started.push(await startChainReplica(env));
    await sql.connect();
    const clients = started.map((r) => createGrpcClient(chainProto.ChainServiceService, r.address));
    const caller = { accountId: randomUUID(), role: 'user' };
    // Warm-up: the first job of each replica (connections, contract code paths), not measured.
    await Promise.all(clients.map((c, i) => c.insertString({ network: 'sepolia', key: `warm-${i}`, value: 'warm' }, { caller })));
    const settled = async () => (await sql.query(`SELECT count(*)::int AS n FROM chain.jobs WHERE status IN ('completed', 'failed')`)).rows[0].n;
    while ((await settled()) < clients.length) await new Promise((r) => setTimeout(r, 50));
    progress(`chain: ${replicas} replica(s) up, ${n} inserts…`);
    const t0 = performance.now();
    await pool(Array.from({ length: n }, (_, i) => i), 16, (i) =>
      clients[i % clients.length].insertString({ network: 'sepolia', key: `svc-${replicas}-${i}`, value: value(`svc-${i}`) }, { caller }),
    );
    const submitMs = performance.now() - t0;
    while ((await settled()) < n + clients.length) await new Promise((r) => setTimeout(r, 20));
    const ms = performance.now() - t0;
    const { rows } = await sql.query(
      `SELECT status, extract(epoch FROM completed_at - created_at) * 1000 AS ms FROM chain.jobs WHERE kv_key LIKE 'svc-%'`,
    );
    const latencies = rows.filter((r) => r.status === 'completed').map((r) => Number(r.ms)).sort((a, b) => a - b);
    return {
      replicas,
      jobs: n,
      completed: latencies.length,
      failed: rows.length - latencies.length,
      submitMs: round(submitMs),
      totalMs: round(ms),
      perSecond: round(n / (ms / 1000)),
      p50Ms: round(percentile(latencies, 50)),
      p99Ms: round(percentile(latencies, 99)),
    };
  } finally {
    await sql.end().catch(() => undefined);
    // BENCH_CHAIN_LOG=<prefix> keeps each replica's log (with BENCH_CHAIN_LOG_LEVEL=debug: batch timings).
    if (process.env.BENCH_CHAIN_LOG) for (const [i, r] of started.entries()) writeFileSync(`${process.env.BENCH_CHAIN_LOG}.${replicas}.${i}`, r.output());
    await Promise.all(started.map((r) => r.stop()));
    await db.stop();
    rmSync(contentDir, { recursive: true, force: true });
  }
}

/** The raw rate, then 1 and 2 replicas, each ratio against the raw rate. */
export async function chainReplicas({ jobs = 200, progress = () => undefined } = {}) {
  const { startRpcNodeProcess } = await importDist('test/dist/support/rpc-node.js');
  const { startKafkaMock } = await importDist('testing/dist/shared/kafka-mock.js');
  const node = await startRpcNodeProcess(CHAIN_ID);
  let kafka;
  const notes = [];
  try {
    kafka = await startKafkaMock({ partitions: 3 });
  } catch (err) {
    notes.push(`Kafka mock cluster unavailable (${err.message}); the replicas ran without a broker (their send pumps poll the jobs table).`);
  }
  try {
    progress(`chain: ${jobs} raw transactions to the JSON-RPC node…`);
    const rawRate = await raw(node, jobs);
    const services = [];
    for (const replicas of [1, 2]) {
      const s = await throughService(node, kafka, replicas, jobs, progress);
      services.push(s.skipped ? s : { ...s, vsRaw: round(s.perSecond / rawRate.perSecond) });
      progress(`chain: ${replicas} replica(s): ${s.perSecond ?? s.skipped} jobs/s`);
    }
    return { raw: rawRate, services, notes };
  } finally {
    await kafka?.stop();
    await node.stop();
  }
}

export function chainReplicasMarkdown(r) {
  const out = [
    '## (d) Chain jobs at the node\'s speed: replicas on PostgreSQL',
    '',
    `A JSON-RPC node (Hardhat's EVM over HTTP, automine, its own process). Raw: ${r.raw.transactions} \`insertString\` transactions sent one after the other with ethers (explicit nonces), then every receipt awaited. Service: the same number of \`ChainService.InsertString\` calls, 16 at a time over the replicas' gRPC ports, on PostgreSQL${r.notes.length ? '' : ' with Kafka (librdkafka mock cluster)'}, until every job is completed; latency from the job's row (accepted → completed).`,
    '',
    '| path | jobs | completed | failed | total ms | per second | vs raw | p50 ms | p99 ms |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    `| raw ethers | ${r.raw.transactions} | ${r.raw.succeeded} | ${r.raw.transactions - r.raw.succeeded} | ${r.raw.totalMs} | ${r.raw.perSecond} | 1.00 | | |`,
  ];
  for (const s of r.services) {
    if (s.skipped) out.push(`| service | skipped: ${s.skipped} | | | | | | | |`);
    else out.push(`| service, ${s.replicas} replica${s.replicas > 1 ? 's' : ''} | ${s.jobs} | ${s.completed} | ${s.failed} | ${s.totalMs} | ${s.perSecond} | ${s.vsRaw.toFixed(2)} | ${s.p50Ms} | ${s.p99Ms} |`);
  }
  for (const n of r.notes) out.push('', n);
  return out.join('\n');
}

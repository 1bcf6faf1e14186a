// Chain writes many per transaction (issue 33): documents anchored under Merkle roots and key-value
// inserts, through 2 chain-service processes on PostgreSQL (Kafka mock cluster when it builds) against
// one JSON-RPC node (Hardhat's EVM over HTTP, automine, its own process), with the raw rate of plain
// insertString transactions on the same node in the same run. N jobs of each kind (BENCH_CHAIN_BATCHED_N,
// default 2000), 16 writers at a time round-robin over the replicas' gRPC ports. Key-value inserts with
// CHAIN_KV_BATCH=BENCH_CHAIN_KV_BATCH (default 64, the service's default).
//   documentJobsPerSecond / keyValueJobsPerSecond: N / (first submit → last completion)
//   acceptedPerSecond: N / (first submit → last answer): how fast jobs are taken in
//   statementsPerJob: db_statements_total of both replicas (every SQL statement, COMMIT included) over the run / N
//   gasPerDocument: gas of the run's batch transactions / N; gasPerDocumentUnbatched: one DocumentRegistry.anchor, averaged over raw sends
//   p99AcceptedToCompletedMs / p50AcceptedToCompletedMs: from each job's row (created_at → completed_at), per kind (documents, keyValues, nfts)
//   nftJobsPerSecond: BENCH_CHAIN_NFT_N NFT mints (default 160; a mint completes when its transaction is
//   final, its certificates of trust are drawn on first view, which the bench does not make) in mintDigests
//   batches (CHAIN_NFT_BATCH, default 16); gasPerNft against one GreenImpactNft.mint(to, uri) sent alone
//   (gasPerNftUnbatched), nftGasRatio the two's ratio
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Interface, JsonRpcProvider, Wallet } from 'ethers';
import pg from 'pg';
import { percentile } from './harness.mjs';
import { pool } from './http.mjs';
import { importDist, scratchPostgres } from './system.mjs';
import { raw } from './chain-replicas.mjs';

const nftAbi = new Interface(['function mint(address to, string uri)']);

/** Gas of one NFT minted alone (GreenImpactNft.mint with an ipfs:// URI as long as the service's), averaged over `n` raw sends. */
async function unbatchedMintGas(node, n = 10) {
  const { NODE_SIGNER_KEY } = await importDist('test/dist/support/rpc-node.js');
  const provider = new JsonRpcProvider(node.url, CHAIN_ID, { staticNetwork: true, cacheTimeout: -1 });
  const wallet = new Wallet(NODE_SIGNER_KEY, provider);
  let gas = 0n;
  for (let i = 0; i < n; i++) {
    const uri = `ipfs://bafkrei${String(i).padStart(52, 'a')}`;
    const receipt = await (await wallet.sendTransaction({ to: node.contracts.nft, data: nftAbi.encodeFunctionData('mint', [wallet.address, uri]) })).wait();
    gas += receipt.gasUsed;
  }
  provider.destroy();
  return Number(gas) / n;
}

const CHAIN_ID = 31_777;
const round = (x, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
const registry = new Interface(['function anchor(bytes32 id, bytes32 sha256Hash, string cid)']);

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function statementsSoFar(ports) {
  let total = 0;
  for (const port of ports) {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    for (const line of text.split('\n')) if (line.startsWith('db_statements_total{')) total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

/** Gas of one document anchored alone (DocumentRegistry.anchor), averaged over `n` raw sends. */
async function unbatchedAnchorGas(node, n = 20) {
  const { NODE_SIGNER_KEY } = await importDist('test/dist/support/rpc-node.js');
  const { contentCid } = await importDist('services/chain/dist/proofs/document-proof.js');
  const { anchorIdOf } = await importDist('services/chain/dist/contracts/document-registry.js');
  const { createHash } = await import('node:crypto');
  const provider = new JsonRpcProvider(node.url, CHAIN_ID, { staticNetwork: true, cacheTimeout: -1 });
  const wallet = new Wallet(NODE_SIGNER_KEY, provider);
  let gas = 0n;
  for (let i = 0; i < n; i++) {
    const content = Buffer.from(`<html><body><p>unbatched ${i}</p></body></html>`);
    const data = registry.encodeFunctionData('anchor', [anchorIdOf(randomUUID()), `0x${createHash('sha256').update(content).digest('hex')}`, contentCid(content)]);
    const receipt = await (await wallet.sendTransaction({ to: node.contracts.documentRegistry, data })).wait();
    gas += receipt.gasUsed;
  }
  provider.destroy();
  return Number(gas) / n;
}

export async function chainBatched({ jobs = 2000, nfts = 160, writers = 16, progress = () => undefined } = {}) {
  const { startImageServer, testJpeg } = await importDist('testing/dist/chain/nft-fixtures.js');
  const { startRpcNodeProcess, NODE_SIGNER_KEY } = await importDist('test/dist/support/rpc-node.js');
  const { startKafkaMock } = await importDist('testing/dist/shared/kafka-mock.js');
  const { startChainReplica } = await importDist('test/dist/support/chain-replica.js');
  const { createGrpcClient } = await importDist('services/shared/dist/grpc/client.js');
  const chainProto = await importDist('proto/dist/gen/greenimpact/chain/v1/chain.js');
  const node = await startRpcNodeProcess(CHAIN_ID);
  const notes = [];
  let kafka;
  try {
    kafka = await startKafkaMock({ partitions: 3 });
  } catch (err) {
    notes.push(`Kafka mock cluster unavailable (${err.message}); the replicas ran without a broker.`);
  }
  const db = await scratchPostgres();
  if (db.unreachable) return { skipped: `PostgreSQL unreachable: ${db.unreachable}` };
  const contentDir = mkdtempSync(join(tmpdir(), 'gi-bench-batched-'));
  const network = { name: 'sepolia', chainId: CHAIN_ID, rpcUrl: node.url, confirmations: 1, pollIntervalMs: 200, contracts: node.contracts };
  const replicas = [];
  const sql = new pg.Client({ connectionString: db.url });
  const images = await startImageServer({ '/art.jpg': { type: 'image/jpeg', body: testJpeg() } });
  try {
    progress(`chain.batched: ${jobs} raw transactions to the JSON-RPC node…`);
    const rawRate = await raw(node, jobs);
    const gasPerDocumentUnbatched = await unbatchedAnchorGas(node);
    const gasPerNftUnbatched = await unbatchedMintGas(node);
    const metricsPorts = [];
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      metricsPorts.push(port);
      replicas.push(
        await startChainReplica({
          DATABASE_URL: db.url, DATABASE_POOL_SIZE: '8', CONTENT_DIR: contentDir, CHAIN_NETWORKS: JSON.stringify([network]),
          CHAIN_SIGNER_KEY_SEPOLIA: NODE_SIGNER_KEY, METRICS_PORT: String(port), CHAIN_KV_BATCH: process.env.BENCH_CHAIN_KV_BATCH ?? '64', LOG_LEVEL: process.env.BENCH_CHAIN_LOG_LEVEL ?? 'info',
          NFT_IMAGE_ALLOW_PRIVATE_HOSTS: 'true', ...(process.env.BENCH_CHAIN_NFT_BATCH ? { CHAIN_NFT_BATCH: process.env.BENCH_CHAIN_NFT_BATCH } : {}),
          ...(kafka ? { KAFKA_BROKERS: kafka.brokers.join(','), KAFKA_SESSION_TIMEOUT_MS: '6000', KAFKA_HEARTBEAT_INTERVAL_MS: '500' } : {}),
        }),
      );
    }
    await sql.connect();
    const clients = replicas.map((r) => createGrpcClient(chainProto.ChainServiceService, r.address));
    const caller = { accountId: randomUUID(), role: 'user' };
    const minter = { accountId: randomUUID(), role: 'user' };
    const settled = async (where) => (await sql.query(`SELECT count(*)::int AS n FROM chain.jobs WHERE status IN ('completed', 'failed') AND ${where}`)).rows[0].n;
    // Warm-up (connections, code paths), not measured.
    await Promise.all(clients.map((c, i) => c.insertString({ network: 'sepolia', key: `warm-${i}`, value: 'warm' }, { caller })));
    while ((await settled(`kv_key LIKE 'warm-%'`)) < clients.length) await new Promise((r) => setTimeout(r, 50));

    const run = async (label, where, submit, n = jobs) => {
      progress(`chain.batched: ${n} ${label}, ${writers} writers over 2 replicas…`);
      const before = await statementsSoFar(metricsPorts);
      const t0 = performance.now();
      await pool(Array.from({ length: n }, (_, i) => i), writers, (i) => submit(clients[i % clients.length], i));
      const acceptMs = performance.now() - t0;
      while ((await settled(where)) < n) await new Promise((r) => setTimeout(r, 20));
      const ms = performance.now() - t0;
      const statements = (await statementsSoFar(metricsPorts)) - before;
      const { rows } = await sql.query(`SELECT status, extract(epoch FROM completed_at - created_at) * 1000 AS ms FROM chain.jobs WHERE ${where}`);
      const latencies = rows.filter((r) => r.status === 'completed').map((r) => Number(r.ms)).sort((a, b) => a - b);
      return {
        jobs: n, completed: latencies.length, failed: rows.length - latencies.length, acceptMs: round(acceptMs), totalMs: round(ms),
        perSecond: round(n / (ms / 1000)), acceptedPerSecond: round(n / (acceptMs / 1000)), statementsPerJob: round(statements / n),
        p50Ms: round(percentile(latencies, 50)), p99Ms: round(percentile(latencies, 99)),
      };
    };
    const documents = await run('documents', `kind = 'document' AND framework_identifier LIKE 'BENCH-%'`, (c, i) =>
      c.submitDocument(
        {
          kind: chainProto.DocumentKind.DOCUMENT_KIND_FRAMEWORK_HTML, network: 'sepolia', contentType: 'text/html', frameworkIdentifier: `BENCH-${i % 50}`,
          content: Buffer.from(`<html><body><h1>Framework ${i}</h1><p>${'impact '.repeat(40)}</p></body></html>`),
        },
        { caller },
      ),
    );
    const { rows: gasRows } = await sql.query(
      `SELECT coalesce(sum(gas_used), 0)::float8 AS gas, count(*)::int AS batches FROM chain.jobs WHERE kind = 'document_batch' AND status = 'completed'`,
    );
    const keyValues = await run('key-value inserts', `kv_key LIKE 'batched-%'`, (c, i) =>
      c.insertString({ network: 'sepolia', key: `batched-${i}`, value: `value of ${i} ${'x'.repeat(64)}` }, { caller }),
    );
    const gasPerDocument = gasRows[0].gas / jobs;
    const nftRun = await run(
      'NFT mints',
      `kind = 'nft_mint' AND account_id = '${minter.accountId}'`,
      (c, i) => c.mintNft({ network: 'sepolia', name: `Bench certificate ${i}`, description: 'bench', image: `${images.url}/art.jpg`, attributes: [] }, { caller: minter }),
      nfts,
    );
    const { rows: nftRows } = await sql.query(
      `SELECT coalesce(sum(gas_used), 0)::float8 AS gas, count(*)::int AS batches FROM chain.jobs WHERE kind = 'nft_batch' AND status = 'completed'`,
    );
    const gasPerNft = nftRows[0].gas / nfts;
    return {
      jobs,
      writers,
      replicas: 2,
      keyValueBatch: Number(process.env.BENCH_CHAIN_KV_BATCH ?? 64),
      rawTransactionsPerSecond: rawRate.perSecond,
      documentJobsPerSecond: documents.perSecond,
      keyValueJobsPerSecond: keyValues.perSecond,
      documentsVsRaw: round(documents.perSecond / rawRate.perSecond),
      keyValuesVsRaw: round(keyValues.perSecond / rawRate.perSecond),
      acceptedPerSecond: { documents: documents.acceptedPerSecond, keyValues: keyValues.acceptedPerSecond },
      statementsPerJob: { documents: documents.statementsPerJob, keyValues: keyValues.statementsPerJob },
      documentBatches: gasRows[0].batches,
      gasPerDocument: round(gasPerDocument, 0),
      gasPerDocumentUnbatched: round(gasPerDocumentUnbatched, 0),
      gasRatio: round(gasPerDocument / gasPerDocumentUnbatched, 4),
      p99AcceptedToCompletedMs: { documents: documents.p99Ms, keyValues: keyValues.p99Ms, nfts: nftRun.p99Ms },
      p50AcceptedToCompletedMs: { documents: documents.p50Ms, keyValues: keyValues.p50Ms, nfts: nftRun.p50Ms },
      nftJobsPerSecond: nftRun.perSecond,
      nftBatches: nftRows[0].batches,
      gasPerNft: round(gasPerNft, 0),
      gasPerNftUnbatched: round(gasPerNftUnbatched, 0),
      nftGasRatio: round(gasPerNft / gasPerNftUnbatched, 4),
      runs: { raw: rawRate, documents, keyValues, nfts: nftRun },
      notes,
    };
  } finally {
    await sql.end().catch(() => undefined);
    await images.stop();
    await Promise.all(replicas.map((r) => r.stop()));
    await kafka?.stop();
    await node.stop();
    await db.stop();
    rmSync(contentDir, { recursive: true, force: true });
  }
}

export function chainBatchedMarkdown(r) {
  if (r.skipped) return `## (e) Chain writes many per transaction\n\nskipped: ${r.skipped}`;
  const out = [
    '## (e) Chain writes many per transaction (chain.batched)',
    '',
    `${r.jobs} jobs of each kind, ${r.writers} writers over ${r.replicas} chain-service replicas on PostgreSQL${r.notes.length ? '' : ' with Kafka (mock cluster)'}, one JSON-RPC node (Hardhat's EVM, automine); raw: the same number of plain \`insertString\` transactions sent with ethers to the same node in the same run. Documents are anchored under Merkle roots (DocumentRoots); key-value inserts of the one account go in \`insertMany\` batches (\`CHAIN_KV_BATCH=${r.keyValueBatch}\`).`,
    '',
    '| path | jobs/s | vs raw | accepted/s | SQL statements/job | p50 ms | p99 ms |',
    '|---|---:|---:|---:|---:|---:|---:|',
    `| raw transactions | ${r.rawTransactionsPerSecond} | 1.00 | | | | |`,
    `| documents | ${r.documentJobsPerSecond} | ${r.documentsVsRaw} | ${r.acceptedPerSecond.documents} | ${r.statementsPerJob.documents} | ${r.p50AcceptedToCompletedMs.documents} | ${r.p99AcceptedToCompletedMs.documents} |`,
    `| key-value inserts | ${r.keyValueJobsPerSecond} | ${r.keyValuesVsRaw} | ${r.acceptedPerSecond.keyValues} | ${r.statementsPerJob.keyValues} | ${r.p50AcceptedToCompletedMs.keyValues} | ${r.p99AcceptedToCompletedMs.keyValues} |`,
    ...(r.runs.nfts
      ? [`| NFT mints | ${r.nftJobsPerSecond} | ${round(r.nftJobsPerSecond / r.rawTransactionsPerSecond)} | ${r.runs.nfts.acceptedPerSecond} | ${r.runs.nfts.statementsPerJob} | ${r.runs.nfts.p50Ms} | ${r.runs.nfts.p99Ms} |`]
      : []),
    '',
    `Gas per document: ${r.gasPerDocument} in ${r.documentBatches} batch transactions, against ${r.gasPerDocumentUnbatched} for one document anchored alone (${r.gasRatio}x).`,
    ...(r.runs.nfts
      ? [
          '',
          `NFT mints (${r.runs.nfts.jobs}; complete when the transaction is final, certificates drawn on first view): ${r.nftBatches} \`mintDigests\` transactions (metadata stored as its digest), ${r.gasPerNft} gas per NFT against ${r.gasPerNftUnbatched} for one \`mint\` sent alone (${r.nftGasRatio}x).`,
        ]
      : []),
  ];
  for (const n of r.notes) out.push('', n);
  return out.join('\n');
}

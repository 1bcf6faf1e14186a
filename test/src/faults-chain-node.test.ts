import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonRpcProvider, Wallet } from 'ethers';
import { createScratchPostgresDatabase, skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { listJobs } from './support/account-reads.js';
import { topologyEnv, topologyPorts } from './support/distributed.js';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy.js';
import { succeeded, v1Call } from './support/outcomes.js';
import { until, within } from './support/poll.js';
import { startProcesses, type ProcessSet } from './support/processes.js';
import { NODE_SIGNER_KEY, startRpcNodeProcess, type RpcNodeProcess } from './support/rpc-node.js';
import { createUserAccount } from './support/system.js';

const postgres = testDatabases.find((d) => d.name === 'postgresql')!;
const OPERATOR = 'gi_w36cgSzmeSWx8xcAIaJodBbL9nmeCK04hhirRBCII_s'; // BOOTSTRAP_API_KEY: random (a weak one is refused at start)
const HASH = 'SVC.Blockchain.Hash';
const CHAIN_ID = 31337;
/** How long the service waits for any answer of the node (CHAIN_NETWORKS rpcTimeoutMs). */
const RPC_TIMEOUT_MS = 1_500;

/**
 * The chain node taken away from a running chain service. A JSON-RPC node (Hardhat's EVM over HTTP, its
 * own process) sits behind a TCP fault proxy; the chain service is configured with it as a real network
 * (CHAIN_NETWORKS, the contracts deployed on it beforehand), identity, chain and the gateway run as their
 * own processes on a scratch PostgreSQL database. Clients submit key-value jobs while the node refuses
 * connections, while a broadcast reaches the node but its answer is lost, and while a broadcast never
 * reaches it. Every job is accepted and stays queued (not failed) while the node is away; once it is back
 * each completes with exactly one transaction, the nonces in the order the jobs were accepted, and the
 * values read back.
 */
describe('the chain node unreachable behind a running chain service', { skip: await skipReason(postgres), timeout: 120_000 }, () => {
  let db: { url: string; stop(): Promise<void> };
  let node: RpcNodeProcess;
  let proxy: FaultProxy;
  let contentDir: string;
  let procs: ProcessSet | undefined;
  let apiKey: string;
  /** Straight to the node, not through the proxy: the test's own view of the chain. */
  let chain: JsonRpcProvider;

  before(async () => {
    [db, node] = await Promise.all([createScratchPostgresDatabase(), startRpcNodeProcess(CHAIN_ID)]);
    proxy = await startFaultProxy({ host: '127.0.0.1', port: node.port });
    chain = new JsonRpcProvider(node.url, CHAIN_ID, { staticNetwork: true, cacheTimeout: -1 });
    contentDir = mkdtempSync(join(tmpdir(), 'gi-faults-chain-'));
    const network = { name: 'sepolia', chainId: CHAIN_ID, rpcUrl: `http://${proxy.host}:${proxy.port}`, confirmations: 1, pollIntervalMs: 200, rpcTimeoutMs: RPC_TIMEOUT_MS, contracts: node.contracts };
    const env = topologyEnv(await topologyPorts(), {
      DATABASE_URL: db.url,
      DATABASE_POOL_SIZE: '4',
      CONTENT_DIR: contentDir,
      BOOTSTRAP_API_KEY: OPERATOR,
      CHAIN_NETWORKS: JSON.stringify([network]),
      CHAIN_SIGNER_KEY_SEPOLIA: NODE_SIGNER_KEY,
      // One transaction per insert job (batching is on by default): the test counts a nonce per job, and
      // a job stays queued until its own transaction is sent (a batch's members are submitted with it).
      CHAIN_KV_BATCH: '1',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
    });
    procs = await startProcesses(env, ['identity', 'chain', 'gateway']);
    apiKey = await createUserAccount(procs.url, OPERATOR, 'Faults Chain Issuer');
  });

  after(async () => {
    await proxy?.up().catch(() => undefined);
    const exits = await procs?.stop();
    chain?.destroy();
    await Promise.all([proxy?.close(), node?.stop(), db?.stop()]);
    if (contentDir) rmSync(contentDir, { recursive: true, force: true });
    assert.deepEqual(exits?.filter((e) => e.code !== 0), [], procs?.output().slice(-4000));
  });

  const hash = async (operation: string, parameters: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const res = await v1Call(procs!.url, apiKey, { solution: HASH, version: 1, network: 'sepolia', operation, parameters }, headers);
    assert.ok(succeeded(res), `${operation}: ${JSON.stringify(res)}`);
    return (res as { body: any }).body;
  };
  /** insertString, accepted: the job's id. */
  const insert = async (key: string): Promise<string> => (await hash('insertString', { key, value: `v-${key}` }, { 'idempotency-key': key })).info.jobId;
  const fetchJob = (jobId: string) => hash('fetch', { jobId });
  const finished = (jobId: string) =>
    until(() => fetchJob(jobId), (j) => ['completed', 'failed'].includes(j.info.status.Value), `job ${jobId}`, 30_000, 200);
  /** Waits until the chain service's log shows a new attempt of its worker failing on the node. */
  const workerFailedSince = async (mark: number, what: string) =>
    until(async () => procs!.output().slice(mark), (out) => /event handler failed; retrying|sending queued jobs failed; retrying/.test(out), what, 20_000, 100);
  /** Arms a cut at the worker's next broadcast, lets the worker reach the node, and waits for the cut. */
  const cutAtBroadcast = async (forward: boolean) => {
    const cut = proxy.cutWhen((chunk) => chunk.includes('eth_sendRawTransaction'), { forward });
    await proxy.up();
    await within(cut, 20_000, 'a broadcast through the proxy');
  };

  /**
   * One transaction per job, sent by the service's signer to the key-value store and mined successfully,
   * the nonces in the order the jobs were accepted, nothing else from the signer on the chain or in the
   * node's pool.
   */
  const assertOneTransactionEach = async (ids: string[], keys: string[], nonceBefore: number) => {
    const signer = new Wallet(NODE_SIGNER_KEY).address;
    const listed = new Map((await listJobs(procs!.url, apiKey)).map((j) => [j.id, j]));
    const txs = await Promise.all(ids.map((id) => chain.getTransaction(listed.get(id)!.txHash!)));
    for (const [i, tx] of txs.entries()) {
      assert.ok(tx, `${keys[i]}: its transaction is on the chain`);
      assert.equal(tx.from, signer);
      assert.equal(tx.to, node.contracts.keyValueStore);
      assert.equal((await chain.getTransactionReceipt(tx.hash))?.status, 1);
      assert.equal(listed.get(ids[i]!)!.attempts, 1, `${keys[i]} was signed once`);
    }
    assert.deepEqual(txs.map((tx) => tx!.nonce), ids.map((_, i) => nonceBefore + i), 'nonces in the order the jobs were accepted');
    assert.equal(await chain.getTransactionCount(signer, 'latest'), nonceBefore + ids.length, 'exactly one transaction per job');
    assert.equal(await chain.getTransactionCount(signer, 'pending'), nonceBefore + ids.length, 'nothing left in the pool');
  };
  /**
   * Every job completed (polled through the gateway); then one more accepted after them and completed, which
   * joins `ids` and `keys`: a late duplicate send would have reached the node by then, where they are counted.
   */
  const allCompleted = async (ids: string[], keys: string[], since: number, t: { diagnostic(m: string): void }) => {
    const done = await Promise.all(ids.map(finished));
    t.diagnostic(`all ${ids.length} jobs completed ${Date.now() - since} ms after the node came back`);
    assert.deepEqual(done.map((j) => j.info.status.Value), ids.map(() => 'completed'), JSON.stringify(done.map((j) => j.info)));
    const fenceKey = `fence-${keys[0]}`;
    const fence = await insert(fenceKey);
    assert.equal((await finished(fence)).info.status.Value, 'completed');
    ids.push(fence);
    keys.push(fenceKey);
  };
  /** Every job still waiting, none sent, none failed: what a client sees while the node is away. */
  const assertQueued = async (ids: string[]) => {
    for (const id of ids) {
      const job = await fetchJob(id);
      assert.equal(job.info.status.Value, 'queued', `${id} while the node is away: ${JSON.stringify(job.info)}`);
    }
    const listed = (await listJobs(procs!.url, apiKey)).filter((j) => ids.includes(j.id));
    assert.deepEqual(listed.map((j) => [j.status, j.attempts, j.error]), ids.map(() => ['QUEUED', 0, null]), 'queued, nothing sent, no error');
  };

  const nonce = () => chain.getTransactionCount(new Wallet(NODE_SIGNER_KEY).address, 'latest');
  /** The jobs a test had accepted, in order. */
  const accepted = () => {
    const keys: string[] = [];
    const ids: string[] = [];
    const accept = async (key: string) => {
      keys.push(key);
      ids.push(await insert(key));
    };
    return { keys, ids, accept };
  };
  /** The job's transaction hash once the service recorded it as sent (SUBMITTED). */
  const submittedJob = async (id: string): Promise<string> => {
    const job = await until(
      async () => (await listJobs(procs!.url, apiKey)).find((j) => j.id === id),
      (j) => j?.status === 'SUBMITTED',
      `job ${id} submitted`,
    );
    return job!.txHash!;
  };

  it('accepts jobs while the node is away, keeps them queued, and sends each exactly once when it is back', async (t) => {
    assert.equal((await finished(await insert('warm-up'))).info.status.Value, 'completed');
    const nonceBefore = await nonce();
    const { keys, ids, accept } = accepted();

    try {
      // Refused: every job is accepted (stored, in the outbox), the worker's attempts fail and it retries.
      await proxy.down();
      const mark = procs!.output().length;
      for (const key of ['refused-0', 'refused-1', 'refused-2']) await accept(key);
      await workerFailedSince(mark, 'the worker trying the unreachable node');
      await assertQueued(ids);

      // Back for a moment: the node gets the waiting jobs' transactions (one batch, the first job's at
      // least) and mines them, but the answer is lost on the way back; then it is away again. The service
      // holds the jobs as submitted, unsure.
      await cutAtBroadcast(true);
      const answerLost = await submittedJob(ids[0]!);
      assert.equal((await chain.getTransactionReceipt(answerLost))?.status, 1, 'the node mined the transaction whose answer was lost');
      await accept('refused-3');
      // Back for a moment: the next job's transaction is signed and stored, but never reaches the node.
      await cutAtBroadcast(false);
      const neverSent = await submittedJob(ids[3]!);
      assert.equal(await chain.getTransaction(neverSent), null, 'the node never got the transaction of the job accepted after the first cut');
      await accept('refused-4');
    } finally {
      await proxy.up();
    }
    const upAt = Date.now();

    await allCompleted(ids, keys, upAt, t);

    await assertOneTransactionEach(ids, keys, nonceBefore);

    // Read back through the service: every value is there.
    for (const key of keys) {
      const read = await finished((await hash('selectString', { key })).info.jobId);
      assert.deepEqual(read.info.result, { key, value: `v-${key}` });
    }
  });

  it('gives up on a node that takes connections but never answers, and sends each job once when it answers again', async (t) => {
    const nonceBefore = await nonce();
    const { keys, ids, accept } = accepted();
    try {
      await proxy.blackhole();
      const mark = procs!.output().length;
      for (const key of ['hanging-0', 'hanging-1']) await accept(key);
      // Each call to the node ends after the network's rpcTimeoutMs; the worker retries, the jobs wait.
      await workerFailedSince(mark, 'the worker giving up on the hanging node');
      await assertQueued(ids);
    } finally {
      await proxy.up();
    }
    await allCompleted(ids, keys, Date.now(), t);
    await assertOneTransactionEach(ids, keys, nonceBefore);
  });
});

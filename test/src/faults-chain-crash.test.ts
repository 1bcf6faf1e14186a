import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Interface, JsonRpcProvider, Wallet } from 'ethers';
import pg from 'pg';
import { ChainServiceService, DocumentKind } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { createGrpcClient } from '@green-impact/shared/grpc/client';

type ChainClient = ReturnType<typeof createGrpcClient<typeof ChainServiceService>>;
import { createScratchPostgresDatabase, skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { startKafkaMock, type KafkaMock } from '@green-impact/testing/shared/kafka-mock';
import { jsonRpcOver, verifyDocumentProof, type DocumentProof } from '@green-impact/chain/proofs/document-proof';
import { trustAnchorOf } from '@green-impact/chain/proofs/trust-anchor';
import { startImageServer, testJpeg } from '@green-impact/testing/chain/nft-fixtures';
import { startChainReplica, type ChainReplica } from './support/chain-replica.js';
import { until } from './support/poll.js';
import { NODE_SIGNER_KEY, startRpcNodeProcess, type RpcNodeProcess } from './support/rpc-node.js';

const postgres = testDatabases.find((d) => d.name === 'postgresql')!;
const CHAIN_ID = 31338;
const SIGNER = new Wallet(NODE_SIGNER_KEY).address;
const kv = new Interface([
  'function insertString(bytes32 namespace, string key, string value)',
  'function insertMany(bytes32 namespace, (string key, bool isWord, string value, bytes32 word)[] entries)',
]);
const roots = new Interface(['function anchorRoot(bytes32 root, uint32 count)']);
const nft = new Interface([
  'function mintDigests(address[] to, bytes32[] digests)',
  'function tokenURI(uint256 tokenId) view returns (string)',
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
]);

/**
 * Chain service processes killed with SIGKILL (no shutdown hook, leases left behind) while a pipelined
 * batch is on its way, on PostgreSQL and Kafka (librdkafka's mock cluster), against a JSON-RPC node of its
 * own. The proof is on the node itself: every block is read back and each accepted job's key must be
 * written by exactly one successful transaction of the service's signer, and nothing is left in its pool.
 */
describe('chain replicas on PostgreSQL and Kafka: killed mid-batch, refused transactions, shared content', { skip: await skipReason(postgres), timeout: 300_000 }, () => {
  let db: { url: string; stop(): Promise<void> };
  let node: RpcNodeProcess;
  let kafka: KafkaMock;
  let chain: JsonRpcProvider;
  let sql: pg.Client;
  let contentDir: string;
  let env: Record<string, string>;
  const replicas: ChainReplica[] = [];
  const caller = { accountId: randomUUID(), role: 'user' as const };

  before(async () => {
    [db, node, kafka] = await Promise.all([createScratchPostgresDatabase(), startRpcNodeProcess(CHAIN_ID), startKafkaMock({ partitions: 3 })]);
    chain = new JsonRpcProvider(node.url, CHAIN_ID, { staticNetwork: true, cacheTimeout: -1 });
    sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
    contentDir = mkdtempSync(join(tmpdir(), 'gi-chain-crash-'));
    const network = { name: 'sepolia', chainId: CHAIN_ID, rpcUrl: node.url, confirmations: 1, pollIntervalMs: 200, contracts: node.contracts };
    env = {
      DATABASE_URL: db.url,
      DATABASE_POOL_SIZE: '6',
      CONTENT_DIR: contentDir,
      CHAIN_NETWORKS: JSON.stringify([network]),
      CHAIN_SIGNER_KEY_SEPOLIA: NODE_SIGNER_KEY,
      KAFKA_BROKERS: kafka.brokers.join(','),
      // A killed member leaves the consumer group after this, not kafkajs's 30 s.
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      KAFKA_HEARTBEAT_INTERVAL_MS: '500',
      // Small batches, so a kill lands between batches as well as inside one; short leases, so the
      // survivor takes over within seconds.
      CHAIN_SEND_BATCH: '16',
      CHAIN_SIGNER_LEASE_MS: '2000',
      CHAIN_JOB_LEASE_MS: '3000',
      // One transaction per insert job (batching is on by default): these tests count a nonce per job on
      // the node; the batched default has a crash test of its own below.
      CHAIN_KV_BATCH: '1',
    };
  });

  after(async () => {
    await Promise.all(replicas.map((r) => r.kill()));
    // How often a replica synced its consumer group after the leader (answered by the wire proxy, kafka-mock.ts).
    const lateSyncs = kafka?.proxy?.syncGroupCorrections().length ?? 0;
    if (lateSyncs > 0) console.log(`chain replicas: ${lateSyncs} late SyncGroup answered with the leader's assignment`);
    chain?.destroy();
    await sql?.end();
    await Promise.all([node?.stop(), kafka?.stop(), db?.stop()]);
    if (contentDir) rmSync(contentDir, { recursive: true, force: true });
  });

  /** Each test ends with no replica left running, whatever happened in it. */
  afterEach(async () => {
    await Promise.all(replicas.splice(0).map((r) => r.kill()));
  });

  const start = async () => {
    const r = await startChainReplica(env);
    replicas.push(r);
    return r;
  };
  const clientOf = (r: ChainReplica): ChainClient => createGrpcClient(ChainServiceService, r.address);

  /**
   * Submits `n` inserts over `clients` (alternating), 8 at a time; answers job id → key. The first failed
   * request (a replica killed) stops every sender, and it rejects only once none is still in the air.
   */
  const submit = async (clients: ChainClient[], prefix: string, n: number): Promise<Map<string, string>> => {
    const jobs = new Map<string, string>();
    let next = 0;
    let failed = false;
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, async () => {
        for (let i; !failed && (i = next++) < n; ) {
          const key = `${prefix}-${i}`;
          try {
            const answer = await clients[i % clients.length]!.insertString({ network: 'sepolia', key, value: `value of ${key}` }, { caller });
            jobs.set(answer.jobId, key);
          } catch (err) {
            failed = true;
            throw err;
          }
        }
      }),
    );
    const rejected = results.find((r) => r.status === 'rejected');
    if (rejected) throw (rejected as PromiseRejectedResult).reason;
    return jobs;
  };

  /** The signer's transactions mined from block `from` on: the key each one wrote and its status, and the fillers. */
  const minedKeys = async (from: number): Promise<{ writes: { key: string; ok: boolean }[]; fillers: number }> => {
    const latest = await chain.getBlockNumber();
    const writes: { key: string; ok: boolean }[] = [];
    let fillers = 0;
    for (let b = from; b <= latest; b++) {
      const block = await chain.getBlock(b, true);
      for (const tx of block!.prefetchedTransactions) {
        if (tx.from !== SIGNER) continue;
        if (tx.to === SIGNER && tx.data === '0x') {
          fillers++;
          continue;
        }
        assert.equal(tx.to, node.contracts.keyValueStore, `${tx.hash} is a key-value write`);
        const receipt = await chain.getTransactionReceipt(tx.hash);
        writes.push({ key: kv.decodeFunctionData('insertString', tx.data)[1] as string, ok: receipt?.status === 1 });
      }
    }
    return { writes, fillers };
  };

  const statuses = async (ids: string[]) => {
    const { rows } = await sql.query<{ status: string; n: number }>(
      `SELECT status, count(*)::int AS n FROM chain.jobs WHERE id = ANY($1) GROUP BY status`,
      [ids],
    );
    return Object.fromEntries(rows.map((r) => [r.status, r.n])) as Record<string, number>;
  };

  /** Every job completed, each key written by exactly one successful transaction, nothing else pending. */
  const assertExactlyOnce = async (jobs: Map<string, string>, fromBlock: number, nonceBefore: number, maxFillers = 0) => {
    const ids = [...jobs.keys()];
    await until(() => statuses(ids), (s) => s['completed'] === ids.length, 'every job completed', 120_000, 250);
    const { writes: mined, fillers } = await minedKeys(fromBlock);
    assert.ok(fillers <= maxFillers, `${fillers} fillers, at most ${maxFillers} (one per refused job)`);
    const counts = new Map<string, number>();
    for (const m of mined) {
      assert.ok(m.ok, `the transaction writing ${m.key} succeeded`);
      counts.set(m.key, (counts.get(m.key) ?? 0) + 1);
    }
    const doubled = [...counts].filter(([, n]) => n > 1);
    assert.deepEqual(doubled, [], 'no key written twice');
    assert.deepEqual([...jobs.values()].filter((k) => !counts.has(k)), [], 'every accepted key written');
    assert.equal(mined.length, jobs.size, 'one transaction per job');
    // Fillers: transfers of nothing to the signer itself, on the nonces of refused jobs.
    assert.equal(await chain.getTransactionCount(SIGNER, 'latest'), nonceBefore + jobs.size + fillers, 'one nonce per job, no gap');
    assert.equal(await chain.getTransactionCount(SIGNER, 'pending'), nonceBefore + jobs.size + fillers, "nothing left in the node's pool");
    const { rows } = await sql.query<{ n: number }>(`SELECT count(DISTINCT tx_hash)::int AS n FROM chain.jobs WHERE id = ANY($1)`, [ids]);
    assert.equal(rows[0]!.n, jobs.size, 'each job names its own transaction');
  };

  /** Waits until the node mined some of `jobs` but not all of them: a pipeline in full flow. */
  const midBatch = async (jobs: () => number, nonceBefore: number) =>
    until(
      async () => (await chain.getTransactionCount(SIGNER, 'latest')) - nonceBefore,
      (mined) => mined >= 8 && mined < jobs() - 8,
      'some jobs mined, many still to send',
      60_000,
      5,
    );

  /**
   * Kills `first` once some of the `n` jobs `rows` reads completed and many are still to be accepted, lets
   * `submitting` settle, starts another replica on `replicaEnv` and waits until every accepted job completed.
   */
  const killMidwayAndRestart = async <R extends { id: string; status: string }>(
    first: ChainReplica,
    replicaEnv: Record<string, string>,
    submitting: Promise<unknown>,
    rows: () => Promise<R[]>,
    n: number,
    what: string,
    t: { diagnostic(message: string): void },
  ): Promise<{ second: ChainReplica; done: R[] }> => {
    // Some completed, some accepted and not yet completed (in flight at the kill), many still to be sent.
    await until(
      rows,
      (r) => r.filter((j) => j.status === 'completed').length >= 16 && r.some((j) => j.status !== 'completed') && r.length < n - 16,
      `some ${what} completed, some in flight, many to come`,
      60_000,
      5,
    );
    await first.kill();
    await submitting;
    const accepted = await rows();
    t.diagnostic(`killed with ${JSON.stringify(await statuses(accepted.map((r) => r.id)))} of ${accepted.length} accepted ${what}`);
    const second = await startChainReplica(replicaEnv);
    replicas.push(second);
    await until(rows, (r) => r.every((j) => j.status === 'completed'), `every accepted one of the ${what} completed`, 120_000, 250);
    return { second, done: await rows() };
  };

  it('transactions the node refuses fail their jobs with the reason; the rest wait, the gap is filled, nothing doubled', async () => {
    const replica = await start();
    const client = clientOf(replica);
    const fromBlock = (await chain.getBlockNumber()) + 1;
    const nonceBefore = await chain.getTransactionCount(SIGNER, 'latest');
    const balance: string = await chain.send('eth_getBalance', [SIGNER, 'latest']);
    await chain.send('hardhat_setBalance', [SIGNER, '0x0']);
    let broke: Map<string, string>;
    try {
      // The node refuses the first for want of funds; it may refuse a later one the same way, or answer
      // "nonce too high" (Hardhat queues nothing while automining) and keep it waiting for the gap.
      broke = await submit([client], 'broke', 3);
      const ids = [...broke.keys()];
      await until(() => statuses(ids), (s) => (s['failed'] ?? 0) >= 1 && (s['failed'] ?? 0) + (s['submitted'] ?? 0) === 3, 'the first broke job failed', 30_000, 100);
      const { rows } = await sql.query<{ error: string }>(`SELECT error FROM chain.jobs WHERE id = ANY($1) AND status = 'failed'`, [ids]);
      for (const { error } of rows) assert.match(error, /^The network refused the transaction: .*(insufficient|enough) funds/i);
    } finally {
      await chain.send('hardhat_setBalance', [SIGNER, balance]);
    }
    const ids = [...broke.keys()];
    await until(() => statuses(ids), (s) => (s['failed'] ?? 0) + (s['completed'] ?? 0) === 3, 'the broke jobs settled once funds came back', 30_000, 100);
    const paid = await submit([client], 'paid', 12);
    const { rows } = await sql.query<{ id: string; kv_key: string }>(`SELECT id, kv_key FROM chain.jobs WHERE id = ANY($1) AND status = 'completed'`, [ids]);
    await assertExactlyOnce(new Map([...rows.map((r) => [r.id, r.kv_key] as const), ...paid]), fromBlock, nonceBefore, 3 - rows.length);
    assert.equal(await replica.stop(), 0);
  });

  it('replicas share content through the database, each with a folder of its own', async () => {
    const a = await start();
    const b = await startChainReplica({ ...env, CONTENT_DIR: mkdtempSync(join(tmpdir(), 'gi-chain-crash-b-')) });
    replicas.push(b);
    const content = Buffer.from(JSON.stringify({ framework: 'GBF', written: 'through replica a' }));
    const submitted = await clientOf(a).submitDocument(
      { kind: DocumentKind.DOCUMENT_KIND_FRAMEWORK_JSON, network: 'sepolia', content, contentType: 'application/json', frameworkIdentifier: 'GBF', public: true },
      { caller },
    );
    const { rows } = await sql.query<{ cid: string }>(`SELECT cid FROM chain.documents WHERE job_id = $1`, [submitted.job!.id]);
    const read = await clientOf(b).getContent({ cid: rows[0]!.cid }, { caller });
    assert.ok(Buffer.from(read.content).equals(content), 'replica b serves what replica a stored');
    assert.equal(read.contentType, 'application/json');
    await until(() => statuses([submitted.job!.id]), (st) => st['completed'] === 1, 'the document anchored', 30_000, 100);
  });

  it('SIGKILL of the only replica mid-batch, then a restart: every accepted job mined exactly once', async (t) => {
    const first = await start();
    const fromBlock = (await chain.getBlockNumber()) + 1;
    const nonceBefore = await chain.getTransactionCount(SIGNER, 'latest');
    const client = clientOf(first);
    const N = 160;
    // A request the kill cuts off was never accepted; the database tells what was.
    const submitting = submit([client], 'solo', N).catch(() => undefined);
    await midBatch(() => N, nonceBefore);
    await first.kill();
    const accepted = await submitting;
    const { rows } = await sql.query<{ id: string; kv_key: string }>(`SELECT id, kv_key FROM chain.jobs WHERE kv_key LIKE 'solo-%'`);
    const jobs = accepted ?? new Map(rows.map((r) => [r.id, r.kv_key]));
    t.diagnostic(`killed with ${JSON.stringify(await statuses([...jobs.keys()]))} of ${jobs.size} accepted jobs`);
    const restartedAt = Date.now();
    const second = await start();
    await assertExactlyOnce(jobs, fromBlock, nonceBefore);
    t.diagnostic(`all completed ${Date.now() - restartedAt} ms after the restart`);
    await second.stop();
  });

  it('two replicas, the one holding the signer killed mid-batch: the other finishes, nothing doubled', async (t) => {
    const [a, b] = [await start(), await start()];
    const fromBlock = (await chain.getBlockNumber()) + 1;
    const nonceBefore = await chain.getTransactionCount(SIGNER, 'latest');
    const N = 200;
    const submitting = submit([clientOf(a), clientOf(b)], 'pair', N).catch(() => undefined);
    await midBatch(() => N, nonceBefore);
    const { rows: lease } = await sql.query<{ lease_owner: string }>(`SELECT lease_owner FROM chain.signer_nonces WHERE signer = $1`, [SIGNER]);
    const holder = [a, b].find((r) => r.workerId === lease[0]?.lease_owner);
    assert.ok(holder, `one replica holds the signer: ${JSON.stringify(lease)}`);
    const survivor = holder === a ? b : a;
    await holder.kill();
    t.diagnostic(`killed the signer's holder ${holder.workerId}`);
    // Requests that went to the killed replica may have failed; what the database accepted is the truth.
    await submitting;
    const { rows } = await sql.query<{ id: string; kv_key: string }>(`SELECT id, kv_key FROM chain.jobs WHERE kv_key LIKE 'pair-%'`);
    const jobs = new Map(rows.map((r) => [r.id, r.kv_key]));
    t.diagnostic(`${jobs.size} accepted: ${JSON.stringify(await statuses([...jobs.keys()]))}`);
    const killedAt = Date.now();
    await assertExactlyOnce(jobs, fromBlock, nonceBefore);
    t.diagnostic(`all completed ${Date.now() - killedAt} ms after the kill`);
    const { rows: after } = await sql.query<{ lease_owner: string }>(`SELECT lease_owner FROM chain.signer_nonces WHERE signer = $1`, [SIGNER]);
    assert.equal(after[0]!.lease_owner, survivor.workerId, 'the survivor took the signer over');
    assert.equal(await survivor.stop(), 0);
  });

  it('SIGKILL of the replica forming and sending document batches, then a restart: every document under exactly one mined root', async (t) => {
    // Batches of at most 8, so the kill lands between forming, signing and mining many of them.
    const batchEnv = { ...env, CHAIN_DOCUMENT_BATCH: '8', CHAIN_DOCUMENT_BATCH_WINDOW_MS: '20' };
    const first = await startChainReplica(batchEnv);
    replicas.push(first);
    const fromBlock = (await chain.getBlockNumber()) + 1;
    const N = 160;
    const content = (i: number) => Buffer.from(`<html><body><p>document ${i} of the crash test</p></body></html>`);
    const client = clientOf(first);
    const crashDocs = async () =>
      (await sql.query<{ id: string; status: string; framework_identifier: string; proof: { root: string } | null; batch_job_id: string | null }>(
        `SELECT id, status, framework_identifier, proof, batch_job_id FROM chain.jobs WHERE kind = 'document' AND framework_identifier LIKE 'CRASH-%'`,
      )).rows;
    // A first part, then the rest once some of it completed: the set-based intake accepts a burst faster than
    // the first batches complete, so without the pause every document could be accepted before the first
    // completion and the kill would find nothing still to come (as in the key-value test below).
    const FIRST = 48;
    const someCompleted = until(crashDocs, (r) => r.filter((j) => j.status === 'completed').length >= 16, 'some documents completed', 60_000, 5);
    someCompleted.catch(() => undefined); // awaited below; a time-out fails killMidwayAndRestart's own wait
    /** Documents from..to-1, eight at a time. */
    const submitRange = (from: number, to: number) => {
      let next = from;
      return Promise.allSettled(
        Array.from({ length: 8 }, async () => {
          for (let i; (i = next++) < to; ) {
            await client.submitDocument(
              { kind: DocumentKind.DOCUMENT_KIND_FRAMEWORK_HTML, network: 'sepolia', content: content(i), contentType: 'text/html', frameworkIdentifier: `CRASH-${i}` },
              { caller },
            );
          }
        }),
      );
    };
    const submitting = (async () => {
      await submitRange(0, FIRST);
      await someCompleted;
      await submitRange(FIRST, N);
    })().catch(() => undefined);
    const { second, done } = await killMidwayAndRestart(first, batchEnv, submitting, crashDocs, N, 'documents', t);

    // On the node: every transaction of the signer since is one anchorRoot that succeeded, no root twice.
    const mined = new Map<string, number>();
    for (let b = fromBlock, latest = await chain.getBlockNumber(); b <= latest; b++) {
      for (const tx of (await chain.getBlock(b, true))!.prefetchedTransactions) {
        if (tx.from !== SIGNER || (tx.to === SIGNER && tx.data === '0x')) continue;
        assert.equal(tx.to, node.contracts.documentRoots, `${tx.hash} anchors a root`);
        assert.equal((await chain.getTransactionReceipt(tx.hash))!.status, 1, `${tx.hash} succeeded`);
        const [root, count] = roots.decodeFunctionData('anchorRoot', tx.data) as unknown as [string, bigint];
        assert.ok(!mined.has(root), `root ${root} anchored once`);
        mined.set(root.toLowerCase(), Number(count));
      }
    }
    const perRoot = new Map<string, number>();
    for (const r of done) perRoot.set(r.proof!.root, (perRoot.get(r.proof!.root) ?? 0) + 1);
    assert.deepEqual([...perRoot.keys()].filter((root) => !mined.has(root)), [], "every document's root is mined");
    assert.deepEqual([...mined].filter(([root, count]) => perRoot.get(root) !== count), [], 'each mined root carries exactly its batch');
    assert.equal(await chain.getTransactionCount(SIGNER, 'pending'), await chain.getTransactionCount(SIGNER, 'latest'), "nothing left in the node's pool");
    // Each document checked by the standalone verifier against the node, its bytes regenerated here.
    const rpc = jsonRpcOver(node.url);
    // Trusting what the deployment is configured with: the node's contracts and the signer.
    const trust = trustAnchorOf([{ name: 'sepolia', chainId: CHAIN_ID, signerAddress: SIGNER, contracts: node.contracts }]);
    for (const r of done) {
      const { job } = await clientOf(second).getJob({ jobId: r.id }, { caller });
      const proof = job!.document!.proof! as unknown as DocumentProof;
      const check = await verifyDocumentProof(proof, rpc, content(Number(r.framework_identifier.slice('CRASH-'.length))), trust);
      assert.equal(check.verified, true, `${r.id}: ${JSON.stringify(check.checks.filter((c) => !c.ok))}`);
    }
    assert.equal(await second.stop(), 0);
  });

  it('SIGKILL of the replica forming and sending key-value batches (the default), then a restart: every insert in exactly one mined insertMany', async (t) => {
    const { CHAIN_KV_BATCH: _unbatched, ...batchedEnv } = env;
    const first = await startChainReplica(batchedEnv);
    replicas.push(first);
    const fromBlock = (await chain.getBlockNumber()) + 1;
    const N = 240;
    const inserts = async () =>
      (await sql.query<{ id: string; status: string; kv_key: string; tx_hash: string | null; batch_job_id: string | null }>(
        `SELECT id, status, kv_key, tx_hash, batch_job_id FROM chain.jobs WHERE kv_key LIKE 'many-%'`,
      )).rows;
    // A first part, then the rest once some of it completed: the intake takes a burst of inserts faster than
    // the first batches complete, so without the pause every insert could be accepted before the first
    // completion and the kill would find nothing still to come.
    const FIRST = 60;
    const someCompleted = until(inserts, (r) => r.filter((j) => j.status === 'completed').length >= 16, 'some inserts completed', 60_000, 5);
    someCompleted.catch(() => undefined); // awaited below; a time-out fails killMidwayAndRestart's own wait
    const submitting = (async () => {
      await submit([clientOf(first)], 'many', FIRST);
      await someCompleted;
      await submit([clientOf(first)], 'many-late', N - FIRST);
    })().catch(() => undefined);
    const { second, done } = await killMidwayAndRestart(first, batchedEnv, submitting, inserts, N, 'inserts', t);

    // On the node: every transaction of the signer since is a key-value write that succeeded, each key in exactly one.
    const writtenBy = new Map<string, string[]>();
    let batches = 0;
    for (let b = fromBlock, latest = await chain.getBlockNumber(); b <= latest; b++) {
      for (const tx of (await chain.getBlock(b, true))!.prefetchedTransactions) {
        if (tx.from !== SIGNER) continue;
        assert.equal(tx.to, node.contracts.keyValueStore, `${tx.hash} is a key-value write`);
        assert.equal((await chain.getTransactionReceipt(tx.hash))!.status, 1, `${tx.hash} succeeded`);
        const call = kv.parseTransaction({ data: tx.data })!;
        const keys = call.name === 'insertMany' ? (call.args[1] as { key: string }[]).map((e) => e.key) : [call.args[1] as string];
        if (call.name === 'insertMany') batches++;
        for (const key of keys) writtenBy.set(key, [...(writtenBy.get(key) ?? []), tx.hash]);
      }
    }
    assert.deepEqual([...writtenBy].filter(([, txs]) => txs.length > 1), [], 'no key written twice');
    assert.deepEqual(done.filter((r) => writtenBy.get(r.kv_key)?.[0] !== r.tx_hash), [], "each insert completed with the transaction that wrote its key");
    assert.equal(writtenBy.size, done.length, 'nothing written that was not accepted');
    assert.ok(batches < done.length / 2, `${done.length} inserts in ${batches} insertMany transactions`);
    assert.equal(await chain.getTransactionCount(SIGNER, 'pending'), await chain.getTransactionCount(SIGNER, 'latest'), "nothing left in the node's pool");
    t.diagnostic(`${done.length} inserts in ${batches} transactions`);
    assert.equal(await second.stop(), 0);
  });
  it('SIGKILL of the replica after a mintDigests batch was mined, before its mints were settled, then a restart: every NFT minted exactly once', async (t) => {
    const images = await startImageServer({ '/art.jpg': { type: 'image/jpeg', body: testJpeg() } });
    t.after(() => images.stop());
    const nftEnv = { ...env, NFT_IMAGE_ALLOW_PRIVATE_HOSTS: 'true', CHAIN_NFT_BATCH: '8' };
    const first = await startChainReplica(nftEnv);
    replicas.push(first);
    const fromBlock = (await chain.getBlockNumber()) + 1;
    const nonceBefore = await chain.getTransactionCount(SIGNER, 'latest');
    const N = 40;
    const client = clientOf(first);
    const accepted: string[] = [];
    for (let i = 0; i < N; i += 8) {
      const answers = await Promise.all(
        Array.from({ length: Math.min(8, N - i) }, (_, j) =>
          client.mintNft({ network: 'sepolia', name: `Crash certificate ${i + j}`, description: 'minted while a replica dies', image: `${images.url}/art.jpg`, attributes: [] }, { caller }),
        ),
      );
      accepted.push(...answers.map((a) => a.jobId));
    }
    const mints = async () =>
      (await sql.query<{ id: string; status: string; tx_hash: string | null; guid: string }>(
        `SELECT id, status, tx_hash, payload->>'guid' AS guid FROM chain.jobs WHERE id = ANY($1)`,
        [accepted],
      )).rows;
    // Killed once a batch is mined on the node while mints are still to settle (the 40 are accepted 8 at a
    // time, so later batches are still queued or mined but unsettled): the crash this batching adds.
    await until(
      async () => ({ mined: await chain.getTransactionCount(SIGNER, 'latest'), completed: (await mints()).filter((r) => r.status === 'completed').length }),
      ({ mined, completed }) => mined > nonceBefore && completed < N - 8,
      'a mintDigests batch mined, mints still to settle',
      60_000,
      5,
    );
    await first.kill();
    t.diagnostic(`killed with ${JSON.stringify(await statuses(accepted))} of ${N} mints`);
    const second = await startChainReplica(nftEnv);
    replicas.push(second);
    await until(mints, (r) => r.every((j) => j.status === 'completed'), 'every mint completed', 180_000, 250);
    const done = await mints();

    // On the node: every transaction of the signer since is a mintDigests that succeeded; each token minted once.
    const mintedBy = new Map<string, string>();
    let transactions = 0;
    for (let b = fromBlock, latest = await chain.getBlockNumber(); b <= latest; b++) {
      for (const tx of (await chain.getBlock(b, true))!.prefetchedTransactions) {
        if (tx.from !== SIGNER) continue;
        transactions++;
        assert.equal(tx.to, node.contracts.nft, `${tx.hash} is an NFT write`);
        assert.equal(nft.parseTransaction({ data: tx.data })?.name, 'mintDigests');
        const receipt = (await chain.getTransactionReceipt(tx.hash))!;
        assert.equal(receipt.status, 1, `${tx.hash} succeeded`);
        for (const log of receipt.logs) {
          const parsed = nft.parseLog({ topics: [...log.topics], data: log.data });
          if (parsed?.name !== 'Transfer') continue;
          const id = (parsed.args[2] as bigint).toString();
          assert.ok(!mintedBy.has(id), `token ${id} minted once`);
          mintedBy.set(id, tx.hash);
        }
      }
    }
    assert.equal(mintedBy.size, N, `${N} tokens minted on the node for ${N} accepted mints`);
    const stored = (await sql.query<{ guid: string; token_id: string; metadata_cid: string; mint_tx_hash: string; status: string }>(
      `SELECT guid, token_id::text, metadata_cid, mint_tx_hash, status FROM chain.nfts WHERE guid = ANY($1)`,
      [done.map((r) => r.guid)],
    )).rows;
    assert.equal(stored.length, N);
    assert.deepEqual(stored.filter((r) => r.status !== 'created'), [], 'every NFT created');
    assert.equal(new Set(stored.map((r) => r.token_id)).size, N, 'each NFT its own token');
    for (const r of stored) {
      assert.equal(mintedBy.get(r.token_id), r.mint_tx_hash, `NFT ${r.guid} names the transaction that minted its token`);
      const [uri] = nft.decodeFunctionResult('tokenURI', await chain.call({ to: node.contracts.nft, data: nft.encodeFunctionData('tokenURI', [BigInt(r.token_id)]) }));
      assert.equal(uri, `ipfs://${r.metadata_cid}`, `token ${r.token_id} carries NFT ${r.guid}'s metadata`);
    }
    assert.ok(transactions < N / 2, `${N} mints in ${transactions} transactions`);
    assert.equal(await chain.getTransactionCount(SIGNER, 'pending'), await chain.getTransactionCount(SIGNER, 'latest'), "nothing left in the node's pool");
    t.diagnostic(`${N} mints in ${transactions} transactions`);
    assert.equal(await second.stop(), 0);
  });
});

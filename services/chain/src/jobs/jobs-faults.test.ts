import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { JobStatus, type WatchJobsResponse } from '@green-impact/proto/greenimpact/chain/v1/chain';
import type { BusLogger } from '@green-impact/shared/bus/event-bus';
import { KafkaBus } from '@green-impact/shared/bus/kafka-bus';
import { createLogger } from '@green-impact/shared/logger';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { startKafkaMock, type KafkaMock } from '@green-impact/testing/shared/kafka-mock';
import type { ChainNetwork } from '../networks/chain-network.js';
import { TOPIC_JOBS } from '../schema.js';
import { LEASE_MS } from '../worker/job-sender.js';
import { fenceJob, ONE_INSERT_PER_TRANSACTION, startChainHarness, waitForJob, waitUntil, watchJobs, type ChainHarness } from '@green-impact/testing/chain/harness';
import type { JobRow } from './entities.js';

const pglite = testDatabases.find((d) => d.name === 'pglite')!;
const postgresql = testDatabases.find((d) => d.name === 'postgresql')!;
// Before any suite is declared: under --test-force-exit a suite declared after a later top-level await may never run.
const postgresqlSkip = await skipReason(postgresql);
const { COMPLETED, QUEUED, SUBMITTED } = {
  COMPLETED: JobStatus.JOB_STATUS_COMPLETED,
  QUEUED: JobStatus.JOB_STATUS_QUEUED,
  SUBMITTED: JobStatus.JOB_STATUS_SUBMITTED,
};

type Rpc = (method: string, params?: unknown[]) => Promise<unknown>;
const rpcOf = (network: ChainNetwork): Rpc => (method, params = []) => network.edr!.request({ method, params });

/** Every job's row, in the order of `ids`. */
const rows = (h: ChainHarness, ids: string[]): Promise<JobRow[]> => Promise.all(ids.map(async (id) => (await h.service.jobs.load(id))!));

/** How many WatchJobs events of each job carried `status`. */
function eventCounts(received: WatchJobsResponse[], ids: string[], status: JobStatus): number[] {
  return ids.map((id) => received.filter((m) => m.job?.id === id && m.job.status === status).length);
}

/**
 * Asserts that each job completed with exactly one signed transaction (attempts 1), the jobs hold
 * consecutive nonces from `nonceBefore`, the chain mined exactly that many transactions of the signer, and
 * nothing of the signer is left in the mempool.
 */
async function assertOneTransactionEach(h: ChainHarness, network: ChainNetwork, ids: string[], nonceBefore: number): Promise<void> {
  const done = await rows(h, ids);
  for (const row of done) {
    assert.equal(row.status, 'completed', `${row.id}: ${row.error ?? ''}`);
    assert.equal(row.attempts, 1, `${row.id} was signed ${row.attempts} times`);
    assert.equal(row.transactions.length, 1);
    assert.equal(row.txHash, row.transactions[0]!.hash);
    const receipt = await network.provider.getTransactionReceipt(row.txHash!);
    assert.equal(receipt?.status, 1, `${row.id} has a successful receipt`);
  }
  assert.deepEqual(done.map((r) => r.nonce).sort((a, b) => a! - b!), ids.map((_, i) => nonceBefore + i));
  assert.equal(await network.provider.getTransactionCount(network.signerAddress, 'latest'), nonceBefore + ids.length);
  assert.equal(await network.provider.getTransactionCount(network.signerAddress, 'pending'), nonceBefore + ids.length, 'nothing left in the mempool');
}

/**
 * Fault tests on the embedded default (PGlite, in-process bus, Hardhat's EVM): a worker that dies while
 * its transactions wait for a block, and a node that drops a transaction from its mempool. Gas bumps are
 * pushed out of the way (stuckAfterMs 60 s) so every re-send seen here is the plain re-broadcast of the
 * stored transaction.
 */
describe('chain job faults on the embedded network (PGlite, in-process bus)', { timeout: 60_000 }, () => {
  let h: ChainHarness;
  const alice = () => ({ caller: h.alice });
  const sepolia = () => h.service.networks.resolve('sepolia').network;

  before(async () => {
    // One transaction per insert job: the node-side counts below are per job.
    h = await startChainHarness({ db: pglite, tuning: { stuckAfterMs: 60_000 }, service: { worker: ONE_INSERT_PER_TRANSACTION } });
  });
  after(async () => {
    await h?.stop();
  });

  /** Sends `n` insertString jobs with automine off and waits until each is broadcast (SUBMITTED, in the mempool). */
  async function pendingJobs(prefix: string, n: number): Promise<string[]> {
    const network = sepolia();
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push((await h.client.insertString({ network: 'sepolia', key: `${prefix}${i}`, value: `v${i}` }, alice())).jobId);
    await waitUntil(async () => (await rows(h, ids)).every((r) => r.status === 'submitted' && r.transactions.length === 1), 'jobs submitted', 15_000);
    for (const row of await rows(h, ids)) {
      const tx = await network.provider.getTransaction(row.txHash!);
      assert.ok(tx, `${row.txHash} is in the mempool`);
      assert.equal(tx.blockNumber, null);
      assert.equal(await network.provider.getTransactionReceipt(row.txHash!), null);
    }
    return ids;
  }

  it('resumes and completes each job exactly once when the worker is killed between send and receipt', async () => {
    const network = sepolia();
    const rpc = rpcOf(network);
    const watch = watchJobs(h.client, h.alice, {});
    await watch.opened;
    const nonceBefore = await network.provider.getTransactionCount(network.signerAddress, 'latest');
    const N = 4;
    await rpc('evm_setAutomine', [false]);
    let ids: string[];
    const oldWorker = h.service.worker!.workerId;
    try {
      ids = await pendingJobs('crash', N);
      assert.ok((await rows(h, ids)).every((r) => r.leaseOwner === oldWorker), 'the worker holds the leases of what it sent');
      assert.equal(await network.provider.getTransactionCount(network.signerAddress, 'pending'), nonceBefore + N);

      // The worker dies: nothing follows the receipts any more, and its leases stay behind. (stopWorker is
      // a graceful stop, which may hand its leases back; a crash cannot, so the test puts them back.)
      await h.service.stopWorker();
      await h.service.dataSource.query(
        `UPDATE chain.jobs SET lease_owner = $2, lease_until = now() + ($3 || ' milliseconds')::interval WHERE id = ANY($1::uuid[])`,
        [ids, oldWorker, String(LEASE_MS)],
      );
      // The transactions are mined while no worker is running.
      await rpc('evm_mine');
      assert.equal(await network.provider.getTransactionCount(network.signerAddress, 'latest'), nonceBefore + N);
    } finally {
      await rpc('evm_setAutomine', [true]);
    }
    assert.equal(h.service.worker, undefined, 'no worker runs');
    assert.deepEqual((await rows(h, ids)).map((r) => r.status), ids.map(() => 'submitted'), 'nobody completed them meanwhile');

    // A new worker (a new process: another worker id) starts; the group hands it the chain.jobs messages
    // again, as a crash leaves offsets uncommitted.
    const worker = await h.service.startWorker(ONE_INSERT_PER_TRANSACTION);
    assert.notEqual(worker.workerId, oldWorker);
    await h.bus.publish(
      TOPIC_JOBS,
      ids.map((jobId) => ({ key: `sepolia:${network.signerAddress}`, value: JSON.stringify({ jobId, network: 'sepolia', signer: network.signerAddress }) })),
    );
    // While the dead worker's lease runs, the new one leaves its jobs alone ...
    await worker.checkReceipts();
    assert.deepEqual((await rows(h, ids)).map((r) => r.status), ids.map(() => 'submitted'), 'leased jobs are not taken over early');
    // ... and takes them over once it ran out (LEASE_MS, 30 s: the test moves the lease instead of waiting).
    await h.service.dataSource.query(`UPDATE chain.jobs SET lease_until = now() - interval '1 second' WHERE id = ANY($1::uuid[])`, [ids]);

    const done = await Promise.all(ids.map((id) => waitForJob(h.client, h.alice, id, undefined, 10_000)));
    assert.deepEqual(done.map((j) => [j.status, j.attempts]), ids.map(() => [COMPLETED, 1]));
    // A late duplicate send would have reached the node by the time a job accepted after them completed.
    await assertOneTransactionEach(h, network, [...ids, await fenceJob(h, 'sepolia')], nonceBefore);
    assert.ok((await rows(h, ids)).every((r) => r.leaseOwner === null));
    watch.close();
    assert.deepEqual(eventCounts(watch.received, ids, SUBMITTED), ids.map(() => 1));
    assert.deepEqual(eventCounts(watch.received, ids, COMPLETED), ids.map(() => 1), 'COMPLETED once per job');
  });

  it('re-sends, once, the transactions of a worker killed after signing but before they reached the node', async () => {
    const network = sepolia();
    const rpc = rpcOf(network);
    const nonceBefore = await network.provider.getTransactionCount(network.signerAddress, 'latest');
    const N = 3;
    await rpc('evm_setAutomine', [false]);
    try {
      const ids = await pendingJobs('unsent', N);
      await h.service.stopWorker();
      // As if the process died between committing SUBMITTED (raw transaction stored) and broadcasting it.
      for (const row of await rows(h, ids)) assert.equal(await rpc('hardhat_dropTransaction', [row.txHash]), true);
      assert.equal(await network.provider.getTransactionCount(network.signerAddress, 'pending'), nonceBefore);
      await h.service.dataSource.query(`UPDATE chain.jobs SET lease_until = now() - interval '1 second' WHERE id = ANY($1::uuid[])`, [ids]);
      await h.service.startWorker(ONE_INSERT_PER_TRANSACTION);
      await waitUntil(
        async () => (await network.provider.getTransactionCount(network.signerAddress, 'pending')) === nonceBefore + N,
        'the stored transactions broadcast again',
        10_000,
      );
      for (const row of await rows(h, ids)) assert.ok(await network.provider.getTransaction(row.txHash!), `${row.txHash} is back in the mempool`);
      await rpc('evm_mine');
      const done = await Promise.all(ids.map((id) => waitForJob(h.client, h.alice, id, undefined, 10_000)));
      assert.ok(done.every((j) => j.status === COMPLETED), done.map((j) => j.error).join());
      await rpc('evm_setAutomine', [true]);
      await assertOneTransactionEach(h, network, [...ids, await fenceJob(h, 'sepolia')], nonceBefore);
    } finally {
      await rpc('evm_setAutomine', [true]);
    }
  });

  it('re-sends a transaction the node dropped from its mempool (same nonce, same transaction), and the job completes once', async () => {
    const network = sepolia();
    const rpc = rpcOf(network);
    const nonceBefore = await network.provider.getTransactionCount(network.signerAddress, 'latest');
    const N = 3;
    await rpc('evm_setAutomine', [false]);
    try {
      const ids = await pendingJobs('dropped', N);
      const sent = await rows(h, ids);
      const first = sent.find((r) => r.nonce === nonceBefore)!;
      const last = sent.find((r) => r.nonce === nonceBefore + N - 1)!;
      // The first drop leaves a nonce gap in the node's pool: the later transactions cannot be mined until
      // the first comes back.
      for (const row of [first, last]) assert.equal(await rpc('hardhat_dropTransaction', [row.txHash]), true, `${row.txHash} dropped`);
      await waitUntil(
        async () => (await Promise.all([first, last].map((r) => network.provider.getTransaction(r.txHash!)))).every(Boolean),
        'the dropped transactions back in the mempool',
        10_000,
      );
      await rpc('evm_mine');
      const done = await Promise.all(ids.map((id) => waitForJob(h.client, h.alice, id, undefined, 10_000)));
      assert.ok(done.every((j) => j.status === COMPLETED), done.map((j) => j.error).join());
      // The very transactions that were signed first: re-broadcast, not re-signed.
      assert.deepEqual(done.map((j) => j.txHash), sent.map((r) => r.txHash));
      await rpc('evm_setAutomine', [true]);
      await assertOneTransactionEach(h, network, [...ids, await fenceJob(h, 'sepolia')], nonceBefore);
    } finally {
      await rpc('evm_setAutomine', [true]);
    }
  });

  it('after a gas bump, re-sends the replacement the node dropped, and the job completes once', async () => {
    const network = sepolia();
    const rpc = rpcOf(network);
    const nonceBefore = await network.provider.getTransactionCount(network.signerAddress, 'latest');
    await rpc('evm_setAutomine', [false]);
    try {
      const [id] = await pendingJobs('bumped', 1);
      // Make the transaction look stuck to the tracker: it bumps the fees (same nonce).
      await h.service.dataSource.query(`UPDATE chain.jobs SET last_sent_at = now() - interval '2 minutes' WHERE id = $1`, [id]);
      await waitUntil(async () => (await h.service.jobs.load(id!))!.transactions.length === 2, 'a gas bump', 10_000);
      const bumped = (await h.service.jobs.load(id!))!;
      const [original, replacement] = bumped.transactions;
      assert.equal(replacement!.nonce, original!.nonce);
      assert.equal(bumped.txHash, replacement!.hash);
      await waitUntil(async () => (await network.provider.getTransaction(replacement!.hash)) !== null, 'the replacement in the mempool', 5_000);
      // The node loses the replacement (it had replaced the original in its pool: neither is there now).
      assert.equal(await rpc('hardhat_dropTransaction', [replacement!.hash]), true);
      await waitUntil(async () => (await network.provider.getTransaction(replacement!.hash)) !== null, 'the replacement sent again', 10_000);
      await rpc('evm_mine');
      const job = await waitForJob(h.client, h.alice, id!, undefined, 10_000);
      assert.equal(job.status, COMPLETED, job.error);
      assert.equal(job.txHash, replacement!.hash);
      assert.equal(job.attempts, 2);
      assert.equal(await network.provider.getTransactionReceipt(original!.hash), null, 'the replaced transaction was never mined');
      await rpc('evm_setAutomine', [true]);
      await fenceJob(h, 'sepolia');
      assert.equal(await network.provider.getTransactionCount(network.signerAddress, 'latest'), nonceBefore + 2);
      assert.equal(await network.provider.getTransactionCount(network.signerAddress, 'pending'), nonceBefore + 2);
    } finally {
      await rpc('evm_setAutomine', [true]);
    }
  });
});

/**
 * The production shape (PostgreSQL, kafkajs, librdkafka's mock cluster) with the broker taken down while
 * clients keep submitting jobs. A Kafka broker that restarts keeps its log, so the mock's broker goes down
 * and comes back with its topics, offsets and groups intact (rd_kafka_mock_broker_set_down / _up).
 */
describe('chain job faults through Kafka (PostgreSQL, librdkafka mock cluster)', { timeout: 90_000, skip: postgresqlSkip }, () => {
  let mock: KafkaMock;
  let h: ChainHarness;
  const alice = () => ({ caller: h.alice });
  /** Consumer groups whose kafkajs consumer crashed (gave up on the broker) and restarted, in order. */
  const crashedGroups: string[] = [];

  before(async () => {
    // Straight to the mock (no wire proxy): a broker taken down refuses connections, as a stopped Kafka does;
    // every consumer group here has one member, so the mock's late-SyncGroup refusal cannot arise.
    mock = await startKafkaMock({ partitions: 3, proxy: false });
    // kafkajs' own log (shown with LOG_LEVEL=debug), watched for consumer crashes.
    const log = createLogger('chain-faults-kafka');
    const logger: BusLogger = {
      debug: (o, m) => log.debug(o, m),
      info: (o, m) => log.info(o, m),
      warn: (o, m) => log.warn(o, m),
      error: (o, m) => {
        const groupId = (o as { groupId?: unknown }).groupId;
        if (m?.startsWith('Crash') && typeof groupId === 'string') crashedGroups.push(groupId);
        log.error(o, m);
      },
    };
    const bus = new KafkaBus({
      brokers: mock.brokers,
      clientId: 'chain-faults-test',
      logger,
      idempotent: false, // straight to the mock, which names no usable controller (see kafka-mock.ts)
      retry: { initialDelayMs: 20, maxDelayMs: 500 },
      consumer: { sessionTimeoutMs: 3_000, heartbeatIntervalMs: 300, maxWaitTimeMs: 100, joinTimeoutMs: 30_000 },
    });
    h = await startChainHarness({ db: postgresql, bus, service: { worker: ONE_INSERT_PER_TRANSACTION } });
  });
  after(async () => {
    await mock?.brokerUp().catch(() => undefined);
    await h?.stop();
    await mock?.stop();
  });

  /** Accepts `n` insertString jobs, alternating sepolia and amoy (two signers, two chain.jobs keys). */
  async function acceptJobs(prefix: string, n: number): Promise<{ id: string; network: string }[]> {
    const accepted: { id: string; network: string }[] = [];
    for (let i = 0; i < n; i++) {
      const network = i % 2 ? 'amoy' : 'sepolia';
      const res = await h.client.insertString({ network, key: `${prefix}${i}`, value: `v${i}` }, alice());
      assert.equal(res.job!.status, QUEUED);
      accepted.push({ id: res.jobId, network });
    }
    return accepted;
  }

  const outboxCount = async (topic?: string) =>
    ((await h.service.dataSource.query(
      `SELECT count(*)::int AS n FROM chain.outbox ${topic ? 'WHERE topic = $1' : ''}`,
      topic ? [topic] : [],
    )) as [{ n: number }])[0].n;

  /** Each job completed once with one transaction per job on each network, and the outbox drained. */
  async function assertCompletedOnce(
    accepted: { id: string; network: string }[],
    noncesBefore: Map<string, number>,
    upAt: number,
    t: { diagnostic(m: string): void },
  ) {
    const done = await Promise.all(accepted.map(({ id }) => waitForJob(h.client, h.alice, id, undefined, 40_000)));
    t.diagnostic(`all ${accepted.length} jobs completed ${Date.now() - upAt} ms after the broker came back`);
    assert.deepEqual(done.map((j) => [j.status, j.attempts]), accepted.map(() => [COMPLETED, 1]));
    await waitUntil(async () => (await outboxCount()) === 0, 'an empty outbox', 15_000);
    // A duplicate send would have reached the node by the time a job accepted after them completed.
    for (const [name, before] of noncesBefore) {
      const network = h.service.networks.resolve(name).network;
      await assertOneTransactionEach(h, network, [...accepted.filter((a) => a.network === name).map((a) => a.id), await fenceJob(h, name, h.alice, 40_000)], before);
    }
  }

  /**
   * Every status change of every job reached a WatchJobs stream that was open all along (through
   * chain.job-events and this replica's JobEventHub). Kafka is at-least-once (a publish whose answer was
   * lost is published again), so a repeated event is allowed; a missing one is not.
   */
  async function assertEveryEvent(watch: ReturnType<typeof watchJobs>, ids: string[], t: { diagnostic(m: string): void }) {
    const statuses = [QUEUED, SUBMITTED, COMPLETED];
    const complete = () => statuses.every((s) => eventCounts(watch.received, ids, s).every((c) => c >= 1));
    await waitUntil(complete, 'every job event on the WatchJobs stream', 8_000).catch(() => undefined);
    watch.close();
    const missing = statuses.flatMap((s) =>
      ids.filter((_, i) => eventCounts(watch.received, ids, s)[i] === 0).map((id) => `${id} ${JobStatus[s]}`),
    );
    const repeated = statuses.reduce((sum, s) => sum + eventCounts(watch.received, ids, s).filter((c) => c > 1).length, 0);
    if (repeated) t.diagnostic(`${repeated} events arrived more than once (allowed: at-least-once)`);
    assert.deepEqual(missing, [], `${missing.length} job events never reached the WatchJobs stream`);
  }

  const nonces = async () =>
    new Map(
      await Promise.all(
        ['sepolia', 'amoy'].map(async (name) => {
          const n = h.service.networks.resolve(name).network;
          return [name, await n.provider.getTransactionCount(n.signerAddress, 'latest')] as const;
        }),
      ),
    );

  // First in this suite on purpose: this replica's WatchJobs group (chain-watch-<instance>, starting at the
  // end of the log) has no committed offset yet on any partition of chain.job-events, as after any start
  // of a replica that has not seen an event on every partition.
  // A kafkajs consumer that restarts after giving up rejoins at the end of partitions its group never
  // committed; KafkaSubscription seeks every join to the positions this process tracked (the end when it
  // subscribed, then past each handled message), so WatchJobs misses nothing published meanwhile.
  it('loses no job and no job event when the broker stays down until the consumers give up and rejoin', async (t) => {
    const watch = watchJobs(h.client, h.alice, {});
    await watch.opened;
    const noncesBefore = await nonces();
    await mock.brokerDown();
    let accepted: { id: string; network: string }[];
    try {
      accepted = await acceptJobs('long', 6);
      // kafkajs retries a lost broker for ~10 s; then each consumer crashes and starts afresh (it rejoins
      // its group once the broker is back; the mock answers a join after ~3 s).
      const crashed = crashedGroups.length;
      await waitUntil(
        () => crashedGroups.slice(crashed).some((g) => g.startsWith('chain-watch-')) && crashedGroups.slice(crashed).includes('chain-worker'),
        'the Kafka consumers of the worker and of WatchJobs to give up on the broker',
        25_000,
      );
      assert.equal(await outboxCount(TOPIC_JOBS), accepted.length, 'the chain.jobs messages wait in the outbox');
    } finally {
      await mock.brokerUp();
    }
    const upAt = Date.now();
    // The relay publishes as soon as the broker answers, before the consumer groups have rejoined.
    await h.service.relay.flush(20_000);
    await assertCompletedOnce(accepted, noncesBefore, upAt, t);
    await assertEveryEvent(watch, accepted.map((a) => a.id), t);
  });

  it('loses and doubles nothing when the broker goes down while jobs are accepted, and comes back', async (t) => {
    // Everything is flowing first: producer connected, worker and WatchJobs members in their groups.
    const warm = await h.client.insertString({ network: 'sepolia', key: 'warm', value: 'up' }, alice());
    assert.equal((await waitForJob(h.client, h.alice, warm.jobId, undefined, 30_000)).status, COMPLETED);
    const watch = watchJobs(h.client, h.alice, {});
    await watch.opened;
    const noncesBefore = await nonces();

    await mock.brokerDown();
    let accepted: { id: string; network: string }[];
    try {
      // Clients keep submitting: every request is accepted (the job and its messages are in the outbox),
      // and the jobs are sent and mined all the same: the jobs table is the worker's queue, the message
      // only wakes it sooner.
      accepted = await acceptJobs('outage', 8);
      for (const { id } of accepted) assert.equal((await waitForJob(h.client, h.alice, id, undefined, 30_000)).status, COMPLETED);
      assert.equal(await outboxCount(TOPIC_JOBS), accepted.length, 'the chain.jobs messages wait in the outbox');
    } finally {
      await mock.brokerUp();
    }
    await assertCompletedOnce(accepted, noncesBefore, Date.now(), t);
    await assertEveryEvent(watch, accepted.map((a) => a.id), t);
  });
});

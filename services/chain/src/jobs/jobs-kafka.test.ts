import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DocumentKind, JobStatus } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { KafkaBus } from '@green-impact/shared/bus/kafka-bus';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { startKafkaMock, type KafkaMock } from '@green-impact/testing/shared/kafka-mock';
import { fenceJob, ONE_INSERT_PER_TRANSACTION, startChainHarness, waitForJob, waitUntil, watchJobs, type ChainHarness } from '@green-impact/testing/chain/harness';

const postgresql = testDatabases.find((d) => d.name === 'postgresql')!;
const { COMPLETED, QUEUED, SUBMITTED } = {
  COMPLETED: JobStatus.JOB_STATUS_COMPLETED,
  QUEUED: JobStatus.JOB_STATUS_QUEUED,
  SUBMITTED: JobStatus.JOB_STATUS_SUBMITTED,
};

/**
 * The production shape: PostgreSQL, kafkajs against a real Kafka wire-protocol broker (librdkafka's mock
 * cluster), the outbox relay publishing chain.jobs and chain.job-events, the worker in the chain-worker
 * consumer group. The chain is still the embedded EVM.
 */
describe('chain jobs through Kafka (PostgreSQL, librdkafka mock cluster)', { timeout: 120_000, skip: await skipReason(postgresql) }, () => {
  let mock: KafkaMock;
  let h: ChainHarness;
  const alice = () => ({ caller: h.alice });

  before(async () => {
    mock = await startKafkaMock({ partitions: 3 });
    const bus = new KafkaBus({
      brokers: mock.brokers,
      clientId: 'chain-test',
      retry: { initialDelayMs: 20, maxDelayMs: 500 },
      consumer: { sessionTimeoutMs: 3_000, heartbeatIntervalMs: 300, maxWaitTimeMs: 100, joinTimeoutMs: 30_000 },
    });
    // One transaction per insert job: the restart test counts the signer's nonces per job.
    h = await startChainHarness({ db: postgresql, bus, service: { worker: ONE_INSERT_PER_TRANSACTION } });
  });
  after(async () => {
    await h?.stop();
    await mock?.stop();
  });

  it('writes a document through the outbox, chain.jobs and chain.job-events', async () => {
    const watch = watchJobs(h.client, h.alice, {});
    await watch.opened;
    const res = await h.client.submitDocument(
      { kind: DocumentKind.DOCUMENT_KIND_FRAMEWORK_JSON, network: 'sepolia', content: Buffer.from('{"framework":"GB"}'), contentType: 'application/json', frameworkIdentifier: 'GB' },
      alice(),
    );
    const job = await waitForJob(h.client, h.alice, res.job!.id, undefined, 30_000);
    assert.equal(job.status, COMPLETED, job.error);
    assert.equal(job.receipt!.status, 1);
    assert.ok(job.networkCost! > 0);
    const doc = await h.client.getDocument({ jobId: job.id }, alice());
    assert.equal(doc.verified, true);
    await waitUntil(() => watch.received.length >= 3, 'three job events over Kafka', 30_000);
    watch.close();
    assert.deepEqual(watch.received.map((m) => m.job!.status), [QUEUED, SUBMITTED, COMPLETED]);
  });

  it('gives 10 concurrent jobs of one signer consecutive nonces', async () => {
    const submitted = await Promise.all(
      Array.from({ length: 10 }, (_, i) => h.client.insertBytes32({ network: 'amoy', key: `k${i}`, value: `v${i}` }, alice())),
    );
    const done = await Promise.all(submitted.map((s) => waitForJob(h.client, h.alice, s.jobId, undefined, 30_000)));
    assert.ok(done.every((j) => j.status === COMPLETED));
    const nonces = (await Promise.all(submitted.map((s) => h.service.jobs.load(s.jobId)))).map((r) => r!.nonce!).sort((a, b) => a - b);
    assert.deepEqual(nonces, nonces.map((_, i) => nonces[0]! + i));
  });

  it('resumes from the consumer group after a worker restart, without loss or duplicates', async () => {
    const network = h.service.networks.resolve('sepolia').network;
    await h.service.stopWorker();
    assert.equal(h.service.worker, undefined, 'no worker runs');
    const before = await network.provider.getTransactionCount(network.signerAddress, 'latest');
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await h.client.insertString({ network: 'sepolia', key: `restart${i}`, value: `v${i}` }, alice())).jobId);
    await h.service.relay.flush();
    const [{ n }] = (await h.service.dataSource.query(`SELECT count(*)::int AS n FROM chain.outbox`)) as [{ n: number }];
    assert.equal(n, 0, 'everything was published to Kafka');
    for (const id of ids) assert.equal((await h.client.getJob({ jobId: id }, alice())).job!.status, QUEUED);
    assert.equal(await network.provider.getTransactionCount(network.signerAddress, 'pending'), before, 'nothing sent without a worker');
    await h.service.startWorker(ONE_INSERT_PER_TRANSACTION);
    const done = await Promise.all(ids.map((id) => waitForJob(h.client, h.alice, id, undefined, 30_000)));
    assert.ok(done.every((j) => j.status === COMPLETED && j.attempts === 1));
    // Counted on the node once a job accepted after them (its message behind theirs) completed.
    await fenceJob(h, 'sepolia');
    assert.equal(await network.provider.getTransactionCount(network.signerAddress, 'latest'), before + 5);
    assert.equal(await network.provider.getTransactionCount(network.signerAddress, 'pending'), before + 5, 'nothing left in the mempool');
  });
});

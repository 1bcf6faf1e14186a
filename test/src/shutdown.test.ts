import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createScratchPostgresDatabase, skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { startKafkaMock, type KafkaMock } from '@green-impact/testing/shared/kafka-mock';
import { startTopology, topologyEnv, topologyPorts, type Topology } from './support/distributed.js';
import { listJobs, listUserIdentifiers } from './support/account-reads.js';
import { v1Call, type Outcome } from './support/outcomes.js';
import { until } from './support/poll.js';

const postgres = testDatabases.find((d) => d.name === 'postgresql')!;
const OPERATOR = 'gi_2mY-x4pjZngSKWPe3oNH0a_Ko7wP-YXQ0mu7b_ex9es'; // BOOTSTRAP_API_KEY: random (a weak one is refused at start)
const LOOPS = 6;

interface Sent {
  kind: 'user' | 'job';
  /** user_identifier or key-value key. */
  name: string;
  outcome: Outcome;
  startedAt: number;
}

/** One legacy call on a connection of its own (no keep-alive), so a refusal can only mean "not accepted". */
const call = (baseUrl: string, body: Record<string, unknown>): Promise<Outcome> => v1Call(baseUrl, OPERATOR, body);

const accepted = (s: Sent) => 'status' in s.outcome && s.outcome.status === 200;
const refused = (s: Sent) => 'error' in s.outcome;

/**
 * Graceful shutdown under load. The whole topology (five processes, PostgreSQL, Kafka) takes a steady
 * stream of writes — new users (identity) and key-value chain jobs (chain: outbox, Kafka, worker, EVM) —
 * from several clients when it gets SIGTERM. The gateway stops accepting and answers what it accepted;
 * then each service drains its calls, its consumers (committing their offsets) and its worker, and closes
 * its pool. After a restart on the same database and broker: every write answered 200 is there, every
 * accepted chain job completes, and no refused request left anything behind (nothing was accepted and
 * then cut without an answer).
 */
describe('SIGTERM under load loses nothing (distributed topology, PostgreSQL, Kafka)', { skip: await skipReason(postgres), timeout: 90_000 }, () => {
  let kafka: KafkaMock;
  let db: { url: string; stop(): Promise<void> };
  let contentDir: string;
  let env: NodeJS.ProcessEnv;
  let topology: Topology | undefined;

  before(async () => {
    [kafka, db] = await Promise.all([startKafkaMock({ partitions: 3 }), createScratchPostgresDatabase()]);
    contentDir = mkdtempSync(join(tmpdir(), 'gi-shutdown-'));
    env = topologyEnv(await topologyPorts(), {
      DATABASE_URL: db.url,
      DATABASE_POOL_SIZE: '4',
      CONTENT_DIR: contentDir,
      BOOTSTRAP_API_KEY: OPERATOR,
      KAFKA_BROKERS: kafka.brokers.join(','),
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      KAFKA_HEARTBEAT_INTERVAL_MS: '500',
      KAFKA_MAX_WAIT_MS: '100',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
    });
  });

  after(async () => {
    await topology?.stop();
    await Promise.all([kafka?.stop(), db?.stop()]);
    if (contentDir) rmSync(contentDir, { recursive: true, force: true });
  });

  it('answers or refuses every request, keeps every accepted write and completes every accepted job', async () => {
    topology = await startTopology(env);
    const first = topology;
    const sent: Sent[] = [];
    let sigtermAt = 0;

    const loop = async (i: number) => {
      for (let n = 0; ; n++) {
        const kind = n % 2 === 0 ? 'user' : 'job';
        const name = kind === 'user' ? `sd-${i}-${n}` : `k${i}-${n}`;
        const body =
          kind === 'user'
            ? { solution: 'SVC.ESG.Credits', operation: 'addUser', parameters: { user_identifier: name } }
            : { solution: 'SVC.Blockchain.Hash', version: 1, network: 'sepolia', operation: 'insertString', parameters: { key: name, value: `v-${name}` } };
        const startedAt = Date.now();
        const outcome = await call(first.url, body);
        const s: Sent = { kind, name, outcome, startedAt };
        sent.push(s);
        // A client stops once the gateway refuses it after SIGTERM (or after a bound, should it never).
        if (sigtermAt && (refused(s) || Date.now() - sigtermAt > 20_000)) return;
      }
    };
    const loops = Array.from({ length: LOOPS }, (_, i) => loop(i));
    await until(async () => sent.filter(accepted).length, (n) => n >= 60, '60 accepted requests before SIGTERM', 30_000, 50);
    const backlog = await (await fetch(`http://127.0.0.1:${first.ports.metrics.chain}/metrics`)).text();
    const depth = (status: string) => Number(new RegExp(`^chain_job_queue_depth\\{status="${status}"\\} (\\d+)$`, 'm').exec(backlog)?.[1]);
    sigtermAt = Date.now();
    const doneBeforeSigterm = sent.length;
    first.child.kill('SIGTERM');
    await Promise.all(loops);
    const code = await first.exited;
    const output = first.output();
    assert.equal(code, 0, `an unclean stop:\n${output.slice(-4000)}`);
    for (const name of ['gateway', 'identity', 'taxonomy', 'portfolio', 'chain']) {
      assert.match(output, new RegExp(`\\[${name}\\] exited \\(0\\)`), `${name} did not exit cleanly:\n${output.slice(-4000)}`);
    }
    // The gateway stopped before the services, so nothing it accepted met a stopped backend.
    assert.ok(output.indexOf('[gateway] exited') < output.indexOf('[chain] exited'));

    // Every request got an answer (200) or was refused before it was accepted; none was cut.
    const answeredOther = sent.filter((s) => 'status' in s.outcome && s.outcome.status !== 200);
    assert.deepEqual(answeredOther, [], 'every answered request succeeded');
    assert.deepEqual(sent.filter((s) => 'error' in s.outcome && s.outcome.error === 'cut'), [], 'no response was cut');
    const errors = new Set(sent.filter(refused).map((s) => (s.outcome as { error: string }).error));
    assert.ok([...errors].every((e) => e === 'ECONNREFUSED' || e === 'ECONNRESET'), `unexpected errors ${[...errors]}`);
    assert.ok(sent.filter(refused).length >= LOOPS, 'each client ended on a refusal');
    // Requests in flight when SIGTERM came were drained: answered after it.
    const drained = sent.slice(doneBeforeSigterm).filter((s) => s.startedAt <= sigtermAt && accepted(s));
    assert.ok(drained.length > 0, 'requests in flight at SIGTERM were answered');

    // Restart on the same database, content store and broker.
    const restarted = await startTopology(env);
    topology = restarted;
    const stored = new Set(await listUserIdentifiers(restarted.url, OPERATOR));
    const jobs = () => listJobs(restarted.url, OPERATOR);

    for (const s of sent.filter((x) => x.kind === 'user')) {
      if (accepted(s)) assert.ok(stored.has(s.name), `user ${s.name} was answered 200 but is not stored`);
      if (refused(s)) assert.ok(!stored.has(s.name), `user ${s.name} is stored but its request was never answered`);
    }
    const acceptedJobs = new Map(sent.filter((s) => s.kind === 'job' && accepted(s)).map((s) => [(s.outcome as { body: any }).body.info.jobId as string, s.name]));
    const refusedKeys = new Set(sent.filter((s) => s.kind === 'job' && refused(s)).map((s) => s.name));
    assert.ok(acceptedJobs.size >= 20, `only ${acceptedJobs.size} accepted jobs`);

    const deadline = Date.now() + 40_000;
    for (;;) {
      const list = await jobs();
      const byId = new Map(list.map((j) => [j.id, j]));
      for (const [id, key] of acceptedJobs) assert.equal(byId.get(id)?.key, key, `accepted job ${id} (${key}) is not stored`);
      for (const j of list) assert.ok(!refusedKeys.has(j.key ?? ''), `job ${j.id} (${j.key}) exists but its request was never answered`);
      const failed = list.filter((j) => j.status === 'FAILED');
      assert.deepEqual(failed, [], 'no accepted job failed');
      const open = list.filter((j) => j.status !== 'COMPLETED');
      if (open.length === 0) break;
      if (Date.now() > deadline) assert.fail(`${open.length} jobs not completed after the restart: ${JSON.stringify(open.slice(0, 5))}`);
      await sleep(500);
    }
    const code2 = await topology.stop();
    topology = undefined;
    assert.equal(code2, 0);
    // For the record in the test output: how much load the stop met.
    console.log(
      `shutdown under load: ${sent.filter(accepted).length} requests answered 200 (${acceptedJobs.size} chain jobs), ` +
        `${drained.length} of them in flight at SIGTERM, ${sent.filter(refused).length} refused (${[...errors].join(', ')}); ` +
        `chain backlog just before: ${depth('queued')} queued, ${depth('submitted')} submitted`,
    );
  });
});

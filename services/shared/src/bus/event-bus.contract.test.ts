import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ProducedBatch } from '@green-impact/testing/shared/kafka-wire-proxy';
import { startKafkaMock, type KafkaMock } from '@green-impact/testing/shared/kafka-mock';
import type { BusMessage, EventBus, Subscription } from './event-bus.js';
import { InProcessBus } from './in-process-bus.js';
import { KafkaBus, type KafkaBusOptions } from './kafka-bus.js';
import { metricsRegistry } from '../metrics.js';

/**
 * One contract, two adapters: every behaviour event-bus.ts promises is checked against the in-process bus
 * and against kafkajs talking to a real Kafka wire-protocol broker (librdkafka's mock cluster), with
 * production's producer settings (idempotent on). The mock names no usable controller, which kafkajs'
 * idempotent producer needs, so it is served through kafka-wire-proxy.ts; the tests at the end
 * show why, and what a retried idempotent send looks like on the wire.
 * Each test uses its own topic and group ids so tests never see each other's messages.
 */

const TEST_TIMEOUT_MS = 60_000;
const TOPICS = {
  basic: 'contract.basic',
  split: 'contract.split',
  resume: 'contract.resume',
  order: 'contract.order',
  headers: 'contract.headers',
  retry: 'contract.retry',
  idempotent: 'contract.idempotent',
};
const FAST_RETRY = { initialDelayMs: 20, maxDelayMs: 200 };

interface Adapter {
  name: string;
  setUp(): Promise<void>;
  tearDown(): Promise<void>;
  createBus(): EventBus;
}

const inProcess: Adapter = {
  name: 'InProcessBus',
  setUp: async () => undefined,
  tearDown: async () => undefined,
  createBus: () => new InProcessBus({ partitions: 3, retry: FAST_RETRY }),
};

let mock: KafkaMock | undefined;
const kafkaBus = (brokers: string[], options: Partial<KafkaBusOptions> = {}) =>
  new KafkaBus({
    brokers,
    clientId: 'contract-test',
    // No `idempotent`: production's default (true) is what is tested.
    retry: FAST_RETRY,
    // The mock rebalances in (session timeout - 1 s) and holds empty fetches for the full wait.
    consumer: { sessionTimeoutMs: 3_000, heartbeatIntervalMs: 300, maxWaitTimeMs: 100, joinTimeoutMs: 30_000 },
    ...options,
  });
const kafka: Adapter = {
  name: 'KafkaBus (librdkafka mock cluster, idempotent producer)',
  // Fails the suite, with the launcher's build error, when the mock cannot be built: never a skip.
  setUp: async () => {
    mock = await startKafkaMock({ partitions: 3, topics: Object.values(TOPICS) });
  },
  tearDown: async () => {
    const batches = mock?.proxy?.producedBatches() ?? [];
    // Rejects when the proxy met a response it could not rewrite.
    await mock?.stop();
    assert.ok(batches.length > 0 && batches.every((b) => b.producerId >= 0n), 'every batch was sent by an idempotent producer');
  },
  createBus: () => {
    if (!mock) throw new Error('Kafka mock cluster is not running');
    return kafkaBus(mock.brokers);
  },
};

async function waitFor(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(25);
  }
}

const text = (m: BusMessage) => m.value.toString('utf8');

const FENCE = 'fence';
const PARTITIONS = 3;
/** Keys that between them land on every partition, under both adapters' partitioners (fenced() checks it). */
const FENCE_KEYS = Array.from({ length: 12 }, (_, i) => `fence-${i}`);
const isFence = (m: BusMessage) => text(m) === FENCE;

/**
 * Publishes a fence message on every partition of `topic`, after what the test published, and waits until
 * the test's handlers got them all (into `fences`). Each partition is handled in order, so by then every
 * earlier message there was handled, and one delivered again would have shown before its fence: a
 * "no duplicates" check counts after this, not after a pause that proves nothing.
 */
async function fenced(bus: EventBus, topic: string, fences: BusMessage[], what = 'the fence on every partition'): Promise<void> {
  await bus.publish(topic, FENCE_KEYS.map((key) => ({ key, value: FENCE })));
  await waitFor(() => fences.length >= FENCE_KEYS.length, what);
  assert.equal(new Set(fences.map((m) => m.partition)).size, PARTITIONS, 'the fence keys cover every partition');
}

function assertNoDuplicates(values: string[]): void {
  assert.equal(new Set(values).size, values.length, `duplicates in ${JSON.stringify(values)}`);
}

for (const adapter of [inProcess, kafka]) {
  // Concurrent: tests share nothing but the broker, and the mock spends most of a test waiting on group joins.
  describe(`EventBus contract: ${adapter.name}`, { concurrency: true }, () => {
    let run = 0;
    const group = (name: string) => `${name}-${process.pid}-${++run}`;
    const buses: EventBus[] = [];

    // Every test awaits the set-up, so a broker that cannot start fails each test with its reason
    // (a failing before() hook would only mark them cancelled).
    let ready: Promise<void> = Promise.resolve();
    before(() => {
      ready = adapter.setUp();
      ready.catch(() => undefined);
    });
    after(async () => {
      await Promise.all(buses.map((b) => b.close()));
      await adapter.tearDown();
    });
    const newBus = async () => {
      await ready;
      const bus = adapter.createBus();
      buses.push(bus);
      return bus;
    };

    it('delivers published messages to each group, with topic, partition and offset', { timeout: TEST_TIMEOUT_MS }, async () => {
      const bus = await newBus();
      const values = Array.from({ length: 6 }, (_, i) => `basic-${i}`);
      await bus.publish(TOPICS.basic, values.map((v, i) => ({ key: `k${i}`, value: v })));
      const seen = new Map<string, BusMessage[]>([['a', []], ['b', []]]);
      const fences = new Map<string, BusMessage[]>([['a', []], ['b', []]]);
      const groups = new Map([...seen.keys()].map((name) => [name, group(`basic-${name}`)]));
      await Promise.all(
        [...seen].map(([name, list]) =>
          bus.subscribe({
            topic: TOPICS.basic,
            groupId: groups.get(name)!,
            fromBeginning: true,
            handler: async (m) => void (isFence(m) ? fences.get(name)! : list).push(m),
          }),
        ),
      );
      await waitFor(() => [...seen.values()].every((l) => l.length >= values.length), 'both groups to get every message');
      await bus.publish(TOPICS.basic, FENCE_KEYS.map((key) => ({ key, value: FENCE })));
      await waitFor(() => [...fences.values()].every((l) => l.length >= FENCE_KEYS.length), 'both groups to get the fence');
      for (const list of seen.values()) {
        assert.deepEqual(list.map(text).sort(), [...values].sort());
        const lastOffset = new Map<number, bigint>();
        for (const m of list) {
          assert.equal(m.topic, TOPICS.basic);
          assert.ok(m.partition >= 0 && m.partition < 3, `partition ${m.partition}`);
          assert.match(m.offset, /^\d+$/);
          const previous = lastOffset.get(m.partition) ?? -1n;
          assert.ok(BigInt(m.offset) > previous, 'offsets increase within a partition');
          lastOffset.set(m.partition, BigInt(m.offset));
        }
      }
      if (adapter === kafka) {
        // kafka_consumer_lag: each group caught up (its last batch ended at the partition's end) on every partition.
        const lag = (await metricsRegistry.getSingleMetric('kafka_consumer_lag')!.get()).values.filter((v) => v.labels['topic'] === TOPICS.basic);
        for (const groupId of groups.values()) {
          const mine = lag.filter((v) => v.labels['group'] === groupId);
          assert.deepEqual(mine.map((v) => v.labels['partition']).sort(), ['0', '1', '2'], `${groupId}: a lag per partition`);
          assert.ok(mine.every((v) => v.value === 0), JSON.stringify(mine));
        }
      }
    });

    it('splits partitions between two members of one group without duplicates', { timeout: TEST_TIMEOUT_MS }, async () => {
      const bus = await newBus();
      const groupId = group('split');
      const byMember = { first: [] as BusMessage[], second: [] as BusMessage[] };
      const fences: BusMessage[] = [];
      await bus.subscribe({ topic: TOPICS.split, groupId, fromBeginning: true, handler: async (m) => void (isFence(m) ? fences : byMember.first).push(m) });
      await bus.subscribe({ topic: TOPICS.split, groupId, fromBeginning: true, handler: async (m) => void (isFence(m) ? fences : byMember.second).push(m) });
      const values = Array.from({ length: 30 }, (_, i) => `split-${i}`);
      await bus.publish(TOPICS.split, values.map((v) => ({ key: v, value: v })));
      await waitFor(() => byMember.first.length + byMember.second.length >= values.length, 'all messages');
      await fenced(bus, TOPICS.split, fences);
      const all = [...byMember.first, ...byMember.second].map(text);
      assertNoDuplicates(all);
      assert.deepEqual(all.sort(), [...values].sort());
      assert.ok(byMember.first.length > 0 && byMember.second.length > 0, 'both members got work');
      const firstPartitions = new Set(byMember.first.map((m) => m.partition));
      assert.ok(byMember.second.every((m) => !firstPartitions.has(m.partition)), 'a partition belongs to one member');
    });

    it('resumes after the last committed offset: no loss, no duplicates', { timeout: TEST_TIMEOUT_MS }, async () => {
      const bus = await newBus();
      const groupId = group('resume');
      const firstBatch = Array.from({ length: 10 }, (_, i) => `resume-${i}`);
      const secondBatch = Array.from({ length: 5 }, (_, i) => `resume-${10 + i}`);
      const handledBefore: string[] = [];
      let refused = 0;
      const keep = 4;
      await bus.publish(TOPICS.resume, firstBatch.map((v) => ({ key: v, value: v })));
      const first = await bus.subscribe({
        topic: TOPICS.resume,
        groupId,
        fromBeginning: true,
        // Accepts `keep` messages, then keeps failing: close() must stop those retries without committing.
        handler: async (m) => {
          if (handledBefore.length >= keep) {
            refused++;
            throw new Error('not now');
          }
          handledBefore.push(text(m));
        },
      });
      // Closed while the next message is being retried: not merely after `keep` were handled.
      await waitFor(() => handledBefore.length === keep && refused >= 2, `${keep} handled messages and the next one retried`);
      await first.close();
      await bus.publish(TOPICS.resume, secondBatch.map((v) => ({ key: v, value: v })));

      const handledAfter: string[] = [];
      const fences: BusMessage[] = [];
      await bus.subscribe({ topic: TOPICS.resume, groupId, fromBeginning: true, handler: async (m) => void (isFence(m) ? fences.push(m) : handledAfter.push(text(m))) });
      const expected = [...firstBatch, ...secondBatch].filter((v) => !handledBefore.includes(v));
      await waitFor(() => handledAfter.length >= expected.length, `${expected.length} remaining messages`);
      await fenced(bus, TOPICS.resume, fences);
      assertNoDuplicates(handledAfter);
      assert.deepEqual([...handledAfter].sort(), [...expected].sort());
    });

    it('handles messages with the same key in publish order', { timeout: TEST_TIMEOUT_MS }, async () => {
      const bus = await newBus();
      const keys = ['alpha', 'beta', 'gamma'];
      const count = 20;
      for (let seq = 0; seq < count; seq++) {
        await bus.publish(TOPICS.order, keys.map((key) => ({ key, value: String(seq) })));
      }
      const seqByKey = new Map<string, number[]>(keys.map((k) => [k, []]));
      const fences: BusMessage[] = [];
      await bus.subscribe({
        topic: TOPICS.order,
        groupId: group('order'),
        fromBeginning: true,
        handler: async (m) => {
          if (isFence(m)) return void fences.push(m);
          // Handlers that take varying time must not reorder a key's messages.
          await sleep(Math.floor(Math.random() * 3));
          seqByKey.get(m.key!)!.push(Number(text(m)));
        },
      });
      await waitFor(() => [...seqByKey.values()].every((s) => s.length >= count), 'every key fully handled');
      await fenced(bus, TOPICS.order, fences);
      const inOrder = Array.from({ length: count }, (_, i) => i);
      for (const key of keys) assert.deepEqual(seqByKey.get(key), inOrder, `order of ${key}`);
    });

    it('round-trips headers, binary values and null keys', { timeout: TEST_TIMEOUT_MS }, async () => {
      const bus = await newBus();
      const binary = Buffer.from([0, 1, 2, 127, 128, 254, 255]);
      const headers = { 'content-type': 'application/octet-stream', 'x-trace-id': 'trace-42', 'x-unicode': 'héllo ✓' };
      await bus.publish(TOPICS.headers, [
        { key: null, value: binary, headers },
        { key: 'text', value: 'plain ünïcode' },
      ]);
      const seen: BusMessage[] = [];
      await bus.subscribe({ topic: TOPICS.headers, groupId: group('headers'), fromBeginning: true, handler: async (m) => void seen.push(m) });
      await waitFor(() => seen.length >= 2, 'both messages');
      const withHeaders = seen.find((m) => m.key === null);
      const plain = seen.find((m) => m.key === 'text');
      assert.ok(withHeaders && plain, 'both messages arrive with their keys');
      assert.ok(Buffer.isBuffer(withHeaders.value));
      assert.deepEqual([...withHeaders.value], [...binary]);
      assert.deepEqual(withHeaders.headers, headers);
      assert.equal(text(plain), 'plain ünïcode');
      assert.deepEqual(plain.headers, {});
    });

    it('retries a handler that throws, in order, without losing the message', { timeout: TEST_TIMEOUT_MS }, async () => {
      const bus = await newBus();
      const attempts = new Map<string, number>();
      const handled: string[] = [];
      const fences: BusMessage[] = [];
      const values = Array.from({ length: 5 }, (_, i) => `retry-${i}`);
      await bus.publish(TOPICS.retry, values.map((v) => ({ key: 'one-key', value: v })));
      const subscription: Subscription = await bus.subscribe({
        topic: TOPICS.retry,
        groupId: group('retry'),
        fromBeginning: true,
        handler: async (m) => {
          if (isFence(m)) return void fences.push(m);
          const v = text(m);
          const attempt = (attempts.get(v) ?? 0) + 1;
          attempts.set(v, attempt);
          if (v === 'retry-2' && attempt === 1) throw new Error('transient failure');
          handled.push(v);
        },
      });
      await waitFor(() => handled.length >= values.length, 'all messages handled');
      await fenced(bus, TOPICS.retry, fences);
      await subscription.close();
      assert.deepEqual(handled, values, 'each message once, in order, the failed one included');
      assert.equal(attempts.get('retry-2'), 2);
    });
  });
}

describe('KafkaBus idempotent producer on the librdkafka mock', { concurrency: true }, () => {
  const buses: EventBus[] = [];
  let cluster: Promise<KafkaMock>;
  before(() => {
    // Three brokers: the proxies must map every advertised broker and coordinator, not just the first.
    cluster = startKafkaMock({ partitions: 3, brokers: 3, topics: [TOPICS.idempotent] });
    cluster.catch(() => undefined);
  });
  after(async () => {
    await Promise.all(buses.map((b) => b.close()));
    await (await cluster.catch(() => undefined))?.stop();
  });
  const newBus = (brokers: string[], options?: Partial<KafkaBusOptions>) => {
    const bus = kafkaBus(brokers, options);
    buses.push(bus);
    return bus;
  };

  it('cannot start straight against the mock, which names no broker as controller', { timeout: TEST_TIMEOUT_MS }, async () => {
    // If this starts passing, librdkafka's mock names a real controller and the proxy can go.
    const { proxy } = await cluster;
    const bus = newBus(proxy!.upstream);
    await assert.rejects(bus.publish(TOPICS.idempotent, [{ key: 'k', value: 'direct' }]), (err: Error) => {
      assert.match(err.message, /could not initialise idempotence \(Broker 0 not found in the cached metadata\)/);
      return true;
    });
  });

  it('resends a batch whose response was lost with the same producer id, epoch and sequence', { timeout: TEST_TIMEOUT_MS }, async () => {
    const kafkaMock = await cluster;
    const proxy = kafkaMock.proxy!;
    const bus = newBus(kafkaMock.brokers);
    await bus.publish(TOPICS.idempotent, [{ key: 'same-key', value: 'first' }]);
    // The broker appends the second batch, its answer is lost, the producer retries on a new connection.
    proxy.dropProduceResponses(1);
    await bus.publish(TOPICS.idempotent, [{ key: 'same-key', value: 'second' }]);

    const sent = proxy.producedBatches().filter((b) => b.topic === TOPICS.idempotent);
    assert.equal(sent.length, 3, `first, second, second again: ${JSON.stringify(sent, (_k, v) => (typeof v === 'bigint' ? String(v) : v))}`);
    const [first, lost, retry] = sent as [ProducedBatch, ProducedBatch, ProducedBatch];
    assert.ok(first.producerId >= 0n, 'the producer got a producer id (InitProducerId)');
    assert.equal(first.baseSequence, 0);
    assert.ok(lost.responseDropped && !retry.responseDropped);
    // What a Kafka broker needs to recognise the retry as a duplicate and not append it again.
    assert.deepEqual(
      { id: retry.producerId, epoch: retry.producerEpoch, sequence: retry.baseSequence, partition: retry.partition },
      { id: first.producerId, epoch: first.producerEpoch, sequence: 1, partition: first.partition },
    );
    assert.deepEqual(
      { id: lost.producerId, epoch: lost.producerEpoch, sequence: lost.baseSequence },
      { id: retry.producerId, epoch: retry.producerEpoch, sequence: retry.baseSequence },
    );

    const seen: string[] = [];
    await bus.subscribe({ topic: TOPICS.idempotent, groupId: `idempotent-${process.pid}`, fromBeginning: true, handler: async (m) => void seen.push(text(m)) });
    await waitFor(() => seen.includes('first') && seen.includes('second'), 'both messages');
    // Everything was one batch on one partition, appended before the answer was lost: nothing more comes.
    await bus.publish(TOPICS.idempotent, [{ key: 'same-key', value: FENCE }]);
    await waitFor(() => seen.includes(FENCE), 'the fence after them');
    // The librdkafka 2.0.2 mock checks sequences only for transactional producers, so it appends the
    // retry again; a Kafka broker would not. If this becomes ['first', 'second'], the mock de-duplicates
    // now: assert that instead.
    assert.deepEqual(seen, ['first', 'second', 'second', FENCE]);
  });
});

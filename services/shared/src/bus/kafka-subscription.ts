import { setTimeout as sleep } from 'node:timers/promises';
import type { Consumer, EachMessagePayload, IHeaders, Kafka } from 'kafkajs';
import type { BusLogger, BusMessage, HandlerRetryOptions, SubscribeOptions, Subscription } from './event-bus.js';
import { runHandlerWithRetry } from './handler-retry.js';
import { Gauge } from 'prom-client';
import { metricsRegistry } from '../metrics.js';

/**
 * kafka_consumer_lag{group, topic, partition}: messages of the partition after the last batch this consumer
 * fetched (kafkajs' offsetLag at the end of each batch), as this process last saw it. Alert
 * GreenImpactKafkaConsumerLag; every replica reports its own partitions (use max() across them).
 */
const consumerLag = new Gauge({
  name: 'kafka_consumer_lag',
  help: 'Messages behind the end of each partition this process consumes, after its last fetched batch.',
  labelNames: ['group', 'topic', 'partition'] as const,
  registers: [metricsRegistry],
});

/** Consumer timings; kafkajs defaults when absent. Tests shorten them (see the contract test). */
export interface KafkaConsumerTuning {
  /**
   * kafkajs heartbeats between messages and between handler retries, not while a handler runs: a single
   * handler call longer than this costs the member its partitions (the message is then redelivered).
   */
  sessionTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  /**
   * How long a fetch waits for data. librdkafka's mock broker always waits the full time when a partition
   * is empty (a real broker answers as soon as data arrives), so tests keep it short.
   */
  maxWaitTimeMs?: number;
  /** Partitions handled at once by one member; same-key order holds regardless. Default 4. */
  partitionsConsumedConcurrently?: number;
  /** How long `subscribe` waits for the member to join its group. Default 60 s. */
  joinTimeoutMs?: number;
}

export interface KafkaSubscriptionOptions {
  retry?: HandlerRetryOptions | undefined;
  logger?: BusLogger | undefined;
  tuning?: KafkaConsumerTuning | undefined;
  onClosed: () => void;
}

/**
 * One group member: a kafkajs consumer with manual commits after each handled message.
 *
 * kafkajs gives up for good on errors it deems non-retriable (its consumer disconnects and emits a crash
 * with restart: false). A member that silently stops consuming would stall its partitions, so this class
 * then starts a fresh consumer, with backoff, until it is closed. librdkafka's mock broker triggers this:
 * it answers a follower's SyncGroup that arrives after the leader's with INVALID_REQUEST.
 */
export class KafkaSubscription implements Subscription {
  private consumer: Consumer | undefined;
  private readonly abort = new AbortController();
  private launching: Promise<void> | undefined;
  private relaunching = false;
  private closing: Promise<void> | undefined;
  private onJoined: (() => void) | undefined;
  /**
   * For a subscription that starts at the end of the log: the next offset to read, per partition the group
   * had never committed when it started, as this process knows it (the end then, later past each handled
   * message). Every join seeks there, so a consumer that kafkajs restarted resumes where this one was
   * (see pinStartOffsets).
   */
  private readonly positions = new Map<number, string>();

  constructor(
    private readonly kafka: Kafka,
    private readonly opts: SubscribeOptions,
    private readonly options: KafkaSubscriptionOptions,
  ) {}

  /** Resolves once the member first joined its group (see EventBus.subscribe). */
  async start(): Promise<void> {
    const timeoutMs = this.options.tuning?.joinTimeoutMs ?? 60_000;
    let timer: NodeJS.Timeout | undefined;
    const joined = new Promise<void>((resolve, reject) => {
      this.onJoined = resolve;
      timer = setTimeout(
        () => reject(new Error(`Kafka consumer for ${this.opts.topic} did not join group ${this.opts.groupId} within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    try {
      if (!(this.opts.fromBeginning ?? false)) await this.pinStartOffsets();
      await Promise.all([this.launch(), joined]);
    } catch (err) {
      await this.close();
      throw err;
    } finally {
      clearTimeout(timer);
      this.onJoined = undefined;
    }
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.abort.abort();
      await this.launching?.catch(() => undefined);
      try {
        // Waits for the message in flight (and its commit), then leaves the group.
        await this.consumer?.disconnect();
      } finally {
        this.options.onClosed();
      }
    })();
    return this.closing;
  }

  /**
   * "Start at the end of the log" must mean the end when the subscription started, not wherever the log
   * ends when a consumer that kafkajs restarted (after a broker outage) rejoins: kafkajs resolves a
   * partition without a committed offset to its end at every join, which skips what was published in
   * between. So, for the partitions the group has never committed, the end is noted now (every join then
   * seeks there, see seekPositions) and committed for the group where the broker allows it (real Kafka
   * does; librdkafka's mock refuses the DescribeGroups kafkajs' setOffsets asks first). Partitions the
   * group has committed are left to their offsets: another member may own them and be behind, and
   * seeking to this process's start would skip its backlog. A failure here leaves kafkajs' own resolution
   * in place and is logged.
   */
  private async pinStartOffsets(): Promise<void> {
    const admin = this.kafka.admin();
    const where = { groupId: this.opts.groupId, topic: this.opts.topic };
    try {
      await admin.connect();
      const [committed] = await admin.fetchOffsets({ groupId: this.opts.groupId, topics: [this.opts.topic] });
      const unset = new Set((committed?.partitions ?? []).filter((p) => p.offset === '-1').map((p) => p.partition));
      if (unset.size === 0) return;
      const ends = await admin.fetchTopicOffsets(this.opts.topic);
      const partitions = ends.filter((e) => unset.has(e.partition)).map((e) => ({ partition: e.partition, offset: e.high }));
      for (const p of partitions) this.positions.set(p.partition, p.offset);
      await admin.setOffsets({ ...where, partitions }).catch((err: unknown) => this.options.logger?.debug({ err, ...where }, 'start offsets not committed for the group'));
    } catch (err) {
      this.options.logger?.warn({ err, ...where }, 'start positions unknown; a rejoin may skip messages');
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }

  /** On each join: continue each assigned partition from this process's position, when it has one. */
  private seekPositions(consumer: Consumer, assignment: Record<string, number[]> | undefined): void {
    for (const partition of assignment?.[this.opts.topic] ?? []) {
      const offset = this.positions.get(partition);
      if (offset !== undefined) consumer.seek({ topic: this.opts.topic, partition, offset });
    }
  }

  private launch(): Promise<void> {
    const consumer = this.createConsumer();
    this.consumer = consumer;
    this.launching = (async () => {
      await consumer.connect();
      await consumer.subscribe({ topics: [this.opts.topic], fromBeginning: this.opts.fromBeginning ?? false });
      await consumer.run({
        autoCommit: false,
        partitionsConsumedConcurrently: this.options.tuning?.partitionsConsumedConcurrently ?? 4,
        eachMessage: (payload) => this.handle(consumer, payload),
      });
    })();
    return this.launching;
  }

  private createConsumer(): Consumer {
    const t = this.options.tuning ?? {};
    const { signal } = this.abort;
    const consumer = this.kafka.consumer({
      groupId: this.opts.groupId,
      // kafkajs restarts a crashed consumer on a timer of its own. A crash racing close() (the broker went
      // away as the service stopped) would start a consumer nobody disconnects: its connection retries
      // then keep the process alive after close. A closed subscription restarts nothing.
      retry: { retries: 5, restartOnFailure: () => Promise.resolve(!signal.aborted) },
      ...(t.sessionTimeoutMs !== undefined ? { sessionTimeout: t.sessionTimeoutMs } : {}),
      ...(t.heartbeatIntervalMs !== undefined ? { heartbeatInterval: t.heartbeatIntervalMs } : {}),
      ...(t.maxWaitTimeMs !== undefined ? { maxWaitTimeInMs: t.maxWaitTimeMs } : {}),
    });
    consumer.on(consumer.events.GROUP_JOIN, (event) => {
      if (this.positions.size > 0) this.seekPositions(consumer, event.payload.memberAssignment);
      this.onJoined?.();
    });
    consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
      consumerLag.set({ group: this.opts.groupId, topic: payload.topic, partition: String(payload.partition) }, Number(payload.offsetLag));
    });
    consumer.on(consumer.events.CRASH, (event) => {
      if (!event.payload.restart) void this.relaunch(event.payload.error);
      // The restart decision was taken before close() aborted: kafkajs sets its restart timer right after
      // this event, and stop() clears it (a stopped consumer holds no runner, so this returns at once).
      else if (signal.aborted) setImmediate(() => void consumer.stop().catch(() => undefined));
    });
    return consumer;
  }

  private async relaunch(error: unknown): Promise<void> {
    if (this.relaunching) return;
    this.relaunching = true;
    const { signal } = this.abort;
    try {
      for (let attempt = 1; !signal.aborted; attempt++) {
        this.options.logger?.error(
          { err: error, topic: this.opts.topic, groupId: this.opts.groupId, attempt },
          'Kafka consumer stopped on an error; starting a new one',
        );
        await this.consumer?.disconnect().catch(() => undefined);
        await sleep(Math.min(30_000, 250 * 2 ** (attempt - 1)), undefined, { signal }).catch(() => undefined);
        if (signal.aborted) return;
        try {
          await this.launch();
          return;
        } catch (err) {
          error = err;
        }
      }
    } finally {
      this.relaunching = false;
    }
  }

  private async handle(consumer: Consumer, { topic, partition, message, heartbeat }: EachMessagePayload): Promise<void> {
    const msg: BusMessage = {
      key: message.key === null ? null : message.key.toString(),
      value: message.value ?? Buffer.alloc(0),
      headers: decodeHeaders(message.headers),
      topic,
      partition,
      offset: message.offset,
    };
    try {
      await runHandlerWithRetry(this.opts.handler, msg, {
        signal: this.abort.signal,
        retry: this.options.retry,
        logger: this.options.logger,
        // A rebalance surfaces here as an error: rethrown, kafkajs rejoins and the new owner of the
        // partition starts again from the committed offset, i.e. at this message.
        beforeRetry: heartbeat,
      });
    } catch (err) {
      // Closing: return quietly. The offset is not committed, so the group hands this message out again;
      // kafkajs stops its loop because the consumer is no longer running.
      if (this.abort.signal.aborted) return;
      throw err;
    }
    const next = (BigInt(message.offset) + 1n).toString();
    await consumer.commitOffsets([{ topic, partition, offset: next }]);
    if (this.positions.has(partition)) this.positions.set(partition, next);
  }
}

/** Kafka allows repeated and binary headers; the bus contract has one string per name, the last one wins. */
function decodeHeaders(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers ?? {})) {
    const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
    if (value !== undefined) out[name] = value.toString();
  }
  return out;
}

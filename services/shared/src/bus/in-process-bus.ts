import {
  EventBusClosedError,
  type BusLogger,
  type BusMessage,
  type EventBus,
  type HandlerRetryOptions,
  type MessageHandler,
  type OutgoingMessage,
  type SubscribeOptions,
  type Subscription,
} from './event-bus.js';
import { runHandlerWithRetry } from './handler-retry.js';
import { tracedHandler, tracedPublish } from '../tracing/bus-spans.js';

export interface InProcessBusOptions {
  /** Partitions per topic; same default as the Kafka topics so ordering behaves alike. */
  partitions?: number;
  /** Handled messages are dropped once a partition holds more than this (never uncommitted ones). */
  maxRetainedPerPartition?: number;
  retry?: HandlerRetryOptions;
  logger?: BusLogger;
}

interface StoredMessage {
  key: string | null;
  value: Buffer;
  headers: Record<string, string>;
}

interface PartitionLog {
  /** Offset of messages[0]; grows as handled messages are dropped. */
  base: number;
  messages: StoredMessage[];
}

interface TopicLog {
  partitions: PartitionLog[];
  groups: Set<ConsumerGroup>;
  roundRobin: number;
}

interface Member {
  handler: MessageHandler;
  abort: AbortController;
  inFlight: Set<Promise<void>>;
  closed: boolean;
}

/** Wakes partition runners; one per group so waiting never piles up listeners. */
class Wakeup {
  private waiters: Array<() => void> = [];
  wait(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }
  notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}

interface ConsumerGroup {
  topic: string;
  /** Next offset to handle per partition (Kafka's committed offset). */
  committed: number[];
  members: Member[];
  owners: Array<Member | undefined>;
  running: boolean[];
  wakeup: Wakeup;
}

/**
 * The embedded default's bus: a per-topic log split into partitions by key hash, consumer groups with
 * committed offsets, the same at-least-once and per-key ordering rules as Kafka. One runner per
 * (group, partition) hands messages to the partition's current owner one at a time, so a partition that
 * moves to another member mid-handler is only handed over after the handler finished and committed.
 */
export class InProcessBus implements EventBus {
  private readonly topics = new Map<string, TopicLog>();
  private readonly groups = new Map<string, ConsumerGroup>();
  private readonly subscriptions = new Set<Subscription>();
  private readonly partitionCount: number;
  private readonly maxRetained: number;
  private closed = false;

  constructor(private readonly options: InProcessBusOptions = {}) {
    this.partitionCount = options.partitions ?? 3;
    this.maxRetained = options.maxRetainedPerPartition ?? 10_000;
  }

  async publish(topic: string, messages: OutgoingMessage[]): Promise<void> {
    if (this.closed) throw new EventBusClosedError();
    await tracedPublish('in-process', topic, messages, async (traced) => this.append(topic, traced));
  }

  private append(topic: string, messages: OutgoingMessage[]): void {
    const log = this.topicLog(topic);
    for (const m of messages) {
      const key = m.key ?? null;
      const p = key === null ? log.roundRobin++ % log.partitions.length : hashKey(key) % log.partitions.length;
      // Copies: a publisher reusing its buffer must not change what consumers read.
      log.partitions[p]!.messages.push({
        key,
        value: typeof m.value === 'string' ? Buffer.from(m.value, 'utf8') : Buffer.from(m.value),
        headers: { ...m.headers },
      });
    }
    for (const group of log.groups) group.wakeup.notify();
  }

  async subscribe(opts: SubscribeOptions): Promise<Subscription> {
    if (this.closed) throw new EventBusClosedError();
    const group = this.group(opts.topic, opts.groupId, opts.fromBeginning ?? false);
    const member: Member = { handler: tracedHandler('in-process', opts), abort: new AbortController(), inFlight: new Set(), closed: false };
    group.members.push(member);
    this.rebalance(group);
    const log = this.topicLog(opts.topic);
    for (let p = 0; p < log.partitions.length; p++) {
      if (group.running[p]) continue;
      group.running[p] = true;
      void this.runPartition(group, log, p);
    }
    const subscription: Subscription = {
      close: async () => {
        this.subscriptions.delete(subscription);
        if (member.closed) return;
        member.closed = true;
        member.abort.abort();
        group.members.splice(group.members.indexOf(member), 1);
        this.rebalance(group);
        await Promise.all(member.inFlight);
      },
    };
    this.subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.subscriptions].map((s) => s.close()));
  }

  private topicLog(topic: string): TopicLog {
    let log = this.topics.get(topic);
    if (!log) {
      const partitions = Array.from({ length: this.partitionCount }, () => ({ base: 0, messages: [] }));
      log = { partitions, groups: new Set(), roundRobin: 0 };
      this.topics.set(topic, log);
    }
    return log;
  }

  private group(topic: string, groupId: string, fromBeginning: boolean): ConsumerGroup {
    const id = `${topic}\u0000${groupId}`;
    let group = this.groups.get(id);
    if (!group) {
      const log = this.topicLog(topic);
      group = {
        topic,
        committed: log.partitions.map((p) => (fromBeginning ? p.base : p.base + p.messages.length)),
        members: [],
        owners: [],
        running: [],
        wakeup: new Wakeup(),
      };
      this.groups.set(id, group);
      log.groups.add(group);
    }
    return group;
  }

  private rebalance(group: ConsumerGroup): void {
    const n = group.members.length;
    group.owners = group.committed.map((_, p) => (n === 0 ? undefined : group.members[p % n]));
    group.wakeup.notify();
  }

  private async runPartition(group: ConsumerGroup, log: TopicLog, p: number): Promise<void> {
    const part = log.partitions[p]!;
    while (group.members.length > 0) {
      const owner = group.owners[p];
      const offset = Math.max(group.committed[p]!, part.base);
      const stored = part.messages[offset - part.base];
      if (!owner || !stored) {
        await group.wakeup.wait();
        continue;
      }
      const delivery = this.deliver(owner, group, p, offset, stored);
      owner.inFlight.add(delivery);
      await delivery;
      owner.inFlight.delete(delivery);
      this.trim(log, p);
    }
    group.running[p] = false;
  }

  private async deliver(member: Member, group: ConsumerGroup, p: number, offset: number, stored: StoredMessage) {
    const msg: BusMessage = {
      key: stored.key,
      value: Buffer.from(stored.value),
      headers: { ...stored.headers },
      topic: group.topic,
      partition: p,
      offset: String(offset),
    };
    try {
      await runHandlerWithRetry(member.handler, msg, {
        signal: member.abort.signal,
        retry: this.options.retry,
        logger: this.options.logger,
      });
      group.committed[p] = offset + 1;
    } catch {
      // Only an abort (member closing) lands here: the message stays uncommitted for the next owner.
    }
  }

  private trim(log: TopicLog, p: number): void {
    const part = log.partitions[p]!;
    const excess = part.messages.length - this.maxRetained;
    if (excess <= 0) return;
    let handledByAll = Infinity;
    for (const g of log.groups) handledByAll = Math.min(handledByAll, g.committed[p]!);
    const drop = Math.min(excess, handledByAll - part.base);
    if (drop <= 0) return;
    part.messages.splice(0, drop);
    part.base += drop;
  }
}

/** FNV-1a: stable across runs, so a key keeps its partition (and its order) for the process lifetime. */
function hashKey(key: string): number {
  let h = 0x811c9dc5;
  for (const byte of Buffer.from(key, 'utf8')) {
    h ^= byte;
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

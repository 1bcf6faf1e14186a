import type { DataSource, EntityManager } from 'typeorm';
import type { EventBus } from '@green-impact/shared/bus/event-bus';
import type { Logger } from '@green-impact/shared/logger';
import { traceHeaders } from '@green-impact/shared/tracing/carriers';
import { WakeableLoop } from '../worker/wakeable-loop.js';

/**
 * Adds a message to the outbox, inside the caller's transaction: it is published iff that commits. The
 * row keeps the active trace context, so the message continues the trace of the request that wrote it.
 */
export async function enqueueOutbox(m: EntityManager, topic: string, key: string | null, payload: unknown): Promise<void> {
  await enqueueOutboxMany(m, topic, [{ key, payload }]);
}

/**
 * Several messages of one topic in one INSERT, in the given order. A message's own `headers` (the trace
 * context of the request it belongs to, taken when a batch of requests is written together) go with it;
 * the others carry the active trace context.
 */
export async function enqueueOutboxMany(
  m: EntityManager,
  topic: string,
  messages: { key: string | null; payload: unknown; headers?: Record<string, string> | undefined }[],
): Promise<void> {
  if (messages.length === 0) return;
  const headerText = (headers: Record<string, string>) => (Object.keys(headers).length ? JSON.stringify(headers) : null);
  const active = headerText(traceHeaders());
  const params: unknown[] = [topic];
  const rows = messages.map(({ key, payload, headers }) => {
    params.push(key, JSON.stringify(payload), headers ? headerText(headers) : active);
    const at = params.length;
    return `($1, $${at - 2}, $${at - 1}, $${at}::jsonb)`;
  });
  await m.query(`INSERT INTO chain.outbox (topic, message_key, payload, headers) VALUES ${rows.join(', ')}`, params);
}

interface OutboxRow {
  id: string;
  topic: string;
  message_key: string | null;
  payload: unknown;
  headers: Record<string, string> | null;
}

/** The safety poll of an idle relay: a commit in this process wakes it at once (JobStore.committed). */
const RELAY_IDLE_POLL_MS = 15_000;
/** publishBatch's answer when another replica's relay holds the lock. */
const LOCKED_OUT = -1;

/** Any constant: the advisory lock that makes one relay (of all replicas) publish at a time. */
const RELAY_LOCK = 0x6368_6169; // "chai"

/**
 * Publishes outbox rows to the bus, oldest first, and deletes them once the bus accepted them. One relay
 * publishes at a time across replicas (a transaction-level advisory lock), so messages leave in the order
 * they were written and per-key order holds. A crash between publishing and deleting publishes the rows
 * again: consumers are idempotent (at-least-once, as the bus itself).
 */
export class OutboxRelay {
  private readonly loop: WakeableLoop;

  constructor(
    private readonly ds: DataSource,
    private readonly bus: EventBus,
    private readonly log: Logger,
    /**
     * pollIntervalMs: while rows wait for another replica's relay; idlePollMs (default 15 s): with the
     * outbox empty, the safety poll (a commit of this process wakes the relay at once).
     */
    private readonly opts: { pollIntervalMs: number; idlePollMs?: number; batchSize?: number },
  ) {
    const timing = { pollIntervalMs: opts.pollIntervalMs, idlePollMs: Math.max(opts.pollIntervalMs, opts.idlePollMs ?? RELAY_IDLE_POLL_MS), firstBackoffMs: 500, maxBackoffMs: 30_000 };
    this.loop = new WakeableLoop(() => this.pass(), timing, (err, failures) =>
      this.log.warn({ err, failures }, 'outbox relay could not publish; retrying'),
    );
  }

  private stopped = true;

  start(): void {
    this.stopped = false;
    this.loop.start();
  }

  /** Runs a pass soon (after a commit that wrote outbox rows). */
  wake(): void {
    this.loop.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop.stop();
  }

  /** Publishes everything pending now (waiting for another replica's relay if need be); for tests. */
  async flush(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await this.loop.current();
      const published = await this.publishBatch();
      if (published > 0) continue;
      const [{ n }] = (await this.ds.query(`SELECT count(*)::int AS n FROM chain.outbox`)) as [{ n: number }];
      if (n === 0) return;
      if (Date.now() > deadline) throw new Error(`outbox still holds ${n} rows after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Publishes until the outbox is empty; false then (idle), true when another replica's relay held the lock. */
  private async pass(): Promise<boolean> {
    for (;;) {
      if (this.stopped) return false;
      const published = await this.publishBatch();
      if (published === LOCKED_OUT) return true;
      if (published < (this.opts.batchSize ?? 200)) return false;
    }
  }

  /** One batch in one transaction; returns how many rows it published (LOCKED_OUT: another relay is publishing). */
  private publishBatch(): Promise<number> {
    return this.ds.transaction(async (m) => {
      const [{ locked }] = (await m.query(`SELECT pg_try_advisory_xact_lock($1) AS locked`, [RELAY_LOCK])) as [{ locked: boolean }];
      if (!locked) return LOCKED_OUT;
      const rows: OutboxRow[] = await m.query(
        `SELECT id, topic, message_key, payload, headers FROM chain.outbox ORDER BY id LIMIT $1`,
        [this.opts.batchSize ?? 200],
      );
      if (rows.length === 0) return 0;
      // Consecutive rows of one topic go in one publish call, keeping the overall order.
      for (let i = 0; i < rows.length; ) {
        let j = i;
        while (j < rows.length && rows[j]!.topic === rows[i]!.topic) j++;
        await this.bus.publish(
          rows[i]!.topic,
          rows.slice(i, j).map((r) => ({ key: r.message_key, value: JSON.stringify(r.payload), ...(r.headers ? { headers: r.headers } : {}) })),
        );
        i = j;
      }
      await m.query(`DELETE FROM chain.outbox WHERE id = ANY($1::bigint[])`, [rows.map((r) => r.id)]);
      return rows.length;
    });
  }
}

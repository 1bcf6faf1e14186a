import { Gauge } from 'prom-client';
import type { DataSource } from 'typeorm';
import { metricsRegistry } from '@green-impact/shared/metrics';
import type { Logger } from '@green-impact/shared/logger';

/**
 * Prometheus gauges of the chain service's backlog, read from its database at each scrape (so every
 * replica reports the same shared numbers; use max() across instances, not sum()):
 * - chain_job_queue_depth{status}: jobs waiting (queued: not yet sent; submitted: sent, not final);
 * - chain_job_oldest_age_seconds{status}: age of the oldest of them (queued: since created; submitted:
 *   since first sent), 0 when there is none — a growing value is a stuck worker or a stuck transaction;
 * - chain_outbox_messages and chain_outbox_lag_seconds: rows the relay has not published yet and the age
 *   of the oldest — a growing lag means Kafka is not accepting messages.
 */

interface Backlog {
  queued: number;
  submitted: number;
  queuedAge: number;
  submittedAge: number;
  outbox: number;
  outboxAge: number;
}

interface Source {
  ds: DataSource;
  log: Logger;
  /** What the last successful read gave, reported again when a read fails. */
  last: Backlog;
}

const ZERO: Backlog = { queued: 0, submitted: 0, queuedAge: 0, submittedAge: 0, outbox: 0, outboxAge: 0 };
const sources = new Set<Source>();
let gauges: Gauge[] | undefined;
/** One read per scrape, shared by the four gauges. */
let pending: Promise<Backlog> | undefined;

/** Reports `ds`'s backlog until the returned function is called (at service close). */
export function registerChainMetrics(ds: DataSource, log: Logger): () => void {
  gauges ??= createGauges();
  const source: Source = { ds, log, last: ZERO };
  sources.add(source);
  return () => void sources.delete(source);
}

function createGauges(): Gauge[] {
  const depth = new Gauge({
    name: 'chain_job_queue_depth',
    help: 'Chain jobs not final yet, by status (queued: not sent; submitted: sent, awaiting confirmations).',
    labelNames: ['status'] as const,
    registers: [metricsRegistry],
    async collect() {
      const b = await backlog();
      this.set({ status: 'queued' }, b.queued);
      this.set({ status: 'submitted' }, b.submitted);
    },
  });
  const age = new Gauge({
    name: 'chain_job_oldest_age_seconds',
    help: 'Age of the oldest queued job (since created) and submitted job (since first sent); 0 when none.',
    labelNames: ['status'] as const,
    registers: [metricsRegistry],
    async collect() {
      const b = await backlog();
      this.set({ status: 'queued' }, b.queuedAge);
      this.set({ status: 'submitted' }, b.submittedAge);
    },
  });
  const outbox = new Gauge({
    name: 'chain_outbox_messages',
    help: 'Outbox rows not yet published to the event bus.',
    registers: [metricsRegistry],
    async collect() {
      this.set((await backlog()).outbox);
    },
  });
  const lag = new Gauge({
    name: 'chain_outbox_lag_seconds',
    help: 'Age of the oldest outbox row not yet published; 0 when the outbox is empty.',
    registers: [metricsRegistry],
    async collect() {
      this.set((await backlog()).outboxAge);
    },
  });
  return [depth, age, outbox, lag];
}

function backlog(): Promise<Backlog> {
  pending ??= readAll().finally(() => setImmediate(() => (pending = undefined)));
  return pending;
}

async function readAll(): Promise<Backlog> {
  const total: Backlog = { ...ZERO };
  for (const source of sources) {
    const b = await readOne(source);
    total.queued += b.queued;
    total.submitted += b.submitted;
    total.queuedAge = Math.max(total.queuedAge, b.queuedAge);
    total.submittedAge = Math.max(total.submittedAge, b.submittedAge);
    total.outbox += b.outbox;
    total.outboxAge = Math.max(total.outboxAge, b.outboxAge);
  }
  return total;
}

async function readOne(source: Source): Promise<Backlog> {
  try {
    const [row] = (await source.ds.query(`
      SELECT
        (SELECT count(*) FROM chain.jobs WHERE status = 'queued')::int AS queued,
        (SELECT count(*) FROM chain.jobs WHERE status = 'submitted')::int AS submitted,
        COALESCE((SELECT extract(epoch FROM now() - min(created_at)) FROM chain.jobs WHERE status = 'queued'), 0)::float8 AS queued_age,
        COALESCE((SELECT extract(epoch FROM now() - min(submitted_at)) FROM chain.jobs WHERE status = 'submitted'), 0)::float8 AS submitted_age,
        (SELECT count(*) FROM chain.outbox)::int AS outbox,
        COALESCE((SELECT extract(epoch FROM now() - min(created_at)) FROM chain.outbox), 0)::float8 AS outbox_age`)) as [
      { queued: number; submitted: number; queued_age: number; submitted_age: number; outbox: number; outbox_age: number },
    ];
    source.last = {
      queued: row.queued,
      submitted: row.submitted,
      queuedAge: Math.max(0, row.queued_age),
      submittedAge: Math.max(0, row.submitted_age),
      outbox: row.outbox,
      outboxAge: Math.max(0, row.outbox_age),
    };
  } catch (err) {
    // A scrape must not fail on a database hiccup: the last values are reported again.
    source.log.warn({ err }, 'could not read the chain backlog for metrics');
  }
  return source.last;
}

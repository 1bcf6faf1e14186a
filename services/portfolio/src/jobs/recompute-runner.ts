import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { DataSource } from 'typeorm';
import type { Caller } from '@green-impact/shared/caller';
import { outsidePoolCaller } from '@green-impact/shared/db/pool-share';
import { DomainError } from '@green-impact/shared/errors';
import type { Logger } from '@green-impact/shared/logger';
import type { ImpactService } from '../impacts/impact-service.js';
import { RECOMPUTE_BATCH } from '../impacts/impact-service.js';
import { selectPositions } from '../positions/position-reads.js';
import { LostJobError, type RecomputeJobRow, type RecomputeJobStore } from './recompute-job-store.js';
import { countScope, nextBatch, type ScopeItem } from './recompute-scope.js';
import { serviceCounter } from '@green-impact/shared/metrics';

/** recompute_jobs_failed_total{reason}: refused (a domain error, e.g. a missing FX rate) or internal (attempts used up). */
const recomputeFailures = serviceCounter(
  'recompute_jobs_failed_total',
  'Impact recompute jobs that ended failed: refused (a domain error such as a missing FX rate) or internal (attempts used up).',
  ['reason'] as const,
);

export interface RecomputeRunnerOptions {
  /** A running job whose heartbeat is older than this is taken over by another replica (default 30 s). */
  leaseMs?: number | undefined;
  /** How often an idle replica looks for queued or abandoned jobs (default 5 s). */
  pollMs?: number | undefined;
  /** Positions per batch, one transaction each (default RECOMPUTE_BATCH). */
  batchSize?: number | undefined;
}

/** Failures that are not the data's (database or taxonomy unreachable) are retried by lease expiry this often. */
const MAX_ATTEMPTS = 3;
/** Service errors that say nothing about the job's data: retried, not the job's failure. */
const TRANSIENT = new Set(['UNAVAILABLE', 'DEADLINE_EXCEEDED', 'INTERNAL', 'RESOURCE_EXHAUSTED']);

/**
 * Runs recompute jobs: claims one (queued, or abandoned by a replica that stopped renewing its lease),
 * walks its positions batch by batch — inputs read from the taxonomy service with no transaction open,
 * then the records and the job's progress written in one transaction, two batches at a time committing
 * in order (see walk) — and marks it completed or failed.
 * A batch is all or nothing, so a job resumed after a crash redoes at most the batch that did not commit;
 * rewriting records is idempotent anyway.
 */
export class RecomputeRunner {
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly batchSize: number;
  private timer: NodeJS.Timeout | undefined;
  private loop: Promise<void> | undefined;
  private again = false;
  private closed = false;

  constructor(
    private readonly ds: DataSource,
    private readonly jobs: RecomputeJobStore,
    private readonly impacts: ImpactService,
    private readonly log: Logger,
    opts: RecomputeRunnerOptions = {},
  ) {
    this.leaseMs = opts.leaseMs ?? 30_000;
    this.pollMs = opts.pollMs ?? 5_000;
    this.batchSize = opts.batchSize ?? RECOMPUTE_BATCH;
  }

  /** Starts polling for jobs (queued by any replica, or abandoned). */
  start(): void {
    if (this.timer || this.closed) return;
    this.timer = setInterval(() => this.kick(), this.pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Looks for work now (after this replica queued a job). */
  kick(): void {
    if (this.closed) return;
    if (this.loop) {
      this.again = true;
      return;
    }
    // A call that queued a job kicks the runner, but the runner's connections (two batches, the next
    // batch's reads, the heartbeat) are the replica's, not that caller's share of the pool.
    this.loop = outsidePoolCaller(() => this.drain())
      .catch((err: unknown) => this.log.error({ err }, 'recompute jobs: claiming failed'))
      .finally(() => {
        this.loop = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Stops taking jobs and waits for the batch in hand; a job left running is taken over after its lease. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.loop;
  }

  private async drain(): Promise<void> {
    while (!this.closed) {
      const job = await this.jobs.claim(this.owner, this.leaseMs);
      if (!job) return;
      await this.run(job);
    }
  }

  private async run(job: RecomputeJobRow): Promise<void> {
    const log = this.log.child({ recomputeJob: job.id, scope: job.scope, attempt: job.attempts });
    let lost = false;
    const beat = setInterval(() => {
      this.jobs.heartbeat(job.id, this.owner).then(
        (mine) => (lost ||= !mine),
        (err: unknown) => log.warn({ err }, 'recompute job heartbeat failed'),
      );
    }, Math.max(50, Math.floor(this.leaseMs / 3)));
    beat.unref();
    const caller: Caller = { accountId: job.accountId, role: job.accountRole, requestId: `recompute-${job.id}` };
    try {
      if (job.total === 0 && job.done === 0) {
        const total = await countScope(this.ds.manager, job);
        await this.jobs.setTotal(job.id, this.owner, total);
      }
      await this.walk(job, caller, () => lost);
      await this.jobs.finish(job.id, this.owner, 'completed');
      log.info('recompute job completed');
    } catch (err) {
      if (err instanceof LostJobError && this.closed && !lost) {
        await this.jobs.release(job.id, this.owner);
        log.info('recompute job handed back to the queue at shutdown');
      } else if (err instanceof LostJobError) {
        log.warn('recompute job left to the replica that took it over (or to the next one after a stop)');
      } else if (err instanceof DomainError && !TRANSIENT.has(err.code)) {
        await this.jobs.finish(job.id, this.owner, 'failed', err.message);
        recomputeFailures.inc({ reason: 'refused' });
        log.info({ errorCode: err.code }, 'recompute job failed');
      } else if (job.attempts >= MAX_ATTEMPTS) {
        log.error({ err }, 'recompute job failed');
        await this.jobs.finish(job.id, this.owner, 'failed', 'Internal error while recomputing; the job may be started again.');
        recomputeFailures.inc({ reason: 'internal' });
      } else {
        // Left running: another replica (or this one) takes it over once its lease expires.
        log.warn({ err }, 'recompute job interrupted; retried after its lease expires');
      }
    } finally {
      clearInterval(beat);
    }
  }

  /**
   * Writes the job's batches from its cursor on. Two batch transactions are in flight at a time, so
   * PostgreSQL writes one batch's rows on one connection (and core) while it writes the other's on
   * another, and the batch after them is read and prepared (taxonomy calls) meanwhile. They commit in
   * cursor order all the same: a batch advances the job only once the batch before it committed, in the
   * same transaction as its records, and rolls back if that one failed, so after a crash the cursor still
   * has every batch before it stored and none after it. A batch's transaction opens only after the one
   * before it opened: on PGlite's one session it then waits for that one to end, never the reverse.
   */
  private async walk(job: RecomputeJobRow, caller: Caller, lost: () => boolean): Promise<void> {
    const load = (cursor: number) => this.load(job, caller, cursor);
    let next = load(job.cursor);
    let previous: Promise<unknown> = Promise.resolve();
    try {
      for (;;) {
        const current = await next;
        if (!current) break;
        if (lost() || this.closed) throw new LostJobError(job.id);
        next = load(current.batch.cursor);
        next.catch(() => undefined); // awaited (and its failure met) on the next turn
        const before = previous;
        let opened!: () => void;
        const open = new Promise<void>((resolve) => (opened = resolve));
        previous = this.ds.transaction(async (m) => {
          opened();
          // Not waiting for the batch's WAL to reach the disk at commit: if the database itself crashed
          // after it, the batch's records and the job's progress past them are lost together (one
          // transaction), and the job redoes the batch. The job's completion is committed durably.
          await m.query(`SET LOCAL synchronous_commit = off`);
          for (const ofYear of current.prepared) await this.impacts.write(m, job.accountId, ofYear, current.readAt);
          await before;
          await this.jobs.advance(m, job.id, this.owner, current.batch.items.length, current.batch.cursor);
        });
        previous.catch(() => undefined); // awaited (and its failure met) on the next turn or below
        await Promise.race([open, previous]);
        await before;
      }
      await previous;
    } finally {
      // Leaves nothing of the job's running behind it (a failed batch's successor rolls back).
      await Promise.allSettled([previous]);
    }
  }

  /** The batch after cursor with its records prepared; undefined when the scope is done. */
  private async load(job: RecomputeJobRow, caller: Caller, cursor: number) {
    const batch = await nextBatch(this.ds.manager, job, cursor, this.batchSize);
    if (batch.items.length === 0) return undefined;
    const readAt = await this.impacts.databaseNow();
    return { batch, readAt, prepared: await this.prepare(caller, batch.items) };
  }

  /** The batch's records, prepared per reporting year (a stale batch spans years). */
  private async prepare(caller: Caller, items: ScopeItem[]) {
    const positions = new Map((await selectPositions(this.ds.manager, caller.accountId, { ids: [...new Set(items.map((i) => i.positionId))] })).map((p) => [p.id, p]));
    const years = new Map<number, number[]>();
    for (const i of items) {
      const ids = years.get(i.year);
      if (ids) ids.push(i.positionId);
      else years.set(i.year, [i.positionId]);
    }
    const out = [];
    for (const [year, ids] of years) {
      const present = ids.flatMap((id) => positions.get(id) ?? []);
      out.push(await this.impacts.prepare(caller, present, year));
    }
    return out;
  }
}

import { createHash, randomUUID } from 'node:crypto';
import { In, type DataSource, type EntityManager } from 'typeorm';
import { actedByColumns, type Caller } from '@green-impact/shared/caller';
import { FailedPreconditionError, InvalidArgumentError, NotFoundError, truncate } from '@green-impact/shared/errors';
import { TOPIC_JOB_EVENTS, TOPIC_JOBS } from '../schema.js';
import { JobEntity, type JobRow } from './entities.js';
import { BATCH_KINDS, type DocumentKindName, type JobEvent, type JobKindName, type JobMessage, type JobStatusName } from './job-types.js';
import { enqueueOutboxMany } from './outbox.js';
import { outsidePoolCaller } from '@green-impact/shared/db/pool-share';
import { traceHeaders } from '@green-impact/shared/tracing/carriers';
import { jobTraces } from '../worker/job-traces.js';

export interface JobSubject {
  frameworkIdentifier?: string | undefined;
  positionId?: number | undefined;
  investorIdentifier?: string | undefined;
  reportingYear?: number | undefined;
  languageCode?: string | undefined;
  kvKey?: string | undefined;
}

export interface NewJob {
  caller: Caller;
  kind: JobKindName;
  documentKind?: DocumentKindName | undefined;
  /** As the client named it. */
  network: string;
  /** Alias resolved. */
  chainNetwork: string;
  signer: string;
  request: Record<string, unknown>;
  payload: Record<string, unknown>;
  /** What makes two requests "the same" for an idempotency key. */
  fingerprint: unknown;
  idempotencyKey?: string | undefined;
  subject?: JobSubject;
}

/**
 * Rows of another table written for many jobs at once, in the transaction that accepts them (documents'
 * entries): called once per batch with the jobs of the batch that carry it and their values.
 */
export interface BatchedWrite<T> {
  writeAll(m: EntityManager, items: { jobId: string; value: T }[]): Promise<void>;
}

/** A job's part of a BatchedWrite. */
export interface WithBatch<T> {
  write: BatchedWrite<T>;
  value: T;
}

/** A job waiting to be accepted (JobStore.accept). */
interface Intake {
  id: string;
  input: NewJob;
  key: string | undefined;
  requestHash: string;
  /** The trace context of the request, for its outbox rows (written in whichever request's turn). */
  headers: Record<string, string> | undefined;
  extra?: WithBatch<unknown>;
  resolve: (job: JobRow | undefined) => void;
  reject: (err: unknown) => void;
}

/** Most jobs accepted in one transaction (a bigger burst goes in several). */
const MAX_ACCEPT_BATCH = 256;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_IDEMPOTENCY_KEY = 255;

/**
 * Runs inside the transaction of every job status change, after the change (NFTs keep their own state in
 * step with their jobs this way). Must use only the given manager.
 */
export type JobTransitionHook = (m: EntityManager, before: JobRow, after: JobRow) => Promise<void>;

/**
 * Job rows and their status changes. Creating a job writes the job, its chain.jobs message and its first
 * event in one transaction; every later status change writes its event in the same transaction as the
 * change (transactional outbox), so Kafka never misses or invents a change.
 */
export class JobStore {
  private readonly hooks: JobTransitionHook[] = [];
  /** Jobs waiting for the next accepting batch (accept). */
  private readonly intake: Intake[] = [];
  private draining = false;

  constructor(
    private readonly ds: DataSource,
    /** Called after a commit that wrote outbox rows (wakes the relay). */
    private readonly onOutbox: () => void,
  ) {}

  /** Adds a hook run in the transaction of each status change. */
  onTransition(hook: JobTransitionHook): void {
    this.hooks.push(hook);
  }

  /**
   * Creates a queued job, or answers the existing job of the same idempotency key (replayed). `within`
   * runs in the same transaction, after the job row exists: a function (NFTs lock and change their own
   * rows there) makes the job's own transaction; a BatchedWrite (documents add their entry there), or
   * nothing, lets the job be accepted together with the others arriving meanwhile (see accept).
   */
  async create<T>(input: NewJob, within?: ((m: EntityManager, jobId: string) => Promise<void>) | WithBatch<T>): Promise<{ job: JobRow; replayed: boolean }> {
    const key = idempotencyKey(input.idempotencyKey);
    const requestHash = fingerprintHash(input.fingerprint);
    const id = randomUUID();
    const created =
      typeof within === 'function'
        ? await this.ds.transaction(async (m) => (await this.insertJobs(m, [{ id, input, key, requestHash, headers: undefined }], async (ids) => {
            for (const jobId of ids) await within(m, jobId);
          })).get(id))
        : await this.accept({ id, input, key, requestHash, headers: traceHeaders(), ...(within ? { extra: within as WithBatch<unknown> } : {}) });
    if (created) {
      // Its broadcast, later and elsewhere in this process, continues this request's trace.
      jobTraces.remember(created.id);
      if (typeof within === 'function') this.onOutbox();
      return { job: created, replayed: false };
    }
    return (await this.replay(input.caller, key!, requestHash))!;
  }

  /**
   * Accepts a job together with every other arriving while the batch before it is being written: one
   * transaction, one multi-row INSERT of the jobs, one write per BatchedWrite, one SELECT of the rows, one
   * INSERT per outbox topic, however many jobs the burst holds, so a burst costs a handful of statements
   * rather than six to eight per job. One batch is written at a time (the next collects meanwhile), outside
   * any caller's pool share: it serves many callers and holds one connection. A batch that fails is written
   * again job by job, so only the job at fault fails. Answers the job, or undefined when its idempotency key
   * was taken (by an earlier job or by one of the same batch).
   */
  private accept(item: Omit<Intake, 'resolve' | 'reject'>): Promise<JobRow | undefined> {
    return new Promise((resolve, reject) => {
      this.intake.push({ ...item, resolve, reject });
      if (this.draining) return;
      this.draining = true;
      // The requests that arrived in this turn of the event loop join the first batch.
      outsidePoolCaller(() => setImmediate(() => void this.drain()));
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.intake.length > 0) await this.writeBatch(this.intake.splice(0, MAX_ACCEPT_BATCH));
    } finally {
      this.draining = false;
    }
  }

  private async writeBatch(batch: Intake[]): Promise<void> {
    let created: Map<string, JobRow>;
    try {
      created = await this.ds.transaction((m) =>
        this.insertJobs(m, batch, async (ids) => {
          // Each BatchedWrite once, with the jobs of the batch that carry it.
          const writes = new Map<BatchedWrite<unknown>, { jobId: string; value: unknown }[]>();
          const inserted = new Set(ids);
          for (const item of batch) {
            if (!item.extra || !inserted.has(item.id)) continue;
            const list = writes.get(item.extra.write) ?? [];
            list.push({ jobId: item.id, value: item.extra.value });
            writes.set(item.extra.write, list);
          }
          for (const [write, items] of writes) await write.writeAll(m, items);
        }),
      );
    } catch (err) {
      if (batch.length === 1) return batch[0]!.reject(err);
      for (const item of batch) await this.writeBatch([item]);
      return;
    }
    if (created.size > 0) this.onOutbox();
    for (const item of batch) item.resolve(created.get(item.id));
  }

  /**
   * The jobs' rows (one INSERT; an idempotency key already taken skips its row), `within` with the ids
   * inserted, then the rows as stored and their chain.jobs messages and first events (one INSERT per topic).
   */
  private async insertJobs(m: EntityManager, items: Omit<Intake, 'resolve' | 'reject'>[], within: (ids: string[]) => Promise<void>): Promise<Map<string, JobRow>> {
    const params: unknown[] = [];
    const tuples = items.map(({ id, input, key, requestHash }) => {
      const s = input.subject ?? {};
      const values = [
        id, input.caller.accountId, input.kind, input.documentKind ?? null, input.network, input.chainNetwork,
        JSON.stringify(input.request), JSON.stringify(input.payload), requestHash, key ?? null, input.signer,
        s.frameworkIdentifier ?? null, s.positionId ?? null, s.investorIdentifier ?? null, s.reportingYear ?? null,
        s.languageCode ?? null, s.kvKey ?? null, ...actedByColumns(input.caller),
      ];
      const at = params.length;
      params.push(...values);
      const p = values.map((_, i) => `$${at + i + 1}`);
      return `(${p.slice(0, 6).join(', ')}, 'queued', ${p.slice(6).join(', ')})`;
    });
    const inserted: { id: string }[] = await m.query(
      `INSERT INTO chain.jobs (id, account_id, kind, document_kind, network, chain_network, status, request, payload,
         request_hash, idempotency_key, signer, framework_identifier, position_id, investor_identifier,
         reporting_year, language_code, kv_key, acted_by_subject, acted_by_issuer)
       VALUES ${tuples.join(', ')}
       ON CONFLICT (account_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
       RETURNING id`,
      params,
    );
    const created = new Map<string, JobRow>();
    if (inserted.length === 0) return created;
    const ids = inserted.map((r) => r.id);
    await within(ids);
    for (const job of await m.getRepository(JobEntity).findBy({ id: In(ids) })) created.set(job.id, job);
    const kept = items.filter((i) => created.has(i.id));
    await enqueueOutboxMany(
      m,
      TOPIC_JOBS,
      kept.map(({ id, input, headers }) => {
        const message: JobMessage = { jobId: id, network: input.chainNetwork, signer: input.signer };
        return { key: `${input.chainNetwork}:${input.signer}`, payload: message, headers };
      }),
    );
    await enqueueOutboxMany(m, TOPIC_JOB_EVENTS, kept.map(({ id, headers }) => ({ key: id, payload: jobEvent(created.get(id)!, null), headers })));
    return created;
  }

  /**
   * The job an idempotency key already created for this request, before doing work the replay would
   * skip (fetching an image, checking a single-use code); undefined when the key is new.
   */
  async findReplay(caller: Caller, rawKey: string | undefined, fingerprint: unknown): Promise<{ job: JobRow; replayed: true } | undefined> {
    const key = idempotencyKey(rawKey);
    return key === undefined ? undefined : this.replay(caller, key, fingerprintHash(fingerprint));
  }

  private async replay(caller: Caller, key: string, requestHash: string): Promise<{ job: JobRow; replayed: true } | undefined> {
    const existing = await this.ds.getRepository(JobEntity).findOneBy({ accountId: caller.accountId, idempotencyKey: key });
    if (!existing) return undefined;
    if (existing.requestHash !== requestHash) {
      throw new FailedPreconditionError(`Idempotency-Key "${key}" was already used for a different request (job ${existing.id}).`);
    }
    return { job: existing, replayed: true };
  }

  /** A job of the caller's account by UUID or by the decimal entry id of a document; NOT_FOUND otherwise. */
  async get(caller: Caller, ref: string): Promise<JobRow> {
    const text = ref.trim();
    let job: JobRow | null = null;
    if (UUID.test(text)) {
      job = await this.ds.getRepository(JobEntity).findOneBy({ id: text.toLowerCase(), accountId: caller.accountId });
    } else if (/^\d{1,15}$/.test(text)) {
      const rows: { job_id: string }[] = await this.ds.query(
        `SELECT job_id FROM chain.documents WHERE id = $1 AND account_id = $2`,
        [Number(text), caller.accountId],
      );
      if (rows[0]) job = await this.ds.getRepository(JobEntity).findOneBy({ id: rows[0].job_id, accountId: caller.accountId });
    } else if (!text) {
      throw new InvalidArgumentError('job_id is required.', { field: 'job_id' });
    } else {
      throw new InvalidArgumentError(`job_id must be a job id (UUID) or an entry id (number), got "${truncate(ref)}".`, { field: 'job_id' });
    }
    if (!job) throw new NotFoundError(`No such job ${truncate(text)}.`);
    return job;
  }

  /** For the worker: any job by id. */
  async load(id: string, m: EntityManager = this.ds.manager): Promise<JobRow | null> {
    return m.getRepository(JobEntity).findOneBy({ id });
  }

  /**
   * Moves a job from one of `from` to the patch's status (or just patches it) and writes the status
   * event in the same transaction. A function patch runs inside that transaction (with its manager). Answers the job after the change, or undefined when it was not in
   * `from` (another worker got there first).
   */
  async transition(
    id: string,
    from: JobStatusName[],
    patch: Partial<JobRow> | ((m: EntityManager, before: JobRow) => Promise<Partial<JobRow>>),
  ): Promise<JobRow | undefined> {
    const changed = await this.ds.transaction((m) => this.transitionIn(m, id, from, patch));
    if (changed?.event) this.committed();
    return changed?.after;
  }

  /**
   * The same change inside a transaction the caller runs (several jobs in one transaction: the sender's
   * batch). The caller calls committed() after the commit when any answer has `event` set.
   */
  async transitionIn(
    m: EntityManager,
    id: string,
    from: JobStatusName[],
    patch: Partial<JobRow> | ((m: EntityManager, before: JobRow) => Promise<Partial<JobRow>>),
  ): Promise<{ after: JobRow; event: boolean } | undefined> {
    const [changed] = await this.transitionManyIn(m, from, new Map([[id, patch]]));
    return changed;
  }

  /**
   * Several jobs changed in the caller's transaction: one locking read for all, one UPDATE per job (plain
   * SQL: the ORM's update costs more CPU than the database does), their status events in one INSERT.
   * Jobs not in `from` are left out of the answer, which is in job order.
   */
  async transitionManyIn(
    m: EntityManager,
    from: JobStatusName[],
    patches: Map<string, Partial<JobRow> | ((m: EntityManager, before: JobRow) => Promise<Partial<JobRow>>)>,
  ): Promise<{ after: JobRow; event: boolean }[]> {
    if (patches.size === 0) return [];
    const repo = m.getRepository(JobEntity);
    const befores = await repo.find({
      where: { id: In([...patches.keys()]), status: In(from) },
      lock: { mode: 'pessimistic_write' },
      order: { seq: 'ASC' },
    });
    const changed: { after: JobRow; event: boolean }[] = [];
    const events: { key: string; payload: unknown }[] = [];
    // Patches run in job order (the sender's take consecutive nonces); the rows change in as few UPDATEs as
    // the patches have shapes (a batch's members share one), then hooks and events follow in job order.
    const updates: { before: JobRow; values: Partial<JobRow> }[] = [];
    for (const before of befores) {
      const patch = patches.get(before.id)!;
      updates.push({ before, values: { ...(typeof patch === 'function' ? await patch(m, before) : patch), updatedAt: new Date() } });
    }
    await updateJobRows(m, updates.map((u) => [u.before.id, u.values]));
    for (const { before, values } of updates) {
      const after = { ...before, ...values } as JobRow;
      const event = after.status !== before.status;
      if (event) {
        for (const hook of this.hooks) await hook(m, before, after);
        // A batch is the service's own job: its members' events tell their accounts what happened.
        if (!BATCH_KINDS.includes(after.kind)) events.push({ key: after.id, payload: jobEvent(after, before.status) });
      }
      changed.push({ after, event });
    }
    await enqueueOutboxMany(m, TOPIC_JOB_EVENTS, events);
    return changed;
  }

  /** Wakes the outbox relay after a transaction that wrote status events. */
  committed(): void {
    this.onOutbox();
  }
}

/** SQL types of chain.jobs columns for casts in a VALUES list (`char` alone would mean char(1)). */
const CAST: Record<string, string> = { char: 'bpchar' };

/**
 * UPDATEs of the given properties of job rows, named and typed from the entity's metadata: rows whose
 * patches set the same properties change in one statement (UPDATE … FROM (VALUES …)).
 */
async function updateJobRows(m: EntityManager, rows: [string, Partial<JobRow>][]): Promise<void> {
  const meta = m.connection.getMetadata(JobEntity);
  const shapes = new Map<string, [string, Partial<JobRow>][]>();
  for (const row of rows) {
    const shape = Object.keys(row[1]).sort().join(',');
    shapes.set(shape, [...(shapes.get(shape) ?? []), row]);
  }
  for (const [shape, group] of shapes) {
    const columns = shape.split(',').map((property) => {
      const column = meta.findColumnWithPropertyName(property);
      if (!column) throw new Error(`chain.jobs has no column for ${property}`);
      const type = String(column.type);
      return { property, name: column.databaseName, type: CAST[type] ?? type };
    });
    const params: unknown[] = [];
    const tuples = group.map(([id, values]) => {
      params.push(id);
      const cells = [`$${params.length}::uuid`];
      for (const c of columns) {
        const value = (values as Record<string, unknown>)[c.property];
        params.push(c.type === 'jsonb' && value !== null && value !== undefined ? JSON.stringify(value) : (value ?? null));
        cells.push(`$${params.length}::${c.type}`);
      }
      return `(${cells.join(', ')})`;
    });
    const sets = columns.map((c, i) => `"${c.name}" = v.c${i}`).join(', ');
    const names = columns.map((_, i) => `c${i}`).join(', ');
    await m.query(`UPDATE chain.jobs AS j SET ${sets} FROM (VALUES ${tuples.join(', ')}) AS v(id, ${names}) WHERE j.id = v.id`, params);
  }
}

function idempotencyKey(raw: string | undefined): string | undefined {
  const key = raw?.trim() || undefined;
  if (key !== undefined && key.length > MAX_IDEMPOTENCY_KEY) {
    throw new InvalidArgumentError(`Idempotency-Key must be at most ${MAX_IDEMPOTENCY_KEY} characters.`, { field: 'Idempotency-Key' });
  }
  // What HTTP headers carry safely: visible ASCII and spaces.
  if (key !== undefined && !/^[\x20-\x7e]+$/.test(key)) {
    throw new InvalidArgumentError('Idempotency-Key must be printable ASCII characters.', { field: 'Idempotency-Key' });
  }
  return key;
}

function fingerprintHash(fingerprint: unknown): string {
  return createHash('sha256').update(JSON.stringify(fingerprint)).digest('hex');
}

export function jobEvent(job: JobRow, previousStatus: JobStatusName | null): JobEvent {
  return {
    type: 'job.status',
    jobId: job.id,
    accountId: job.accountId,
    kind: job.kind,
    network: job.network,
    status: job.status,
    previousStatus,
    txHash: job.txHash,
    updatedAt: job.updatedAt.toISOString(),
  };
}

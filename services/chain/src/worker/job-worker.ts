import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { BusMessage, EventBus, Subscription } from '@green-impact/shared/bus/event-bus';
import type { Logger } from '@green-impact/shared/logger';
import { annotateActiveSpan } from '@green-impact/shared/tracing/tracer';
import { jobTraces } from './job-traces.js';
import type { NetworkRegistry } from '../networks/network-registry.js';
import type { ChainNetwork } from '../networks/chain-network.js';
import type { JobStore } from '../jobs/job-store.js';
import type { JobMessage } from '../jobs/job-types.js';
import { TOPIC_JOBS } from '../schema.js';
import { ConfirmationTracker } from './confirmation-tracker.js';
import type { JobPlanners } from './executors.js';
import { DEFAULT_SENDER_TUNING, JobSender, type SenderTuning } from './job-sender.js';
import { SendPump } from './send-pump.js';
import { SignerQueues } from './signer-queue.js';

export const WORKER_GROUP = 'chain-worker';

export interface JobWorkerOptions {
  /** Identifies this worker in job leases; random by default. */
  workerId?: string;
  groupId?: string;
  /** Batch size and leases of the sender (defaults: DEFAULT_SENDER_TUNING). */
  sender?: Partial<SenderTuning>;
}

/**
 * The chain worker: per network, a send pump that takes queued jobs from the jobs table in batches (only
 * while this worker holds the signer's lease, so replicas never interleave one nonce sequence) and a
 * confirmation tracker that follows what was sent. chain.jobs messages only wake the pump: the table is
 * the queue, so a lost, repeated or late message neither loses nor doubles a job, and jobs keep moving
 * while the broker is down.
 */
export class JobWorker {
  readonly workerId: string;
  readonly queues = new SignerQueues();
  private readonly sender: JobSender;
  private readonly trackers: ConfirmationTracker[];
  private readonly pumps = new Map<string, SendPump>();
  private subscription: Subscription | undefined;

  constructor(
    private readonly ds: DataSource,
    private readonly store: JobStore,
    private readonly networks: NetworkRegistry,
    private readonly bus: EventBus,
    private readonly log: Logger,
    private readonly opts: JobWorkerOptions = {},
    planners: JobPlanners = {},
  ) {
    this.workerId = opts.workerId ?? `worker-${randomUUID()}`;
    const tuning = { ...DEFAULT_SENDER_TUNING, ...opts.sender };
    const trackerOf = new Map<string, ConfirmationTracker>();
    this.sender = new JobSender(
      ds, store, this.workerId, log, planners, tuning, (n) => trackerOf.get(n.name)?.wake(), (n) => this.pumps.get(n.name)?.wake(),
    );
    this.trackers = networks.networks().map((n) => {
      const t = new ConfirmationTracker(ds, store, n, this.queues, this.workerId, log, planners, tuning.jobLeaseMs, (id) => this.sender.isInFlight(id));
      trackerOf.set(n.name, t);
      // A round that moved jobs wakes the tracker too: reads become SUBMITTED without a broadcast.
      const round = async (net: ChainNetwork) => {
        const moved = await this.sender.sendQueued(net);
        if (moved > 0) t.wake();
        return moved;
      };
      this.pumps.set(n.name, new SendPump(n, round, (net) => this.sender.hasQueued(net), tuning.signerLeaseMs, log));
      return t;
    });
  }

  async start(): Promise<void> {
    for (const t of this.trackers) t.start();
    for (const p of this.pumps.values()) p.start();
    this.subscription = await this.bus.subscribe({
      topic: TOPIC_JOBS,
      groupId: this.opts.groupId ?? WORKER_GROUP,
      fromBeginning: true,
      handler: (msg) => this.handle(msg),
    });
    this.log.info({ workerId: this.workerId }, 'chain worker started');
  }

  /**
   * Leaves the group, stops sending (the round in progress finishes and its batch is broadcast), stops
   * following receipts, then gives up its job and signer leases so the next worker (a restart, another
   * replica) takes over at once instead of after the leases expired.
   */
  async stop(): Promise<void> {
    await this.subscription?.close();
    this.subscription = undefined;
    await Promise.all([...this.pumps.values()].map((p) => p.stop()));
    await this.sender.idle();
    await this.queues.idle();
    await Promise.all(this.trackers.map((t) => t.stop()));
    await this.sender
      .releaseSigners()
      .catch((err: unknown) => this.log.warn({ err, workerId: this.workerId }, 'could not release signer leases; they expire on their own'));
    await this.ds
      .query(`UPDATE chain.jobs SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = $1 AND status = 'submitted'`, [this.workerId])
      .catch((err: unknown) => this.log.warn({ err, workerId: this.workerId }, 'could not release job leases; they expire on their own'));
  }

  /** Runs one send round on every network now (tests use it instead of waiting for a message or a poll). */
  async sendQueued(): Promise<void> {
    for (const n of this.networks.networks()) while ((await this.sender.sendQueued(n)) > 0);
    await this.sender.idle();
  }

  /** Runs one tracker pass on every network now (tests use it to avoid waiting for the poll interval). */
  async checkReceipts(): Promise<void> {
    await Promise.all(this.trackers.map((t) => t.tick()));
  }

  private async handle(msg: BusMessage): Promise<void> {
    let message: JobMessage;
    try {
      message = JSON.parse(msg.value.toString('utf8')) as JobMessage;
    } catch {
      this.log.error({ offset: msg.offset, partition: msg.partition }, 'unreadable chain.jobs message skipped');
      return;
    }
    annotateActiveSpan({ 'app.job_id': message.jobId });
    // The pump broadcasts the job later, outside this handler: it continues this trace.
    jobTraces.remember(message.jobId);
    const job = await this.store.load(message.jobId);
    if (!job) {
      this.log.error({ jobId: message.jobId }, 'chain.jobs names an unknown job; skipped');
      return;
    }
    if (job.status !== 'queued') return;
    const network = this.networks.byCanonicalName(job.chainNetwork);
    if (!network) {
      await this.store.transition(job.id, ['queued'], {
        status: 'failed',
        error: `Network ${job.chainNetwork} is not configured in this service any more.`,
        completedAt: new Date(),
      });
      return;
    }
    this.pumps.get(network.name)?.wake();
  }
}

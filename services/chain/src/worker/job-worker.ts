import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { BusMessage, EventBus, Subscription } from '@green-impact/shared/bus/event-bus';
import type { Logger } from '@green-impact/shared/logger';
import { annotateActiveSpan } from '@green-impact/shared/tracing/tracer';
import type { NetworkRegistry } from '../networks/network-registry.js';
import type { JobStore } from '../jobs/job-store.js';
import type { JobMessage } from '../jobs/job-types.js';
import { TOPIC_JOBS } from '../schema.js';
import { ConfirmationTracker } from './confirmation-tracker.js';
import type { JobPlanners } from './executors.js';
import { JobSender } from './job-sender.js';
import { SignerQueues } from './signer-queue.js';

export const WORKER_GROUP = 'chain-worker';

export interface JobWorkerOptions {
  /** Identifies this worker in job leases; random by default. */
  workerId?: string;
  groupId?: string;
}

/**
 * The chain worker: a member of the chain.jobs consumer group (one member owns a network:signer key, so
 * one process hands out that signer's nonces), sending each job through its signer's serialized queue,
 * and one confirmation tracker per network following what was sent. Handling a message is idempotent: a
 * job that is no longer QUEUED is left alone, so redelivery after a crash or rebalance sends nothing twice.
 */
export class JobWorker {
  readonly workerId: string;
  readonly queues = new SignerQueues();
  private readonly sender: JobSender;
  private readonly trackers: ConfirmationTracker[];
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
    this.sender = new JobSender(store, this.workerId, log, planners);
    this.trackers = networks.networks().map((n) => new ConfirmationTracker(ds, store, n, this.queues, this.workerId, log, planners));
  }

  async start(): Promise<void> {
    for (const t of this.trackers) t.start();
    this.subscription = await this.bus.subscribe({
      topic: TOPIC_JOBS,
      groupId: this.opts.groupId ?? WORKER_GROUP,
      fromBeginning: true,
      handler: (msg) => this.handle(msg),
    });
    this.log.info({ workerId: this.workerId }, 'chain worker started');
  }

  /**
   * Leaves the group (the message in flight finishes and its offset is committed), lets the signer queues
   * drain, stops following receipts, then gives up its leases so the next worker (a restart, another
   * replica) follows the submitted jobs at once instead of after the lease expired.
   */
  async stop(): Promise<void> {
    await this.subscription?.close();
    this.subscription = undefined;
    await this.queues.idle();
    await Promise.all(this.trackers.map((t) => t.stop()));
    await this.ds
      .query(`UPDATE chain.jobs SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = $1 AND status = 'submitted'`, [this.workerId])
      .catch((err: unknown) => this.log.warn({ err, workerId: this.workerId }, 'could not release job leases; they expire on their own'));
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
    await this.queues.run(`${network.name}:${network.signerAddress}`, async () => {
      const current = await this.store.load(job.id);
      if (current?.status === 'queued') await this.sender.send(current, network);
    });
  }
}

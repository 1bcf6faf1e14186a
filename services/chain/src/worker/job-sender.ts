import type { DataSource, EntityManager } from 'typeorm';
import type { Logger } from '@green-impact/shared/logger';
import type { ChainNetwork } from '../networks/chain-network.js';
import { JobEntity, type JobRow } from '../jobs/entities.js';
import type { JobStore } from '../jobs/job-store.js';
import { describeRevertData, isRevert, revertData } from '../contracts/revert-reason.js';
import { JobPlanError, planJob, type JobPlanners, type WritePlan } from './executors.js';
import { Broadcaster, type Signed } from './broadcaster.js';
import { jobTraces } from './job-traces.js';
import { currentFees, fillNonce, signTransaction } from './transactions.js';
import { DEFAULT_BATCH_TUNING, JobBatcher, type BatchTuning } from './job-batches.js';

/** Gas limit = estimate + this margin (%), for state that changes between estimate and inclusion. */
const GAS_MARGIN_PERCENT = 25n;
/** How long a worker keeps the jobs it sent before another replica may track them. */
export const LEASE_MS = 30_000;

export interface SenderTuning extends BatchTuning {
  /** Most jobs taken from the queue at once (one transaction assigns their nonces). */
  batchSize: number;
  /** How long a worker holds a signer (its nonce sequence) without renewing it. */
  signerLeaseMs: number;
  /** How long a worker holds the jobs it sent before another replica's tracker may take them. */
  jobLeaseMs: number;
}

export const DEFAULT_SENDER_TUNING: SenderTuning = { batchSize: 64, signerLeaseMs: 15_000, jobLeaseMs: LEASE_MS, ...DEFAULT_BATCH_TUNING };

/** A job ready to sign: its call and gas limit. */
interface Ready {
  job: JobRow;
  plan: WritePlan;
  gasLimit: bigint;
}

class LeaseLost extends Error {}

/**
 * Sends queued jobs, many at a time. The jobs table is the queue: a worker that holds the signer's lease
 * (one worker per nonce sequence, across replicas) takes the oldest queued jobs of the network, plans them,
 * estimates their gas concurrently (a revert fails the job with the reason and consumes no nonce), then in
 * ONE database transaction assigns consecutive nonces, signs and marks every job SUBMITTED with its raw
 * transaction — so a crash after the commit never loses a transaction (the tracker broadcasts the stored
 * raw transaction again) and a job is never signed under two nonces. The signed batch is handed to the
 * signer's broadcaster, which sends it while the next batch is prepared.
 */
export class JobSender {
  private readonly broadcasters = new Map<string, Broadcaster>();
  private readonly batcher: JobBatcher;
  /** Per network: a wake-up pending for when the document batch window closes. */
  private readonly windowTimers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly ds: DataSource,
    private readonly store: JobStore,
    private readonly workerId: string,
    private readonly log: Logger,
    private readonly planners: JobPlanners = {},
    private readonly tuning: SenderTuning = DEFAULT_SENDER_TUNING,
    /** Called after a network's batch was broadcast. */
    private readonly onBroadcast: (network: ChainNetwork) => void = () => {},
    /** Asks for another round soon (the document batch window closed). */
    private readonly wakeMe: (network: ChainNetwork) => void = () => {},
  ) {
    this.batcher = new JobBatcher(ds, store, tuning);
  }

  /** Jobs of this process signed and waiting to be broadcast (the tracker leaves them alone). */
  isInFlight(jobId: string): boolean {
    for (const b of this.broadcasters.values()) if (b.has(jobId)) return true;
    return false;
  }

  /** Resolves once every handed-over batch was broadcast (or dropped). */
  async idle(): Promise<void> {
    await Promise.all([...this.broadcasters.values()].map((b) => b.idle()));
  }

  /** Gives up this worker's signer leases (a graceful stop: another replica takes over at once). */
  async releaseSigners(): Promise<void> {
    await this.ds.query(`UPDATE chain.signer_nonces SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = $1`, [this.workerId]);
  }

  /**
   * One round for a network: answers how many jobs left the queue (0 when there was nothing to do, or
   * another worker holds the signer). Callers loop while it answers more than 0.
   */
  async sendQueued(network: ChainNetwork): Promise<number> {
    const broadcaster = this.broadcaster(network);
    await broadcaster.belowBacklog();
    if (!(await this.holdSigner(network))) return 0;
    const formed = await this.batcher.form(network);
    if (formed.waitMs > 0) this.wakeAfter(network, formed.waitMs);
    // Documents and key-value inserts go in batches where the network's contracts take them (the batcher above).
    const ids: { id: string }[] = await this.ds.query(
      `SELECT id FROM chain.jobs WHERE status = 'queued' AND chain_network = $1 AND NOT (kind = ANY($3)) ORDER BY seq LIMIT $2`,
      [network.name, this.tuning.batchSize, await this.batcher.batchedKinds(network)],
    );
    if (ids.length === 0) return formed.batched;
    const jobs = (await this.ds.getRepository(JobEntity).findBy(ids.map((r) => ({ id: r.id })))).sort((a, b) => a.seq - b.seq);

    let moved = formed.batched;
    const writes: { job: JobRow; plan: WritePlan }[] = [];
    for (const job of jobs) {
      let plan;
      try {
        plan = planJob(job, network, this.planners);
      } catch (err) {
        if (!(err instanceof JobPlanError)) throw err;
        await this.fail(job.id, err.message);
        moved++;
        continue;
      }
      if (plan.type === 'read') {
        // Reads run in the tracker, once earlier writes of the same key are through.
        await this.store.transition(job.id, ['queued'], { status: 'submitted', submittedAt: new Date(), ...this.lease() });
        moved++;
      } else {
        writes.push({ job, plan });
      }
    }
    if (writes.length === 0) return moved;
    const t0 = performance.now();
    const ready = await this.estimate(network, writes);
    if (ready.failed) moved++;
    if (ready.jobs.length === 0) return moved;
    const t1 = performance.now();
    const signed = await this.assign(network, ready.jobs);
    broadcaster.enqueue(signed);
    this.log.debug(
      { network: network.name, jobs: signed.length, estimateMs: Math.round(t1 - t0), assignMs: Math.round(performance.now() - t1) },
      'batch signed',
    );
    return moved + signed.length;
  }

  /** Whether the network has queued jobs (held back by another worker's signer lease, say): the pump keeps polling then. */
  async hasQueued(network: ChainNetwork): Promise<boolean> {
    const [row] = (await this.ds.query(`SELECT EXISTS (SELECT 1 FROM chain.jobs WHERE status = 'queued' AND chain_network = $1) AS queued`, [network.name])) as [{ queued: boolean }];
    return row.queued;
  }

  private wakeAfter(network: ChainNetwork, ms: number): void {
    if (this.windowTimers.has(network.name)) return;
    const timer = setTimeout(() => {
      this.windowTimers.delete(network.name);
      this.wakeMe(network);
    }, ms);
    timer.unref();
    this.windowTimers.set(network.name, timer);
  }

  /**
   * Gas for every write, asked concurrently. The batch ends before the first job whose call would revert:
   * with nothing of the signer's still in flight, the revert is the job's own and fails it; otherwise it
   * may depend on an earlier job not yet mined, and it waits in the queue for the next round.
   */
  private async estimate(network: ChainNetwork, writes: { job: JobRow; plan: WritePlan }[]): Promise<{ jobs: Ready[]; failed: boolean }> {
    const answers = await Promise.all(
      writes.map(({ plan }) =>
        network.provider.estimateGas({ from: network.signerAddress, to: plan.to, data: plan.data }).then(
          (gas) => ({ gas }),
          (err: unknown) => ({ err }),
        ),
      ),
    );
    const jobs: Ready[] = [];
    for (let i = 0; i < writes.length; i++) {
      const answer = answers[i]!;
      const { job, plan } = writes[i]!;
      if ('gas' in answer) {
        jobs.push({ job, plan, gasLimit: (answer.gas * (100n + GAS_MARGIN_PERCENT)) / 100n });
        continue;
      }
      if (!isRevert(answer.err)) throw answer.err;
      if (i > 0 || (await this.signerBusy(network))) return { jobs, failed: false };
      await this.fail(job.id, `The transaction would revert: ${describeRevertData(revertData(answer.err))}. Nothing was sent.`);
      return { jobs, failed: true };
    }
    return { jobs, failed: false };
  }

  /** Whether a transaction of the signer is sent and not yet final. */
  private async signerBusy(network: ChainNetwork): Promise<boolean> {
    const rows: unknown[] = await this.ds.query(
      `SELECT 1 FROM chain.jobs WHERE status = 'submitted' AND chain_network = $1 AND signer = $2 AND nonce IS NOT NULL LIMIT 1`,
      [network.name, network.signerAddress],
    );
    return rows.length > 0;
  }

  /** Nonces, signatures and SUBMITTED for the whole batch, in one transaction under the signer's row lock. */
  private async assign(network: ChainNetwork, ready: Ready[]): Promise<Signed[]> {
    const fees = await currentFees(network);
    const chainNonce = await network.provider.getTransactionCount(network.signerAddress, 'pending');
    const signed: Signed[] = [];
    let events = false;
    try {
      await this.ds.transaction(async (m) => {
        signed.length = 0;
        events = false;
        let nonce = await this.lockNonce(m, network, chainNonce);
        // Patches run in job order, only for jobs still queued: each takes the next nonce.
        const patches = new Map(
          ready.map(({ job, plan, gasLimit }) => [
            job.id,
            async (): Promise<Partial<JobRow>> => {
              const sent = await signTransaction(network, { to: plan.to, data: plan.data, nonce: nonce++, gasLimit, fees });
              signed.push({ jobId: job.id, sent });
              const now = new Date();
              return {
                status: 'submitted',
                signer: network.signerAddress,
                chainInstance: network.instanceId,
                nonce: sent.nonce,
                txHash: sent.hash,
                transactions: [sent],
                attempts: 1,
                submittedAt: now,
                lastSentAt: now,
                ...this.lease(),
              };
            },
          ]),
        );
        events = (await this.store.transitionManyIn(m, ['queued'], patches)).some((c) => c.event);
        await m.query(`UPDATE chain.signer_nonces SET next_nonce = $3, updated_at = now() WHERE chain_instance = $1 AND signer = $2`, [
          network.instanceId,
          network.signerAddress,
          nonce,
        ]);
      });
    } catch (err) {
      if (err instanceof LeaseLost) return [];
      throw err;
    }
    if (events) this.store.committed();
    return signed;
  }

  /** Locks the signer's row (this worker must still hold its lease); the next nonce: the larger of ours and the chain's. */
  private async lockNonce(m: EntityManager, network: ChainNetwork, chainNonce: number): Promise<number> {
    const [row] = (await m.query(
      `SELECT next_nonce, lease_owner, lease_until > now() AS held FROM chain.signer_nonces
        WHERE chain_instance = $1 AND signer = $2 FOR UPDATE`,
      [network.instanceId, network.signerAddress],
    )) as [{ next_nonce: string; lease_owner: string | null; held: boolean } | undefined];
    if (!row || row.lease_owner !== this.workerId || !row.held) throw new LeaseLost();
    return Math.max(Number(row.next_nonce), chainNonce);
  }

  /** Takes or renews the signer's lease; false while another live worker holds it. */
  private async holdSigner(network: ChainNetwork): Promise<boolean> {
    const params = [network.instanceId, network.signerAddress];
    await this.ds.query(`INSERT INTO chain.signer_nonces (chain_instance, signer, next_nonce) VALUES ($1, $2, 0) ON CONFLICT DO NOTHING`, params);
    const rows: { signer: string }[] = await this.ds.query(
      `WITH held AS (
         UPDATE chain.signer_nonces SET lease_owner = $3, lease_until = now() + ($4 || ' milliseconds')::interval
          WHERE chain_instance = $1 AND signer = $2 AND (lease_owner = $3 OR lease_owner IS NULL OR lease_until < now())
          RETURNING signer)
       SELECT signer FROM held`,
      [...params, this.workerId, String(this.tuning.signerLeaseMs)],
    );
    return rows.length > 0;
  }

  private broadcaster(network: ChainNetwork): Broadcaster {
    const key = `${network.instanceId}:${network.signerAddress}`;
    let b = this.broadcasters.get(key);
    if (!b) {
      b = new Broadcaster(network, this.log, (refused, reason) => this.refused(network, refused, reason), (s) => this.nonceTaken(network, s), () => this.onBroadcast(network), jobTraces);
      this.broadcasters.set(key, b);
    }
    return b;
  }

  /**
   * The node refused a transaction for good (the signer cannot pay, say): its job fails, and its nonce is
   * filled with a transfer of nothing to the signer itself, so the later jobs' transactions, already in
   * the node's pool, are mined as they were signed (a new nonce for them could have mined them twice).
   * A filler the node refuses too leaves the gap to the tracker, which fills it once it can.
   */
  private async refused(network: ChainNetwork, s: Signed, reason: string): Promise<void> {
    await this.store.transition(s.jobId, ['submitted'], {
      status: 'failed',
      error: `The network refused the transaction: ${reason}`,
      nonce: null,
      completedAt: new Date(),
      leaseOwner: null,
      leaseUntil: null,
    });
    const outcome = await fillNonce(network, s.sent.nonce);
    let handedBack = false;
    if (outcome.kind !== 'sent') {
      // Nothing took the nonce: when it is the last one handed out, the sequence simply resumes there.
      const rows: unknown[] = await this.ds.query(
        `WITH back AS (
           UPDATE chain.signer_nonces SET next_nonce = $3, updated_at = now()
            WHERE chain_instance = $1 AND signer = $2 AND next_nonce = $3 + 1 RETURNING signer)
         SELECT signer FROM back`,
        [network.instanceId, network.signerAddress, s.sent.nonce],
      );
      handedBack = rows.length > 0;
    }
    this.log.warn(
      { jobId: s.jobId, network: network.name, nonce: s.sent.nonce, reason, filler: outcome.kind, handedBack },
      'network refused a transaction; its job failed',
    );
  }

  /** The nonce was used outside the service: the job goes back to the queue for another nonce. */
  private async nonceTaken(network: ChainNetwork, s: Signed): Promise<void> {
    if (await network.provider.getTransactionReceipt(s.sent.hash)) return; // ours, mined already
    this.log.warn({ jobId: s.jobId, network: network.name, nonce: s.sent.nonce }, 'nonce already used outside the service; the job is queued again');
    await this.store.transition(s.jobId, ['submitted'], REQUEUED);
  }

  private lease(): { leaseOwner: string; leaseUntil: Date } {
    return { leaseOwner: this.workerId, leaseUntil: new Date(Date.now() + this.tuning.jobLeaseMs) };
  }

  private async fail(id: string, error: string): Promise<void> {
    await this.store.transition(id, ['queued'], { status: 'failed', error, completedAt: new Date(), leaseOwner: null, leaseUntil: null });
  }
}

/** A submitted job back in the queue, nothing of its transaction kept. */
const REQUEUED: Partial<JobRow> = {
  status: 'queued',
  nonce: null,
  chainInstance: null,
  txHash: null,
  transactions: [],
  attempts: 0,
  submittedAt: null,
  lastSentAt: null,
  leaseOwner: null,
  leaseUntil: null,
};

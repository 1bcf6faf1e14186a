import type { TransactionReceipt } from 'ethers';
import type { DataSource } from 'typeorm';
import type { Logger } from '@green-impact/shared/logger';
import { describeRevertData, isRevert, revertData } from '../contracts/revert-reason.js';
import type { ChainNetwork } from '../networks/chain-network.js';
import { JobEntity, type JobRow } from '../jobs/entities.js';
import type { JobStore } from '../jobs/job-store.js';
import type { SentTransaction } from '../jobs/job-types.js';
import { JobPlanError, planJob, type JobPlanners } from './executors.js';
import { LEASE_MS } from './job-sender.js';
import type { SignerQueues } from './signer-queue.js';
import { WakeableLoop } from './wakeable-loop.js';
import { broadcast, bumpedFees, currentFees, fillNonce, networkCost, receiptView, signTransaction } from './transactions.js';

/**
 * Follows SUBMITTED jobs of one network until they are final: polls receipts (all jobs at once, not one
 * after the other), waits for the network's confirmations, completes or fails the job with a reason,
 * resubmits a transaction stuck without a receipt with higher fees (same nonce, through the signer's
 * queue), and broadcasts again a transaction the node does not know (a crash right after signing, or a
 * dropped transaction). Jobs are leased in the database, so a job whose worker died is taken over by
 * another replica once its lease expires. Reads (selects) run here too, after earlier writes of the same
 * key have finished.
 */
export class ConfirmationTracker {
  private readonly loop: WakeableLoop;

  constructor(
    private readonly ds: DataSource,
    private readonly store: JobStore,
    private readonly network: ChainNetwork,
    private readonly queues: SignerQueues,
    private readonly workerId: string,
    private readonly log: Logger,
    private readonly planners: JobPlanners = {},
    /** How long a claimed job stays this worker's without a renewal. */
    private readonly leaseMs: number = LEASE_MS,
    /** Jobs this process signed and has not broadcast yet: not this tracker's to send. */
    private readonly inFlight: (jobId: string) => boolean = () => false,
  ) {
    const poll = network.tuning.pollIntervalMs;
    // With nothing submitted on the network (by any worker) the tracker waits for a wake (the sender's
    // broadcast or read), polling only every job lease; another worker's jobs keep it polling (tick).
    this.loop = new WakeableLoop(() => this.tick(), { pollIntervalMs: poll, idlePollMs: Math.max(poll, leaseMs), firstBackoffMs: poll, maxBackoffMs: poll }, (err) =>
      this.log.warn({ err, network: this.network.name }, 'receipt check failed; retrying'),
    );
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** Checks again now (after the sender broadcast), instead of at the next poll. */
  wake(): void {
    this.loop.wake();
  }

  /** One pass over the network's SUBMITTED jobs this worker holds (or may take over); false when there were none. */
  async tick(): Promise<boolean> {
    const t0 = performance.now();
    const claimed = await this.claim();
    const jobs = claimed.filter((j) => !this.inFlight(j.id));
    if (jobs.length === 0) return claimed.length > 0 || (await this.othersSubmitted());
    const latest = await this.network.provider.getBlockNumber();
    // One count per signer tells which nonces are mined: only those jobs can have a receipt.
    const signers = [...new Set(jobs.filter((j) => j.signer && j.nonce !== null).map((j) => j.signer!))];
    const mined = new Map(
      await Promise.all(signers.map(async (s) => [s, await this.network.provider.getTransactionCount(s, 'latest')] as const)),
    );
    const completed = new Map<string, Partial<JobRow>>();
    await Promise.all(
      jobs.map((job) =>
        this.check(job, latest, mined.get(job.signer ?? '') ?? 0, completed).catch((err: unknown) =>
          this.log.warn({ err, jobId: job.id, network: this.network.name }, 'job check failed; will retry'),
        ),
      ),
    );
    const t1 = performance.now();
    if (completed.size > 0) {
      const changed = await this.ds.transaction((m) => this.store.transitionManyIn(m, ['submitted'], completed));
      if (changed.some((c) => c.event)) this.store.committed();
    }
    for (const signer of signers) await this.repair(signer, mined.get(signer)!, jobs);
    this.log.debug(
      { network: this.network.name, jobs: jobs.length, completed: completed.size, checkMs: Math.round(t1 - t0), ms: Math.round(performance.now() - t0) },
      'receipts checked',
    );
    return true;
  }

  /**
   * Whether the network has submitted jobs this worker could not claim (another worker's, leased): they
   * are its to take over once that lease expires, so the tracker keeps polling rather than idling.
   */
  private async othersSubmitted(): Promise<boolean> {
    const [row] = (await this.ds.query(
      `SELECT EXISTS (SELECT 1 FROM chain.jobs WHERE status = 'submitted' AND chain_network = $1 AND batch_job_id IS NULL) AS others`,
      [this.network.name],
    )) as [{ others: boolean }];
    return row.others;
  }

  private async claim(): Promise<JobRow[]> {
    // A CTE, so the statement is a SELECT: TypeORM answers UPDATE … RETURNING as [rows, count].
    const rows: { id: string }[] = await this.ds.query(
      `WITH claimed AS (
         UPDATE chain.jobs SET lease_owner = $1, lease_until = now() + ($3 || ' milliseconds')::interval
          WHERE id IN (
            SELECT id FROM chain.jobs
             WHERE status = 'submitted' AND chain_network = $2 AND batch_job_id IS NULL
               AND (lease_owner = $1 OR lease_until IS NULL OR lease_until < now())
             ORDER BY seq LIMIT 500 FOR UPDATE SKIP LOCKED)
          RETURNING id)
       SELECT id FROM claimed`,
      [this.workerId, this.network.name, String(this.leaseMs)],
    );
    if (rows.length === 0) return [];
    const jobs = await this.ds.getRepository(JobEntity).findBy(rows.map((r) => ({ id: r.id })));
    return jobs.sort((a, b) => a.seq - b.seq);
  }

  private async check(job: JobRow, latest: number, minedCount: number, completed: Map<string, Partial<JobRow>>): Promise<void> {
    if (job.transactions.length === 0) return this.read(job);
    if (job.chainInstance !== this.network.instanceId) {
      return this.fail(job, `The transaction was sent on ${job.chainInstance}, but network ${this.network.name} is now ${this.network.instanceId}; submit the job again.`);
    }
    if (minedCount > job.nonce!) {
      // The nonce is used: by one of this job's transactions, or by another transaction.
      const receipt = await this.findReceipt(job);
      if (!receipt) {
        return this.fail(job, `Nonce ${job.nonce} of ${job.signer} was used by another transaction; none of this job's transactions was mined.`);
      }
      if (latest - receipt.blockNumber + 1 < this.network.tuning.confirmations) return;
      return this.finish(job, receipt, completed);
    }
    const last = job.transactions[job.transactions.length - 1]!;
    const waited = Date.now() - (job.lastSentAt?.getTime() ?? 0);
    const bumps = job.transactions.length - 1;
    if (waited >= this.network.tuning.stuckAfterMs && bumps < this.network.tuning.maxGasBumps) {
      return this.queues.run(`${this.network.name}:${job.signer}`, () => this.resubmit(job.id, last));
    }
  }

  /** How long a sent transaction may be unknown to the node (in its pool or mined) before it is sent again. */
  private resendAfterMs(): number {
    return Math.max(1_000, 4 * this.network.tuning.pollIntervalMs);
  }

  /**
   * The signer's next nonce (the chain's count) decides what is wrong when its waiting jobs do not move.
   * No job holds it (its job was refused and the filler did not go through): it is filled with a
   * transfer of nothing to the signer itself, or the jobs above would wait for ever. The job holding it
   * has a transaction the node does not know (a crash between commit and broadcast, a node that lost its
   * pool): that job's and the following jobs' stored raw transactions are sent again, in nonce order.
   */
  private async repair(signer: string, minedCount: number, jobs: JobRow[]): Promise<void> {
    if (signer !== this.network.signerAddress) return;
    const waiting = jobs
      .filter((j) => j.signer === signer && j.nonce !== null && j.nonce >= minedCount && j.transactions.length > 0 && !this.inFlight(j.id))
      .sort((a, b) => a.nonce! - b.nonce!);
    const lowest = waiting[0];
    if (!lowest || Date.now() - (lowest.lastSentAt?.getTime() ?? 0) < this.resendAfterMs()) return;
    await this.queues.run(`${this.network.name}:${signer}`, async () => {
      if (lowest.nonce! > minedCount) {
        const held: unknown[] = await this.ds.query(
          `SELECT 1 FROM chain.jobs WHERE chain_instance = $1 AND signer = $2 AND nonce = $3 AND status = 'submitted' LIMIT 1`,
          [this.network.instanceId, signer, minedCount],
        );
        if (held.length > 0) return; // another worker's job: its tracker sends it
        const outcome = await fillNonce(this.network, minedCount);
        this.log.warn({ network: this.network.name, nonce: minedCount, outcome: outcome.kind }, 'nonce gap below waiting jobs filled');
        return;
      }
      const head = lowest.transactions[lowest.transactions.length - 1]!;
      if (await this.network.provider.getTransaction(head.hash)) return; // in the node's pool: it will be mined
      const run: JobRow[] = [];
      for (const job of waiting) {
        if (job.nonce !== minedCount + run.length) break;
        run.push(job);
      }
      const outcomes = await Promise.all(run.map((job) => broadcast(this.network, job.transactions[job.transactions.length - 1]!.raw)));
      this.log.info(
        { network: this.network.name, fromNonce: minedCount, jobs: run.length, outcomes: countBy(outcomes.map((o) => o.kind)) },
        'transactions unknown to the node; broadcast again',
      );
      for (const [i, outcome] of outcomes.entries()) {
        if (outcome.kind !== 'rejected') continue;
        // Refused for good now (the signer cannot pay any more): the job fails, its nonce is filled.
        await this.fail(run[i]!, `The network refused the transaction: ${outcome.message}`);
        await fillNonce(this.network, run[i]!.nonce!);
      }
    });
  }

  private async findReceipt(job: JobRow): Promise<TransactionReceipt | null> {
    for (const tx of [...job.transactions].reverse()) {
      const receipt = await this.network.provider.getTransactionReceipt(tx.hash);
      if (receipt) return receipt;
    }
    return null;
  }

  /** Same nonce, higher fees: whichever of the job's transactions is mined first completes it. */
  private async resubmit(jobId: string, stuck: SentTransaction): Promise<void> {
    const fees = bumpedFees(stuck, await currentFees(this.network), this.network.tuning.gasBumpPercent);
    let replacement: SentTransaction | undefined;
    const updated = await this.store.transition(jobId, ['submitted'], async (_m, job) => {
      if (job.txHash !== stuck.hash) return {}; // changed meanwhile
      const plan = planJob(job, this.network, this.planners);
      if (plan.type !== 'write') return {};
      replacement = await signTransaction(this.network, { to: plan.to, data: plan.data, nonce: job.nonce!, gasLimit: BigInt(stuck.gasLimit), fees });
      return {
        txHash: replacement.hash,
        transactions: [...job.transactions, replacement],
        attempts: job.attempts + 1,
        lastSentAt: new Date(),
      };
    });
    if (!updated || !replacement) return;
    const outcome = await broadcast(this.network, replacement.raw);
    this.log.info(
      { jobId, nonce: replacement.nonce, replaced: stuck.hash, hash: replacement.hash, attempt: updated.attempts, outcome: outcome.kind },
      'stuck transaction resubmitted with a gas bump',
    );
  }

  private async finish(job: JobRow, receipt: TransactionReceipt, completed: Map<string, Partial<JobRow>>): Promise<void> {
    const cost = networkCost(receipt);
    const fee = this.network.tuning.networkFee;
    const common = {
      txHash: receipt.hash,
      blockNumber: receipt.blockNumber,
      receipt: receiptView(receipt) as unknown as Record<string, unknown>,
      gasUsed: Number(receipt.gasUsed),
      gasPrice: receipt.gasPrice.toString(),
      networkCost: cost,
      networkFee: fee,
      networkTotal: cost + fee,
      completedAt: new Date(),
      leaseOwner: null,
      leaseUntil: null,
    };
    if (receipt.status === 1) {
      const plan = planJob(job, this.network, this.planners);
      if (plan.type !== 'write') throw new Error(`job ${job.id} has a receipt but is not a write`);
      const done = await plan.complete(receipt);
      // Written with the tick's other completions, in one transaction.
      completed.set(job.id, { ...common, status: 'completed', outcome: done.outcome as Record<string, unknown>, result: done.result });
      return;
    }
    const reason = await this.revertReason(job, receipt);
    await this.store.transition(job.id, ['submitted'], {
      ...common,
      status: 'failed',
      error: `The transaction reverted in block ${receipt.blockNumber}: ${reason}.`,
    });
  }

  /** Replays the call on the state before its block to learn why it reverted. */
  private async revertReason(job: JobRow, receipt: TransactionReceipt): Promise<string> {
    const tx = job.transactions.find((t) => t.hash === receipt.hash);
    const sent = tx ? await this.network.provider.getTransaction(tx.hash) : null;
    if (!sent) return 'no reason given';
    try {
      await this.network.provider.call({ from: sent.from, to: sent.to, data: sent.data, blockTag: receipt.blockNumber - 1 });
      return Number(receipt.gasUsed) >= Number(sent.gasLimit) ? 'out of gas' : 'no reason given';
    } catch (err) {
      return isRevert(err) ? describeRevertData(revertData(err)) : 'no reason given';
    }
  }

  private async read(job: JobRow): Promise<void> {
    // A select waits for earlier writes of the same key by the same account, so it reads what they wrote.
    const [pending] = (await this.ds.query(
      `SELECT count(*)::int AS n FROM chain.jobs
        WHERE account_id = $1 AND chain_network = $2 AND kv_key = $3 AND seq < $4
          AND kind IN ('kv_insert_string', 'kv_insert_bytes32') AND status IN ('queued', 'submitted')`,
      [job.accountId, job.chainNetwork, job.kvKey, job.seq],
    )) as [{ n: number }];
    if (pending.n > 0) return;
    let plan;
    try {
      plan = planJob(job, this.network, this.planners);
    } catch (err) {
      if (err instanceof JobPlanError) return this.fail(job, err.message);
      throw err;
    }
    if (plan.type !== 'read') return;
    let done;
    try {
      done = await plan.read();
    } catch (err) {
      if (isRevert(err)) return this.fail(job, `The read reverted: ${describeRevertData(revertData(err))}.`);
      throw err;
    }
    await this.store.transition(job.id, ['submitted'], {
      status: 'completed',
      outcome: done.outcome as Record<string, unknown>,
      result: done.result,
      ...(done.blockNumber !== undefined ? { blockNumber: done.blockNumber } : {}),
      networkCost: 0,
      networkFee: 0,
      networkTotal: 0,
      completedAt: new Date(),
      leaseOwner: null,
      leaseUntil: null,
    });
  }

  private async fail(job: JobRow, error: string): Promise<void> {
    await this.store.transition(job.id, ['submitted'], { status: 'failed', error, completedAt: new Date(), leaseOwner: null, leaseUntil: null });
  }
}

function countBy(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}

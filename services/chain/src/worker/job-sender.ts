import type { EntityManager } from 'typeorm';
import type { Logger } from '@green-impact/shared/logger';
import type { ChainNetwork } from '../networks/chain-network.js';
import type { JobRow } from '../jobs/entities.js';
import type { JobStore } from '../jobs/job-store.js';
import type { SentTransaction } from '../jobs/job-types.js';
import { describeRevertData, isRevert, revertData } from '../contracts/revert-reason.js';
import { JobPlanError, planJob, type JobPlanners, type WritePlan } from './executors.js';
import { broadcast, currentFees, signTransaction } from './transactions.js';

/** Gas limit = estimate + this margin (%), for state that changes between estimate and inclusion. */
const GAS_MARGIN_PERCENT = 25n;
/** How long a worker keeps the jobs it sent before another replica may track them. */
export const LEASE_MS = 30_000;

/**
 * Sends a queued job: plans the call, estimates gas (a revert here fails the job with the reason and
 * consumes no nonce), assigns the nonce and signs inside one database transaction that also marks the
 * job SUBMITTED (so a crash after it never loses the transaction: the tracker broadcasts the stored raw
 * transaction again), then broadcasts. Must run in the signer's queue.
 */
export class JobSender {
  constructor(
    private readonly store: JobStore,
    private readonly workerId: string,
    private readonly log: Logger,
    private readonly planners: JobPlanners = {},
  ) {}

  async send(job: JobRow, network: ChainNetwork): Promise<void> {
    let plan;
    try {
      plan = planJob(job, network, this.planners);
    } catch (err) {
      if (err instanceof JobPlanError) return this.fail(job.id, ['queued'], err.message);
      throw err;
    }
    if (plan.type === 'read') {
      // Reads run in the tracker, once earlier writes of the same key are through.
      await this.store.transition(job.id, ['queued'], { status: 'submitted', submittedAt: new Date(), ...this.lease() });
      return;
    }
    let gasLimit: bigint;
    try {
      const estimate = await network.provider.estimateGas({ from: network.signerAddress, to: plan.to, data: plan.data });
      gasLimit = (estimate * (100n + GAS_MARGIN_PERCENT)) / 100n;
    } catch (err) {
      if (isRevert(err)) {
        return this.fail(job.id, ['queued'], `The transaction would revert: ${describeRevertData(revertData(err))}. Nothing was sent.`);
      }
      throw err;
    }
    await this.assignAndBroadcast(job, network, plan, gasLimit, 0);
  }

  private async assignAndBroadcast(job: JobRow, network: ChainNetwork, plan: WritePlan, gasLimit: bigint, retry: number): Promise<void> {
    const fees = await currentFees(network);
    const chainNonce = await network.provider.getTransactionCount(network.signerAddress, 'pending');
    let sent: SentTransaction | undefined;
    const submitted = await this.store.transition(job.id, ['queued'], async (m) => {
      const nonce = await this.takeNonce(m, network, chainNonce);
      sent = await signTransaction(network, { to: plan.to, data: plan.data, nonce, gasLimit, fees });
      const now = new Date();
      return {
        status: 'submitted',
        signer: network.signerAddress,
        chainInstance: network.instanceId,
        nonce,
        txHash: sent.hash,
        transactions: [sent],
        attempts: 1,
        submittedAt: now,
        lastSentAt: now,
        ...this.lease(),
      };
    });
    if (!submitted || !sent) return; // another worker took it
    const outcome = await broadcast(network, sent.raw);
    if (outcome.kind === 'sent') return;
    if (outcome.kind === 'unknown') {
      this.log.warn({ jobId: job.id, network: network.name, reason: outcome.message }, 'broadcast failed; the tracker will send it again');
      return;
    }
    // The node refused the transaction for good: give the nonce back (nothing later has it: this runs in
    // the signer's queue) and fail the job, or — when the nonce was taken outside the service — retry once
    // with a fresh nonce.
    const release = async (m: EntityManager) => {
      await m.query(
        `UPDATE chain.signer_nonces SET next_nonce = $3, updated_at = now() WHERE chain_instance = $1 AND signer = $2 AND next_nonce = $4`,
        [network.instanceId, network.signerAddress, sent!.nonce, sent!.nonce + 1],
      );
    };
    if (outcome.kind === 'nonce-used' && retry < 2 && !(await network.provider.getTransactionReceipt(sent.hash))) {
      this.log.warn({ jobId: job.id, network: network.name, nonce: sent.nonce }, 'nonce already used outside the service; assigning another');
      const requeued = await this.store.transition(job.id, ['submitted'], async (m) => {
        await release(m);
        return { status: 'queued', nonce: null, chainInstance: null, txHash: null, transactions: [], attempts: 0, submittedAt: null, lastSentAt: null };
      });
      if (requeued) await this.assignAndBroadcast(requeued, network, plan, gasLimit, retry + 1);
      return;
    }
    if (outcome.kind === 'nonce-used') return; // mined already (the tracker completes it)
    await this.store.transition(job.id, ['submitted'], async (m) => {
      await release(m);
      return {
        status: 'failed',
        error: `The network refused the transaction: ${outcome.message}`,
        nonce: null,
        completedAt: new Date(),
        leaseOwner: null,
        leaseUntil: null,
      };
    });
  }

  /** Next nonce of the signer: the larger of the chain's count and the service's own record. */
  private async takeNonce(m: EntityManager, network: ChainNetwork, chainNonce: number): Promise<number> {
    await m.query(
      `INSERT INTO chain.signer_nonces (chain_instance, signer, next_nonce) VALUES ($1, $2, 0) ON CONFLICT DO NOTHING`,
      [network.instanceId, network.signerAddress],
    );
    const [row] = (await m.query(
      `SELECT next_nonce FROM chain.signer_nonces WHERE chain_instance = $1 AND signer = $2 FOR UPDATE`,
      [network.instanceId, network.signerAddress],
    )) as [{ next_nonce: string }];
    const nonce = Math.max(Number(row.next_nonce), chainNonce);
    await m.query(
      `UPDATE chain.signer_nonces SET next_nonce = $3, updated_at = now() WHERE chain_instance = $1 AND signer = $2`,
      [network.instanceId, network.signerAddress, nonce + 1],
    );
    return nonce;
  }

  private lease(): { leaseOwner: string; leaseUntil: Date } {
    return { leaseOwner: this.workerId, leaseUntil: new Date(Date.now() + LEASE_MS) };
  }

  private async fail(id: string, from: ('queued' | 'submitted')[], error: string): Promise<void> {
    await this.store.transition(id, from, { status: 'failed', error, completedAt: new Date(), leaseOwner: null, leaseUntil: null });
  }
}


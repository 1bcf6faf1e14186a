import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import type { ChainNetwork } from '../networks/chain-network.js';
import type { JobRow } from '../jobs/entities.js';
import type { JobStore, JobTransitionHook } from '../jobs/job-store.js';
import type { NetworkRegistry } from '../networks/network-registry.js';
import { documentCompletion } from './executors.js';
import { BATCH_KIND, type DocumentBatchPayload, type DocumentPayload, type MemberProof } from '../jobs/job-types.js';
import { documentLeaf, merkleTree } from '../proofs/merkle.js';

/** The account of the service's own jobs (batches): no client account is all zeros, so no listing shows them. */
export const SERVICE_ACCOUNT = '00000000-0000-0000-0000-000000000000';

export interface BatchTuning {
  /** Most documents under one Merkle root (one transaction). 1 turns batching off. */
  documentBatchSize: number;
  /** How long the oldest queued document may wait for others before a smaller batch goes. */
  documentBatchWindowMs: number;
}

export const DEFAULT_BATCH_TUNING: BatchTuning = { documentBatchSize: 512, documentBatchWindowMs: 50 };

/**
 * Several jobs carried by one transaction. A batch is a job of its own (kind `document_batch`, the
 * service's account): the sender signs it, the tracker follows it, bumps, resends and replays it like any
 * job. Forming one is ONE database transaction: the batch job (queued) and every member moved to
 * `submitted` with `batch_job_id` and its Merkle proof — so a crash before the commit leaves the
 * documents queued, after it leaves a queued batch, and no document is ever in two batches. When the
 * batch is final, its members are completed or failed in the same transaction (`settleMembers`), each
 * with its own outcome and events.
 */
export class DocumentBatcher {
  constructor(
    private readonly ds: DataSource,
    private readonly store: JobStore,
    private readonly tuning: BatchTuning,
  ) {}

  /** Whether this network's documents go in batches (it has DocumentRoots and batches are bigger than 1). */
  batches(network: ChainNetwork): boolean {
    return !!network.contracts.documentRoots && this.tuning.documentBatchSize > 1;
  }

  /**
   * Forms a batch of the network's oldest queued documents. Answers how many documents it took and, when
   * it waits for the window to fill, how long until it closes.
   */
  async form(network: ChainNetwork): Promise<{ batched: number; waitMs: number }> {
    if (!this.batches(network)) return { batched: 0, waitMs: 0 };
    let batched = 0;
    let waitMs = 0;
    await this.ds.transaction(async (m) => {
      const rows: { id: string; payload: DocumentPayload; age_ms: number }[] = await m.query(
        `SELECT id, payload, (EXTRACT(EPOCH FROM (now() - created_at)) * 1000)::float8 AS age_ms FROM chain.jobs
          WHERE status = 'queued' AND chain_network = $1 AND signer = $2 AND kind = 'document'
          ORDER BY seq LIMIT $3 FOR UPDATE SKIP LOCKED`,
        [network.name, network.signerAddress, this.tuning.documentBatchSize],
      );
      if (rows.length === 0) return;
      const oldest = Math.max(...rows.map((r) => Number(r.age_ms)));
      if (rows.length < this.tuning.documentBatchSize && oldest < this.tuning.documentBatchWindowMs) {
        waitMs = Math.ceil(this.tuning.documentBatchWindowMs - oldest);
        return;
      }
      const leaves = rows.map((r) => documentLeaf(r.payload.anchorId, r.payload.sha256, r.payload.cid));
      const { root, proofs } = merkleTree(leaves);
      const batchId = randomUUID();
      const payload: DocumentBatchPayload = { root, count: rows.length };
      await m.query(
        `INSERT INTO chain.jobs (id, account_id, kind, network, chain_network, status, request, payload, request_hash, signer)
         VALUES ($1, $2, $3, $4, $4, 'queued', $5, $6, $7, $8)`,
        [batchId, SERVICE_ACCOUNT, BATCH_KIND, network.name, JSON.stringify({ documents: rows.length }), JSON.stringify(payload), root.slice(2), network.signerAddress],
      );
      const submittedAt = new Date();
      const patches = new Map<string, Partial<JobRow>>(
        rows.map((r, index) => {
          const proof: MemberProof = { leaf: leaves[index]!, path: proofs[index]!, root, index };
          return [r.id, { status: 'submitted', batchJobId: batchId, proof: proof as unknown as Record<string, unknown>, submittedAt }];
        }),
      );
      batched = (await this.store.transitionManyIn(m, ['queued'], patches)).length;
    });
    if (batched > 0) this.store.committed();
    return { batched, waitMs };
  }
}

/**
 * The members of a batch that just became final, settled in the batch's transaction: completed with the
 * batch's receipt and their own outcome (network cost shared out evenly), or failed with the batch's
 * reason.
 */
export async function settleMembers(
  m: EntityManager,
  store: JobStore,
  batch: JobRow,
  outcomeOf: (member: JobRow, batch: JobRow) => { outcome: Record<string, unknown>; result: Record<string, unknown> },
): Promise<void> {
  const members: { id: string }[] = await m.query(`SELECT id FROM chain.jobs WHERE batch_job_id = $1 AND status = 'submitted'`, [batch.id]);
  if (members.length === 0) return;
  const now = new Date();
  const patches = new Map<string, (m: EntityManager, before: JobRow) => Promise<Partial<JobRow>>>();
  const share = (v: number | null) => (v === null ? null : v / members.length);
  for (const { id } of members) {
    patches.set(id, async (_m, member) => {
      const common: Partial<JobRow> = {
        signer: batch.signer,
        chainInstance: batch.chainInstance,
        txHash: batch.txHash,
        blockNumber: batch.blockNumber,
        receipt: batch.receipt,
        gasUsed: batch.gasUsed === null ? null : Math.ceil(batch.gasUsed / members.length),
        gasPrice: batch.gasPrice,
        attempts: batch.attempts,
        completedAt: now,
        leaseOwner: null,
        leaseUntil: null,
      };
      if (batch.status === 'completed') {
        const cost = share(batch.networkCost) ?? 0;
        const fee = batch.networkFee ?? 0;
        return { ...common, status: 'completed', ...outcomeOf(member, batch), networkCost: cost, networkFee: fee, networkTotal: cost + fee };
      }
      return { ...common, status: 'failed', error: batch.error ?? 'The batch carrying this document failed.' };
    });
  }
  await store.transitionManyIn(m, ['submitted'], patches);
}

/** The store hook that settles a batch's members in the transaction where the batch becomes final. */
export function batchSettlement(store: JobStore, networks: NetworkRegistry): JobTransitionHook {
  return async (m, before, after) => {
    if (after.kind !== BATCH_KIND || before.status === after.status || (after.status !== 'completed' && after.status !== 'failed')) return;
    const network = networks.byCanonicalName(after.chainNetwork);
    const to = network?.contracts.documentRoots;
    await settleMembers(m, store, after, (member, batch) => {
      if (!network || !to) throw new Error(`network ${batch.chainNetwork} of batch ${batch.id} is not configured with DocumentRoots`);
      const done = documentCompletion({ ...member, txHash: batch.txHash, blockNumber: batch.blockNumber }, network, to);
      return { outcome: done.outcome as Record<string, unknown>, result: done.result };
    });
  };
}

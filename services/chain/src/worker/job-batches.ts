import { createHash, randomUUID } from 'node:crypto';
import { Interface, isAddress, type Log } from 'ethers';
import type { DataSource, EntityManager } from 'typeorm';
import { contractArtifact } from '../contracts/artifacts.js';
import type { ChainNetwork } from '../networks/chain-network.js';
import type { NetworkRegistry } from '../networks/network-registry.js';
import type { JobRow } from '../jobs/entities.js';
import type { JobStore, JobTransitionHook } from '../jobs/job-store.js';
import {
  BATCH_KIND,
  KV_BATCH_KIND,
  NFT_BATCH_KIND,
  type BatchKindName,
  type DocumentBatchPayload,
  type DocumentPayload,
  type KeyValueBatchPayload,
  type KeyValuePayload,
  type MemberProof,
  type NftBatchPayload,
  type NftBatchResult,
  type NftMintPayload,
} from '../jobs/job-types.js';
import { metadataDigest, mintDigestsSelector, mintManySelector } from '../contracts/nft-contract.js';
import { MAX_KEY_CHARS } from '../key-value/key-value-rules.js';
import { documentLeaf, merkleTree } from '../proofs/merkle.js';
import { documentCompletion, insertManySelector, keyValueCompletion } from './executors.js';
import { jobTraces } from './job-traces.js';

/** The account of the service's own jobs (batches): no client account is all zeros, so no listing shows them. */
export const SERVICE_ACCOUNT = '00000000-0000-0000-0000-000000000000';

export interface BatchTuning {
  /** Most documents under one Merkle root (one transaction). 1 turns document batching off. */
  documentBatchSize: number;
  /** How long the oldest queued document may wait for others before a smaller batch goes. */
  documentBatchWindowMs: number;
  /** Most key-value inserts of one account in one insertMany transaction. 1 turns key-value batching off. */
  keyValueBatchSize: number;
  /** How long an account's oldest queued insert may wait for others before a smaller batch goes. */
  keyValueBatchWindowMs: number;
  /** Most NFT mints in one mintMany transaction. 1 turns NFT batching off. */
  nftBatchSize: number;
  /** How long the oldest queued mint may wait for others before a smaller batch goes. */
  nftBatchWindowMs: number;
}

export const DEFAULT_BATCH_TUNING: BatchTuning = {
  documentBatchSize: 512,
  documentBatchWindowMs: 50,
  keyValueBatchSize: 64,
  keyValueBatchWindowMs: 50,
  nftBatchSize: 16,
  nftBatchWindowMs: 50,
};

const KV_INSERTS = ['kv_insert_string', 'kv_insert_bytes32'];

/**
 * Most gas one insertMany may need, by a generous estimate of each entry (below): a third of a 30M-gas
 * block, so a batch is never too big to be mined (or estimated) and never waits long for room in a block.
 */
export const KV_BATCH_GAS_BUDGET = 10_000_000;

/** Gas an entry may take at most: its storage slots (value, flag, the string's length word) at 22 100 each, plus calldata and its event. */
export function entryGas(p: KeyValuePayload): number {
  const bytes = p.valueHex !== undefined ? 32 : Buffer.byteLength(p.value ?? '', 'utf8');
  return 30_000 + 22_100 * (2 + Math.ceil(bytes / 32)) + 40 * (bytes + Buffer.byteLength(p.key ?? '', 'utf8'));
}

interface Queued {
  id: string;
  account_id: string;
  kind: string;
  payload: Record<string, unknown>;
  age_ms: number;
}

/**
 * Several jobs carried by one transaction. A batch is a job of its own (kind `document_batch` or
 * `kv_batch`, the service's account): the sender signs it, the tracker follows, bumps, resends and
 * replays it like any job. Forming one is ONE database transaction: the batch job (queued) and every
 * member moved to `submitted` with `batch_job_id` (and a document's Merkle proof) — so a crash before the
 * commit leaves the members queued, after it a queued batch, and no job is ever in two batches. When the
 * batch is final its members are completed or failed in the same transaction (`batchSettlement`), each
 * with its own outcome and events. Items are checked before batching: one that would not go through
 * fails alone.
 */
export class JobBatcher {
  /**
   * Per contract address: whether its code has a method (KeyValueStore.insertMany, GreenImpactNft.mintMany);
   * a contract deployed before the method takes its writes one by one.
   */
  private readonly hasMethod = new Map<string, Promise<boolean>>();

  constructor(
    private readonly ds: DataSource,
    private readonly store: JobStore,
    private readonly tuning: BatchTuning,
  ) {}

  /** Whether this network's documents go in batches (it has DocumentRoots and batches are bigger than 1). */
  batchesDocuments(network: ChainNetwork): boolean {
    return !!network.contracts.documentRoots && this.tuning.documentBatchSize > 1;
  }

  /** Whether this network's key-value inserts go in batches (its store has insertMany). */
  async batchesKeyValues(network: ChainNetwork): Promise<boolean> {
    const address = network.contracts.keyValueStore;
    return !!address && this.tuning.keyValueBatchSize > 1 && this.contractHas(network, address, insertManySelector());
  }

  /** Whether this network's NFT mints go in batches (its NFT contract has mintMany). */
  async batchesNfts(network: ChainNetwork): Promise<boolean> {
    const address = network.contracts.nft;
    return !!address && this.tuning.nftBatchSize > 1 && this.contractHas(network, address, mintManySelector());
  }

  private contractHas(network: ChainNetwork, address: string, selector: string): Promise<boolean> {
    const key = `${address}:${selector}`;
    let known = this.hasMethod.get(key);
    if (!known) {
      known = network.provider.getCode(address).then((code) => code.includes(selector.slice(2)));
      known.catch(() => this.hasMethod.delete(key)); // asked again next round
      this.hasMethod.set(key, known);
    }
    return known;
  }

  /** Kinds the sender leaves to the batcher on this network. */
  async batchedKinds(network: ChainNetwork): Promise<string[]> {
    return [
      ...(this.batchesDocuments(network) ? ['document'] : []),
      ...((await this.batchesKeyValues(network)) ? KV_INSERTS : []),
      ...((await this.batchesNfts(network)) ? ['nft_mint'] : []),
    ];
  }

  /**
   * Forms the network's batches of queued jobs. Answers how many jobs left the queue and, when some
   * wait for their window to fill, how long until the first window closes.
   */
  async form(network: ChainNetwork): Promise<{ batched: number; waitMs: number }> {
    const waits: number[] = [];
    let batched = 0;
    if (this.batchesDocuments(network)) {
      const r = await this.formDocuments(network);
      batched += r.batched;
      if (r.waitMs > 0) waits.push(r.waitMs);
    }
    if (await this.batchesKeyValues(network)) {
      const r = await this.formKeyValues(network);
      batched += r.batched;
      if (r.waitMs > 0) waits.push(r.waitMs);
    }
    if (await this.batchesNfts(network)) {
      const r = await this.formNfts(network);
      batched += r.batched;
      if (r.waitMs > 0) waits.push(r.waitMs);
    }
    if (batched > 0) this.store.committed();
    return { batched, waitMs: waits.length ? Math.min(...waits) : 0 };
  }

  private queued(m: EntityManager, network: ChainNetwork, kinds: string[], limit: number): Promise<Queued[]> {
    return m.query(
      `SELECT id, account_id, kind, payload, (EXTRACT(EPOCH FROM (now() - created_at)) * 1000)::float8 AS age_ms FROM chain.jobs
        WHERE status = 'queued' AND chain_network = $1 AND signer = $2 AND kind = ANY($3)
        ORDER BY seq LIMIT $4 FOR UPDATE SKIP LOCKED`,
      [network.name, network.signerAddress, kinds, limit],
    );
  }

  /** The oldest queued documents of the network under one Merkle root, once the batch is full or its window closed. */
  private async formDocuments(network: ChainNetwork): Promise<{ batched: number; waitMs: number }> {
    const { documentBatchSize: size, documentBatchWindowMs: windowMs } = this.tuning;
    return this.ds.transaction(async (m) => {
      const rows = await this.queued(m, network, ['document'], size);
      const wait = windowWait(rows, size, windowMs);
      if (wait > 0 || rows.length === 0) return { batched: 0, waitMs: wait };
      const leaves = rows.map((r) => {
        const p = r.payload as unknown as DocumentPayload;
        return documentLeaf(p.anchorId, p.sha256, p.cid);
      });
      const { root, proofs } = merkleTree(leaves);
      const payload: DocumentBatchPayload = { root, count: rows.length };
      const proofOf = (i: number): MemberProof => ({ leaf: leaves[i]!, path: proofs[i]!, root, index: i });
      return { batched: await this.insertBatch(m, network, BATCH_KIND, payload, root.slice(2), rows, proofOf), waitMs: 0 };
    });
  }

  /** Each account's oldest queued inserts in one insertMany, once its batch is full or its window closed. */
  private async formKeyValues(network: ChainNetwork): Promise<{ batched: number; waitMs: number }> {
    const { keyValueBatchSize: size, keyValueBatchWindowMs: windowMs } = this.tuning;
    return this.ds.transaction(async (m) => {
      const rows = await this.queued(m, network, KV_INSERTS, size * 4);
      const byAccount = new Map<string, Queued[]>();
      for (const r of rows) byAccount.set(r.account_id, [...(byAccount.get(r.account_id) ?? []), r]);
      let batched = 0;
      const waits: number[] = [];
      for (const group of byAccount.values()) {
        // Batches of as many as fit the size and the gas budget (at least one each), in job order; a last,
        // partial one waits for its window.
        for (let start = 0; start < group.length; ) {
          const taken: Queued[] = [];
          let gas = 0;
          for (const r of group.slice(start, start + size)) {
            gas += entryGas(r.payload as unknown as KeyValuePayload);
            if (taken.length > 0 && gas > KV_BATCH_GAS_BUDGET) break;
            taken.push(r);
          }
          start += taken.length;
          const full = start < group.length || taken.length >= size;
          const wait = full ? 0 : windowWait(taken, size, windowMs);
          if (wait > 0) {
            waits.push(wait);
            break;
          }
          batched += await this.formKeyValueBatch(m, network, taken);
        }
      }
      return { batched, waitMs: waits.length ? Math.min(...waits) : 0 };
    });
  }

  /** One account's batch of inserts: bad items fail alone first, the others go in one insertMany. */
  private async formKeyValueBatch(m: EntityManager, network: ChainNetwork, taken: Queued[]): Promise<number> {
    // Checked before batching: an entry the store would skip fails alone, never the others.
    const good = await this.failUnfit(m, taken, (r) =>
      validEntry(r.payload as unknown as KeyValuePayload) ? undefined : `Key "${(r.payload as { key?: string }).key ?? ''}" must be 1–${MAX_KEY_CHARS} characters; nothing was sent.`,
    );
    const failed = taken.length - good.length;
    if (good.length === 0) return failed;
    const namespace = (good[0]!.payload as unknown as KeyValuePayload).namespace;
    const payload: KeyValueBatchPayload = {
      namespace,
      entries: good.map((r) => {
        const p = r.payload as unknown as KeyValuePayload;
        return r.kind === 'kv_insert_bytes32' ? { key: p.key, isWord: true, word: p.valueHex } : { key: p.key, isWord: false, value: p.value };
      }),
    };
    return failed + (await this.insertBatch(m, network, KV_BATCH_KIND, payload, namespace.slice(2), good, (index) => ({ index })));
  }

  /**
   * The oldest queued mints of the network in one mintDigests (mintMany on a contract without it), once the
   * batch is full or its window closed.
   * A mint the contract would refuse (no URI, a recipient that is not an address) fails alone first.
   */
  private async formNfts(network: ChainNetwork): Promise<{ batched: number; waitMs: number }> {
    const { nftBatchSize: size, nftBatchWindowMs: windowMs } = this.tuning;
    const hasDigests = await this.contractHas(network, network.contracts.nft!, mintDigestsSelector());
    return this.ds.transaction(async (m) => {
      const rows = await this.queued(m, network, ['nft_mint'], size);
      const wait = windowWait(rows, size, windowMs);
      if (wait > 0 || rows.length === 0) return { batched: 0, waitMs: wait };
      const good = await this.failUnfit(m, rows, (r) =>
        validMint(r.payload as unknown as NftMintPayload) ? undefined : 'The mint has no token URI or no valid recipient; nothing was sent.',
      );
      const failed = rows.length - good.length;
      if (good.length === 0) return { batched: failed, waitMs: 0 };
      const mints = good.map((r) => ({ ...(r.payload as unknown as NftMintPayload), jobId: r.id }));
      // A digest (one storage slot) instead of the URI string (four) when the contract has mintDigests and every URI is a raw CID.
      const digests = hasDigests && mints.every((p) => metadataDigest(p.tokenUri) !== undefined);
      const payload: NftBatchPayload = { mints, ...(digests ? { digests } : {}) };
      const memberIds = good.map((r) => r.id.replaceAll('-', '')).join('');
      return { batched: failed + (await this.insertBatch(m, network, NFT_BATCH_KIND, payload, sha256Hex(memberIds), good, (index) => ({ index }))), waitMs: 0 };
    });
  }

  /**
   * Checked before batching: each row `errorOf` names a reason for fails alone (nothing sent), so it never
   * fails the others. Answers the rows that go on, in order.
   */
  private async failUnfit(m: EntityManager, rows: Queued[], errorOf: (r: Queued) => string | undefined): Promise<Queued[]> {
    const good: Queued[] = [];
    for (const r of rows) {
      const error = errorOf(r);
      if (error === undefined) good.push(r);
      else await this.store.transitionIn(m, r.id, ['queued'], { status: 'failed', error, completedAt: new Date() });
    }
    return good;
  }

  /** The batch job (queued) and its members moved to SUBMITTED under it, in the caller's transaction. */
  private async insertBatch(
    m: EntityManager,
    network: ChainNetwork,
    kind: BatchKindName,
    payload: DocumentBatchPayload | KeyValueBatchPayload | NftBatchPayload,
    requestHash: string,
    members: Queued[],
    proofOf: (index: number) => MemberProof | { index: number },
  ): Promise<number> {
    const batchId = randomUUID();
    await m.query(
      `INSERT INTO chain.jobs (id, account_id, kind, network, chain_network, status, request, payload, request_hash, signer)
       VALUES ($1, $2, $3, $4, $4, 'queued', $5, $6, $7, $8)`,
      [batchId, SERVICE_ACCOUNT, kind, network.name, JSON.stringify({ jobs: members.length }), JSON.stringify(payload), requestHash.padEnd(64, '0').slice(0, 64), network.signerAddress],
    );
    const submittedAt = new Date();
    const patches = new Map<string, Partial<JobRow>>(
      members.map((r, i) => [r.id, { status: 'submitted', batchJobId: batchId, proof: proofOf(i) as unknown as Record<string, unknown>, submittedAt }]),
    );
    const moved = await this.store.transitionManyIn(m, ['queued'], patches);
    // The batch's broadcast continues the requests that made its members (a rolled-back forming only loses that).
    jobTraces.adopt(batchId, members.map((r) => r.id));
    return moved.length;
  }
}

/** How long until a batch of `rows` should go (0: now): full, or its oldest has waited the window. */
function windowWait(rows: Queued[], size: number, windowMs: number): number {
  if (rows.length === 0 || rows.length >= size) return 0;
  const oldest = Math.max(...rows.map((r) => Number(r.age_ms)));
  return oldest >= windowMs ? 0 : Math.ceil(windowMs - oldest);
}

function validMint(p: NftMintPayload): boolean {
  return typeof p.tokenUri === 'string' && p.tokenUri.length > 0 && isAddress(p.to);
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function validEntry(p: KeyValuePayload): boolean {
  return typeof p.key === 'string' && p.key.length > 0 && [...p.key].length <= MAX_KEY_CHARS;
}

let kvInterface: Interface | undefined;

/** Indexes of insertMany entries the store skipped (EntrySkipped), from the batch's receipt. */
function skippedEntries(batch: JobRow): Set<number> {
  kvInterface ??= new Interface(contractArtifact('KeyValueStore').abi);
  const skipped = new Set<number>();
  const logs = ((batch.receipt as { logs?: Log[] } | null)?.logs ?? []) as Log[];
  for (const log of logs) {
    const parsed = kvInterface.parseLog({ topics: [...log.topics], data: log.data });
    if (parsed?.name === 'EntrySkipped') skipped.add(Number(parsed.args[1]));
  }
  return skipped;
}

/**
 * The members of a batch that just became final, settled in the batch's transaction: completed with the
 * batch's receipt and their own outcome (gas and network cost shared out evenly), or failed with the
 * batch's reason (or their own, for an entry the contract reported skipped).
 */
async function settleMembers(
  m: EntityManager,
  store: JobStore,
  batch: JobRow,
  outcomeOf: (member: JobRow) => { outcome: Record<string, unknown>; result: Record<string, unknown> } | { error: string },
): Promise<void> {
  const members: { id: string }[] = await m.query(`SELECT id FROM chain.jobs WHERE batch_job_id = $1 AND status = 'submitted'`, [batch.id]);
  if (members.length === 0) return;
  const now = new Date();
  const n = members.length;
  const patches = new Map<string, (m: EntityManager, before: JobRow) => Promise<Partial<JobRow>>>();
  for (const { id } of members) {
    patches.set(id, async (_m, member) => {
      const common: Partial<JobRow> = {
        signer: batch.signer,
        chainInstance: batch.chainInstance,
        txHash: batch.txHash,
        blockNumber: batch.blockNumber,
        receipt: batch.receipt,
        gasUsed: batch.gasUsed === null ? null : Math.ceil(batch.gasUsed / n),
        gasPrice: batch.gasPrice,
        attempts: batch.attempts,
        completedAt: now,
        leaseOwner: null,
        leaseUntil: null,
      };
      if (batch.status !== 'completed') return { ...common, status: 'failed', error: batch.error ?? 'The batch carrying this job failed.' };
      const own = outcomeOf(member);
      if ('error' in own) return { ...common, status: 'failed', error: own.error };
      const cost = batch.networkCost === null ? 0 : batch.networkCost / n;
      const fee = batch.networkFee ?? 0;
      return { ...common, status: 'completed', ...own, networkCost: cost, networkFee: fee, networkTotal: cost + fee };
    });
  }
  await store.transitionManyIn(m, ['submitted'], patches);
}

/** The store hook that settles a batch's members in the transaction where the batch becomes final. */
export function batchSettlement(store: JobStore, networks: NetworkRegistry): JobTransitionHook {
  return async (m, before, after) => {
    if (before.status === after.status || (after.status !== 'completed' && after.status !== 'failed')) return;
    if (after.kind !== BATCH_KIND && after.kind !== KV_BATCH_KIND && after.kind !== NFT_BATCH_KIND) return;
    const network = networks.byCanonicalName(after.chainNetwork);
    if (!network) throw new Error(`network ${after.chainNetwork} of batch ${after.id} is not configured`);
    if (after.kind === BATCH_KIND) {
      const to = network.contracts.documentRoots;
      if (!to) throw new Error(`network ${after.chainNetwork} of batch ${after.id} has no DocumentRoots`);
      return settleMembers(m, store, after, (member) => {
        const done = documentCompletion({ ...member, txHash: after.txHash, blockNumber: after.blockNumber }, network, to);
        return { outcome: done.outcome as Record<string, unknown>, result: done.result };
      });
    }
    if (after.kind === NFT_BATCH_KIND) {
      // Each member's NFT was made (and its certificates stored) when the batch's receipt came in (nft-jobs.ts planBatch).
      const members = (after.result as unknown as NftBatchResult | null)?.members ?? [];
      return settleMembers(m, store, after, (member) => {
        const own = members[(member.proof as { index?: number } | null)?.index ?? -1];
        return own?.jobId === member.id ? { outcome: own.outcome, result: own.result } : { error: 'The NFT batch carrying this mint has no outcome for it.' };
      });
    }
    const to = network.contracts.keyValueStore!;
    const skipped = after.status === 'completed' ? skippedEntries(after) : new Set<number>();
    return settleMembers(m, store, after, (member) => {
      if (skipped.has((member.proof as { index?: number } | null)?.index ?? -1)) {
        return { error: 'The key-value store skipped this entry (its key is empty); nothing was written.' };
      }
      const done = keyValueCompletion(member, to);
      return { outcome: done.outcome as Record<string, unknown>, result: done.result };
    });
  };
}

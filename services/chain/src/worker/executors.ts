import { Interface, toUtf8String, type TransactionReceipt } from 'ethers';
import type { DocumentKind } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { contractArtifact } from '../contracts/artifacts.js';
import type { ChainNetwork } from '../networks/chain-network.js';
import type { JobRow } from '../jobs/entities.js';
import { BATCH_KIND, DOCUMENT_KINDS, KV_BATCH_KIND, NFT_BATCH_KIND, type KeyValueBatchPayload, type DocumentBatchPayload, type DocumentPayload, type KeyValuePayload } from '../jobs/job-types.js';
import { documentProofOf } from '../documents/document-proofs.js';
import type { StoredOutcome } from '../jobs/job-view.js';

/** What a job produces when it completes: the typed outcome and the legacy `info.result`. */
export interface Completion {
  outcome: StoredOutcome;
  result: Record<string, unknown>;
  blockNumber?: number;
}

/** A job that writes: one contract call, sent as a transaction. */
export interface WritePlan {
  type: 'write';
  to: string;
  data: string;
  /**
   * Turns the successful receipt into the job's outcome. May be async (it may read the database): it
   * runs before the job's transaction and may run again if that fails. Nothing slow belongs here (NFT
   * certificates are drawn on first view, not when the mint completes).
   */
  complete(receipt: TransactionReceipt): Completion | Promise<Completion>;
}

/** A job that only reads (selects): an eth_call, no transaction. */
export interface ReadPlan {
  type: 'read';
  read(): Promise<Completion>;
}

export type JobPlan = WritePlan | ReadPlan;

/** Job families planned outside this file (NFTs need the content store and the certificates). */
export interface JobPlanners {
  nfts?: { plan(job: JobRow, network: ChainNetwork): WritePlan; planBatch(job: JobRow, network: ChainNetwork): WritePlan };
}

export class JobPlanError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JobPlanError';
  }
}

let kvInterface: Interface | undefined;
let registryInterface: Interface | undefined;
const kv = () => (kvInterface ??= new Interface(contractArtifact('KeyValueStore').abi));
let rootsInterface: Interface | undefined;
const registry = () => (registryInterface ??= new Interface(contractArtifact('DocumentRegistry').abi));
const roots = () => (rootsInterface ??= new Interface(contractArtifact('DocumentRoots').abi));

export function requireAddress(address: string | undefined, what: string, network: ChainNetwork): string {
  if (!address) throw new JobPlanError(`Network ${network.name} has no ${what} contract configured.`);
  return address;
}

/** The contract call (or read) a job stands for. Pure: nothing is sent here. */
export function planJob(job: JobRow, network: ChainNetwork, planners: JobPlanners = {}): JobPlan {
  switch (job.kind) {
    case 'kv_insert_string':
    case 'kv_insert_bytes32': {
      const p = job.payload as unknown as KeyValuePayload;
      const to = requireAddress(network.contracts.keyValueStore, 'key-value store', network);
      const bytes32 = job.kind === 'kv_insert_bytes32';
      const data = bytes32
        ? kv().encodeFunctionData('insertBytes32', [p.namespace, p.key, p.valueHex])
        : kv().encodeFunctionData('insertString', [p.namespace, p.key, p.value]);
      return {
        type: 'write',
        to,
        data,
        complete: () => keyValueCompletion(job, to),
      };
    }
    case KV_BATCH_KIND: {
      const p = job.payload as unknown as KeyValueBatchPayload;
      const to = requireAddress(network.contracts.keyValueStore, 'key-value store', network);
      const entries = p.entries.map((e) => [e.key, e.isWord, e.value ?? '', e.word ?? ZERO_WORD]);
      return {
        type: 'write',
        to,
        data: kv().encodeFunctionData('insertMany', [p.namespace, entries]),
        // Its members get their own outcomes when it is final (job-batches.ts settleMembers).
        complete: () => ({ outcome: {}, result: { count: p.entries.length } }),
      };
    }
    case 'kv_select_string':
    case 'kv_select_bytes32': {
      const p = job.payload as unknown as KeyValuePayload;
      const to = requireAddress(network.contracts.keyValueStore, 'key-value store', network);
      const bytes32 = job.kind === 'kv_select_bytes32';
      const fn = bytes32 ? 'selectBytes32' : 'selectString';
      return {
        type: 'read',
        async read() {
          const blockNumber = await network.provider.getBlockNumber();
          const raw = await network.provider.call({ to, data: kv().encodeFunctionData(fn, [p.namespace, p.key]), blockTag: blockNumber });
          const [found, value] = kv().decodeFunctionResult(fn, raw) as unknown as [boolean, string];
          const text = !found ? undefined : bytes32 ? bytes32ToText(value) : value;
          return {
            blockNumber,
            outcome: {
              keyValue: {
                key: p.key,
                ...(text !== undefined ? { value: text } : {}),
                ...(bytes32 && found ? { valueHex: value } : {}),
                found,
                contractAddress: to,
              },
            },
            result: { key: p.key, value: text ?? null },
          };
        },
      };
    }
    case 'document': {
      const p = job.payload as unknown as DocumentPayload;
      const to = requireAddress(network.contracts.documentRegistry, 'document registry', network);
      return {
        type: 'write',
        to,
        data: registry().encodeFunctionData('anchor', [p.anchorId, `0x${p.sha256}`, p.cid]),
        complete: (receipt) => documentCompletion({ ...job, txHash: receipt.hash, blockNumber: receipt.blockNumber }, network, to),
      };
    }
    case BATCH_KIND: {
      const p = job.payload as unknown as DocumentBatchPayload;
      const to = requireAddress(network.contracts.documentRoots, 'document roots', network);
      return {
        type: 'write',
        to,
        data: roots().encodeFunctionData('anchorRoot', [p.root, p.count]),
        // Its members get their own outcomes when it is final (job-batches.ts settleMembers).
        complete: () => ({ outcome: {}, result: { root: p.root, count: p.count } }),
      };
    }
    case 'nft_mint':
    case 'nft_transfer':
    case 'nft_claim':
      if (planners.nfts) return planners.nfts.plan(job, network);
      throw new JobPlanError(`Jobs of kind ${job.kind} are not run by this worker.`);
    case NFT_BATCH_KIND:
      // Its members get their own outcomes when it is final (job-batches.ts batchSettlement).
      if (planners.nfts) return planners.nfts.planBatch(job, network);
      throw new JobPlanError(`Jobs of kind ${job.kind} are not run by this worker.`);
    default:
      throw new JobPlanError(`Jobs of kind ${job.kind} are not run by this version of the service.`);
  }
}

const ZERO_WORD = `0x${'0'.repeat(64)}`;

/** A completed key-value insert's outcome and legacy result (alone or as a batch member). */
export function keyValueCompletion(job: JobRow, to: string): Completion {
  const p = job.payload as unknown as KeyValuePayload;
  const bytes32 = job.kind === 'kv_insert_bytes32';
  return {
    outcome: { keyValue: { key: p.key, value: p.value, ...(bytes32 ? { valueHex: p.valueHex } : {}), found: true, contractAddress: to } },
    result: { key: p.key, value: p.value ?? null },
  };
}

/** The selector of KeyValueStore.insertMany: a deployed store without it takes inserts one at a time. */
export function insertManySelector(): string {
  return kv().getFunction('insertMany')!.selector;
}

/**
 * A completed document's outcome and legacy result: anchored alone (`to` = DocumentRegistry) or as a
 * batch member (`to` = DocumentRoots; the job has its Merkle proof), with the proof anyone can check.
 */
export function documentCompletion(job: JobRow, network: ChainNetwork, to: string): Completion {
  const p = job.payload as unknown as DocumentPayload;
  const kind: DocumentKind = DOCUMENT_KINDS[job.documentKind!];
  const proof = documentProofOf(job, network, to);
  return {
    outcome: {
      document: {
        documentId: p.documentId, kind, cid: p.cid, sha256: p.sha256, contentType: p.contentType, size: p.size, registryAddress: to,
        ...(proof ? { proof } : {}),
      },
    },
    result: { id: p.documentId, job_id: job.id, cid: p.cid, sha256: p.sha256, contentType: p.contentType, size: p.size, registry: to },
  };
}

/** bytes32 as text: UTF-8 with the zero padding removed; undefined when the bytes are not UTF-8. */
export function bytes32ToText(hex: string): string | undefined {
  const bytes = Buffer.from(hex.slice(2), 'hex');
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end--;
  try {
    return toUtf8String(bytes.subarray(0, end));
  } catch {
    return undefined;
  }
}

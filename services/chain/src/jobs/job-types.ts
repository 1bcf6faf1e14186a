import { DocumentKind, JobKind, JobStatus } from '@green-impact/proto/greenimpact/chain/v1/chain';

/** Job kinds as stored (readable in SQL), with their proto enum values. */
export const JOB_KINDS = {
  kv_insert_string: JobKind.JOB_KIND_KV_INSERT_STRING,
  kv_select_string: JobKind.JOB_KIND_KV_SELECT_STRING,
  kv_insert_bytes32: JobKind.JOB_KIND_KV_INSERT_BYTES32,
  kv_select_bytes32: JobKind.JOB_KIND_KV_SELECT_BYTES32,
  document: JobKind.JOB_KIND_DOCUMENT,
  nft_mint: JobKind.JOB_KIND_NFT_MINT,
  nft_transfer: JobKind.JOB_KIND_NFT_TRANSFER,
  nft_claim: JobKind.JOB_KIND_NFT_CLAIM,
} as const;
/** Kinds clients ask for (with proto values). */
export type ClientJobKindName = keyof typeof JOB_KINDS;
/** The service's own kind: one transaction carrying many documents (worker/job-batches.ts); never shown to clients. */
export const BATCH_KIND = 'document_batch';
/** The service's own kind: one account's key-value inserts in one transaction (KeyValueStore.insertMany). */
export const KV_BATCH_KIND = 'kv_batch';
/** The service's own kind: NFT mints in one transaction (GreenImpactNft.mintMany). */
export const NFT_BATCH_KIND = 'nft_batch';
export type BatchKindName = typeof BATCH_KIND | typeof KV_BATCH_KIND | typeof NFT_BATCH_KIND;
export type JobKindName = ClientJobKindName | BatchKindName;
export const BATCH_KINDS: readonly string[] = [BATCH_KIND, KV_BATCH_KIND, NFT_BATCH_KIND];

export const DOCUMENT_KINDS = {
  framework_json: DocumentKind.DOCUMENT_KIND_FRAMEWORK_JSON,
  framework_html: DocumentKind.DOCUMENT_KIND_FRAMEWORK_HTML,
  position_impacts_json: DocumentKind.DOCUMENT_KIND_POSITION_IMPACTS_JSON,
  position_impacts_html: DocumentKind.DOCUMENT_KIND_POSITION_IMPACTS_HTML,
  eu_gbs_html: DocumentKind.DOCUMENT_KIND_EU_GBS_HTML,
} as const;
export type DocumentKindName = keyof typeof DOCUMENT_KINDS;

export const JOB_STATUSES = {
  queued: JobStatus.JOB_STATUS_QUEUED,
  submitted: JobStatus.JOB_STATUS_SUBMITTED,
  completed: JobStatus.JOB_STATUS_COMPLETED,
  failed: JobStatus.JOB_STATUS_FAILED,
} as const;
export type JobStatusName = keyof typeof JOB_STATUSES;

export function nameOf<T extends Record<string, number>>(table: T, value: number | undefined): keyof T | undefined {
  return (Object.keys(table) as (keyof T)[]).find((k) => table[k] === value);
}

/** One signed attempt of a job's transaction (the first send and each gas bump). */
export interface SentTransaction {
  hash: string;
  /** The signed transaction, so it can be broadcast again after a crash or when a node dropped it. */
  raw: string;
  nonce: number;
  gasLimit: string;
  maxFeePerGas?: string | undefined;
  maxPriorityFeePerGas?: string | undefined;
  gasPrice?: string | undefined;
  sentAt: string;
}

/** Worker input of a key-value job. */
export interface KeyValuePayload {
  key: string;
  /** Inserts only. */
  value?: string;
  /** bytes32 inserts: the 32 bytes written. */
  valueHex?: string;
  /** bytes32 namespace of the caller's account on the key-value contract. */
  namespace: string;
}

/** Worker input of a document job. */
export interface DocumentPayload {
  documentId: number;
  /** bytes32 id of the anchor on the registry (the job UUID, zero-padded). */
  anchorId: string;
  cid: string;
  sha256: string;
  contentType: string;
  size: number;
}

/** Worker input of a batch: the Merkle root of its documents' leaves, anchored in one transaction. */
export interface DocumentBatchPayload {
  root: string;
  count: number;
}

/** Worker input of a key-value batch: one namespace's entries, in job order. */
export interface KeyValueBatchPayload {
  namespace: string;
  entries: { key: string; isWord: boolean; value?: string | undefined; word?: string | undefined }[];
}

/** A batch member's proof as formed with its batch (the rest of the proof comes from the batch's receipt). */
export interface MemberProof {
  leaf: string;
  path: string[];
  root: string;
  index: number;
}

/** Worker input of an NFT mint: mint to the custody wallet with the metadata's ipfs:// URI. */
export interface NftMintPayload {
  guid: string;
  /** The custody wallet (the network's signer). */
  to: string;
  tokenUri: string;
  metadataCid: string;
  imageCid: string;
}

/** Worker input of an NFT batch: its members' mints in entry order (member `index` = entry). */
export interface NftBatchPayload {
  mints: (NftMintPayload & { jobId: string })[];
  /** Minted with mintDigests (each metadata URI stored as its sha-256 digest); else mintMany (URI strings). */
  digests?: boolean;
}

/** What an NFT batch's completion keeps for each member (settled from it when the batch is final), by entry. */
export interface NftBatchResult {
  count: number;
  members: { jobId: string; outcome: Record<string, unknown>; result: Record<string, unknown> }[];
}

/** Worker input of an NFT transfer or claim: from the custody wallet to the recipient. */
export interface NftTransferPayload {
  guid: string;
  tokenId: string;
  from: string;
  to: string;
}

/** Message of chain.jobs: which job to run. The job row holds everything else. */
export interface JobMessage {
  jobId: string;
  network: string;
  signer: string;
}

/** Message of chain.job-events: one status change (no request data: events may be widely read). */
export interface JobEvent {
  type: 'job.status';
  jobId: string;
  accountId: string;
  kind: JobKindName;
  network: string;
  status: JobStatusName;
  previousStatus: JobStatusName | null;
  txHash: string | null;
  updatedAt: string;
}

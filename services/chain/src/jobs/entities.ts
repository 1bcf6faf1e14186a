import { EntitySchema, type ValueTransformer } from 'typeorm';
import { SCHEMA } from '../schema.js';
import type { JobKindName, JobStatusName, DocumentKindName, SentTransaction } from './job-types.js';

/** bigint columns hold values far below 2^53 here (ids, nonces, blocks, gas): numbers in code. */
const bigintNumber: ValueTransformer = {
  to: (v: number | null | undefined) => v,
  from: (v: string | null) => (v === null || v === undefined ? v : Number(v)),
};

/** Who acted for the account (migration 1767312000000): on jobs, documents and NFT sends. */
export const ACTED_BY_COLUMNS = {
  actedBySubject: { name: 'acted_by_subject', type: 'varchar', nullable: true },
  actedByIssuer: { name: 'acted_by_issuer', type: 'varchar', nullable: true },
} as const;

export interface JobRow {
  id: string;
  seq: number;
  accountId: string;
  kind: JobKindName;
  documentKind: DocumentKindName | null;
  /** As requested (an alias stays an alias). */
  network: string;
  /** The configured network it runs on (alias resolved): nonces and Kafka keys use this. */
  chainNetwork: string;
  /** Which chain the nonce belongs to (see the migration); set when a transaction is signed. */
  chainInstance: string | null;
  status: JobStatusName;
  /** Echo of the legacy call (the spec's info.request). */
  request: Record<string, unknown>;
  /** Typed input of the worker. */
  payload: Record<string, unknown>;
  requestHash: string;
  idempotencyKey: string | null;
  signer: string | null;
  nonce: number | null;
  txHash: string | null;
  transactions: SentTransaction[];
  blockNumber: number | null;
  receipt: Record<string, unknown> | null;
  gasUsed: number | null;
  gasPrice: string | null;
  networkCost: number | null;
  networkFee: number | null;
  networkTotal: number | null;
  result: Record<string, unknown> | null;
  outcome: Record<string, unknown> | null;
  error: string | null;
  attempts: number;
  frameworkIdentifier: string | null;
  positionId: number | null;
  investorIdentifier: string | null;
  reportingYear: number | null;
  languageCode: string | null;
  kvKey: string | null;
  /** A member of a batch: the batch job whose transaction carries it (its own status and outcome stay its own). */
  batchJobId: string | null;
  /** A batch member's Merkle proof as formed with the batch (leaf, path, root, index). */
  proof: Record<string, unknown> | null;
  leaseOwner: string | null;
  leaseUntil: Date | null;
  /** The person who asked for it (an OpenID Connect subject and its issuer); null for an API-key request. */
  actedBySubject: string | null;
  actedByIssuer: string | null;
  createdAt: Date;
  updatedAt: Date;
  submittedAt: Date | null;
  lastSentAt: Date | null;
  completedAt: Date | null;
}

export const JobEntity = new EntitySchema<JobRow>({
  name: 'ChainJob',
  tableName: 'jobs',
  schema: SCHEMA,
  columns: {
    id: { type: 'uuid', primary: true },
    seq: { type: 'bigint', insert: false, update: false, transformer: bigintNumber },
    accountId: { name: 'account_id', type: 'uuid' },
    kind: { type: 'varchar' },
    documentKind: { name: 'document_kind', type: 'varchar', nullable: true },
    network: { type: 'varchar' },
    chainNetwork: { name: 'chain_network', type: 'varchar' },
    chainInstance: { name: 'chain_instance', type: 'varchar', nullable: true },
    status: { type: 'varchar' },
    request: { type: 'jsonb' },
    payload: { type: 'jsonb' },
    requestHash: { name: 'request_hash', type: 'char' },
    idempotencyKey: { name: 'idempotency_key', type: 'varchar', nullable: true },
    signer: { type: 'varchar', nullable: true },
    nonce: { type: 'bigint', nullable: true, transformer: bigintNumber },
    txHash: { name: 'tx_hash', type: 'varchar', nullable: true },
    transactions: { type: 'jsonb' },
    blockNumber: { name: 'block_number', type: 'bigint', nullable: true, transformer: bigintNumber },
    receipt: { type: 'jsonb', nullable: true },
    gasUsed: { name: 'gas_used', type: 'bigint', nullable: true, transformer: bigintNumber },
    gasPrice: { name: 'gas_price', type: 'numeric', nullable: true },
    networkCost: { name: 'network_cost', type: 'double precision', nullable: true },
    networkFee: { name: 'network_fee', type: 'double precision', nullable: true },
    networkTotal: { name: 'network_total', type: 'double precision', nullable: true },
    result: { type: 'jsonb', nullable: true },
    outcome: { type: 'jsonb', nullable: true },
    error: { type: 'text', nullable: true },
    attempts: { type: 'int' },
    frameworkIdentifier: { name: 'framework_identifier', type: 'varchar', nullable: true },
    positionId: { name: 'position_id', type: 'bigint', nullable: true, transformer: bigintNumber },
    investorIdentifier: { name: 'investor_identifier', type: 'varchar', nullable: true },
    reportingYear: { name: 'reporting_year', type: 'int', nullable: true },
    languageCode: { name: 'language_code', type: 'varchar', nullable: true },
    kvKey: { name: 'kv_key', type: 'varchar', nullable: true },
    batchJobId: { name: 'batch_job_id', type: 'uuid', nullable: true },
    proof: { type: 'jsonb', nullable: true },
    leaseOwner: { name: 'lease_owner', type: 'varchar', nullable: true },
    leaseUntil: { name: 'lease_until', type: 'timestamptz', nullable: true },
    ...ACTED_BY_COLUMNS,
    createdAt: { name: 'created_at', type: 'timestamptz' },
    updatedAt: { name: 'updated_at', type: 'timestamptz' },
    submittedAt: { name: 'submitted_at', type: 'timestamptz', nullable: true },
    lastSentAt: { name: 'last_sent_at', type: 'timestamptz', nullable: true },
    completedAt: { name: 'completed_at', type: 'timestamptz', nullable: true },
  },
});

export interface DocumentRow {
  id: number;
  jobId: string;
  accountId: string;
  kind: DocumentKindName;
  cid: string;
  sha256: string;
  contentType: string;
  size: number;
  frameworkIdentifier: string | null;
  investorIdentifier: string | null;
  positionId: number | null;
  reportingYear: number | null;
  languageCode: string | null;
  /** Served by CID to anyone (a public framework's document); otherwise to its account or by a signed link. */
  public: boolean;
  /** Links signed for another epoch are refused (RevokeDocumentLinks moves it on). */
  linkEpoch: number;
  actedBySubject: string | null;
  actedByIssuer: string | null;
  createdAt: Date;
}

export const DocumentEntity = new EntitySchema<DocumentRow>({
  name: 'ChainDocument',
  tableName: 'documents',
  schema: SCHEMA,
  columns: {
    id: { type: 'bigint', primary: true, generated: 'increment', transformer: bigintNumber },
    jobId: { name: 'job_id', type: 'uuid' },
    accountId: { name: 'account_id', type: 'uuid' },
    kind: { type: 'varchar' },
    cid: { type: 'varchar' },
    sha256: { type: 'char' },
    contentType: { name: 'content_type', type: 'varchar' },
    size: { type: 'bigint', transformer: bigintNumber },
    frameworkIdentifier: { name: 'framework_identifier', type: 'varchar', nullable: true },
    investorIdentifier: { name: 'investor_identifier', type: 'varchar', nullable: true },
    positionId: { name: 'position_id', type: 'bigint', nullable: true, transformer: bigintNumber },
    reportingYear: { name: 'reporting_year', type: 'int', nullable: true },
    languageCode: { name: 'language_code', type: 'varchar', nullable: true },
    public: { type: 'boolean', default: false },
    linkEpoch: { name: 'link_epoch', type: 'int', default: 0 },
    ...ACTED_BY_COLUMNS,
    createdAt: { name: 'created_at', type: 'timestamptz', createDate: true },
  },
});

export const chainEntities = [JobEntity, DocumentEntity];

import { JobKind, type DocumentResult, type Job, type KeyValueResult, type Nft, type TransactionReceipt } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { actedByField } from '@green-impact/shared/caller';
import type { JobRow } from './entities.js';
import { BATCH_KINDS, DOCUMENT_KINDS, JOB_KINDS, JOB_STATUSES, type ClientJobKindName } from './job-types.js';

/** The typed outcome kept in jobs.outcome: exactly one member, as the proto's oneof. */
export interface StoredOutcome {
  keyValue?: KeyValueResult;
  document?: DocumentResult;
  nft?: Nft;
}

/** A stored job as the contract's Job. `txUrl` comes from the network's explorer. */
export function toJob(row: JobRow, txUrl: (hash: string) => string | undefined): Job {
  const outcome = (row.outcome ?? {}) as StoredOutcome;
  const url = row.txHash ? txUrl(row.txHash) : undefined;
  return {
    id: row.id,
    kind: BATCH_KINDS.includes(row.kind) ? JobKind.JOB_KIND_UNSPECIFIED : JOB_KINDS[row.kind as ClientJobKindName],
    ...(row.documentKind ? { documentKind: DOCUMENT_KINDS[row.documentKind] } : {}),
    network: row.network,
    status: JOB_STATUSES[row.status],
    request: row.request,
    ...(row.txHash ? { txHash: row.txHash } : {}),
    ...(url ? { txUrl: url } : {}),
    ...(row.blockNumber !== null ? { blockNumber: row.blockNumber } : {}),
    ...(row.receipt ? { receipt: row.receipt as unknown as TransactionReceipt } : {}),
    ...(row.gasUsed !== null ? { gasUsed: row.gasUsed } : {}),
    ...(row.gasPrice !== null ? { gasPrice: row.gasPrice } : {}),
    ...(row.networkCost !== null ? { networkCost: row.networkCost } : {}),
    ...(row.networkFee !== null ? { networkFee: row.networkFee } : {}),
    ...(row.networkTotal !== null ? { networkTotal: row.networkTotal } : {}),
    ...(row.result ? { result: row.result } : {}),
    ...(row.error !== null ? { error: row.error } : {}),
    attempts: row.attempts,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    ...(row.completedAt ? { completedAt: row.completedAt.toISOString() } : {}),
    ...(row.idempotencyKey !== null ? { idempotencyKey: row.idempotencyKey } : {}),
    ...(row.frameworkIdentifier !== null ? { frameworkIdentifier: row.frameworkIdentifier } : {}),
    ...(row.positionId !== null ? { positionId: row.positionId } : {}),
    ...(row.investorIdentifier !== null ? { investorIdentifier: row.investorIdentifier } : {}),
    ...(row.reportingYear !== null ? { reportingYear: row.reportingYear } : {}),
    ...(row.languageCode !== null ? { languageCode: row.languageCode } : {}),
    ...(row.kvKey !== null ? { key: row.kvKey } : {}),
    ...nftSubject(row, outcome),
    ...actedByField(row),
    ...(outcome.keyValue ? { keyValue: outcome.keyValue } : {}),
    ...(outcome.document ? { document: outcome.document } : {}),
    ...(outcome.nft ? { nft: outcome.nft } : {}),
  };
}

/** NFT jobs name their NFT: guid always, token id once known (transfers know it from the start). */
function nftSubject(row: JobRow, outcome: StoredOutcome): Pick<Job, 'nftGuid' | 'nftId'> {
  if (!row.kind.startsWith('nft_')) return {};
  const p = row.payload as { guid?: string; tokenId?: string };
  const nftId = outcome.nft?.nftId || p.tokenId;
  return { ...(p.guid ? { nftGuid: p.guid } : {}), ...(nftId ? { nftId } : {}) };
}

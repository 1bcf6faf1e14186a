import type { ChainNetwork } from '../networks/chain-network.js';
import type { JobRow } from '../jobs/entities.js';
import type { DocumentPayload, MemberProof } from '../jobs/job-types.js';
import { PROOF_FORMAT, type DocumentProof } from '../proofs/document-proof.js';

/**
 * The proof of a completed document job (format greenimpact-document-proof/1): a batch member's Merkle
 * path under the root its batch anchored on DocumentRoots, or a document anchored alone on
 * DocumentRegistry (every document written before batching, and networks without DocumentRoots).
 * Undefined while the job has no transaction.
 */
export function documentProofOf(job: JobRow, network: ChainNetwork, contract: string): DocumentProof | undefined {
  if (!job.txHash) return undefined;
  const p = job.payload as unknown as DocumentPayload;
  const member = job.proof as unknown as MemberProof | null;
  const common = {
    format: PROOF_FORMAT,
    documentSha256: p.sha256,
    cid: p.cid,
    anchorId: p.anchorId,
    network: network.name,
    chainId: network.chainId,
    contract,
    transaction: job.txHash,
    blockNumber: job.blockNumber ?? 0,
  } as const;
  return member
    ? { ...common, method: 'merkle', leaf: member.leaf, path: member.path, root: member.root }
    : { ...common, method: 'anchor', leaf: '', path: [], root: '' };
}

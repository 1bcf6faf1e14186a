import type { TransactionReceipt } from 'ethers';
import type { EntityManager } from 'typeorm';
import type { Logger } from '@green-impact/shared/logger';
import { encodeMint, encodeMintDigests, encodeMintMany, encodeTransfer, mintedTokenId, mintedTokenIds } from '../contracts/nft-contract.js';
import type { JobRow } from '../jobs/entities.js';
import type { NftBatchPayload, NftBatchResult, NftMintPayload, NftTransferPayload } from '../jobs/job-types.js';
import type { StoredOutcome } from '../jobs/job-view.js';
import type { ChainNetwork } from '../networks/chain-network.js';
import { requireAddress, type Completion, type WritePlan } from '../worker/executors.js';
import { NftEntity, type NftRow } from './nft-entities.js';
import { legacyNftResult, toNft, type NftViewContext } from './nft-view.js';

/**
 * The worker's side of NFTs: the contract call of each NFT job (mint to the custody wallet; transfer
 * from it), the outcome when it is mined (a mint is complete when its transaction is final: its
 * certificates of trust are drawn on first view, nft-certificates.ts), and the NFT's own state, kept in
 * step with its jobs inside each job transition's transaction.
 */
export class NftJobs {
  constructor(
    private readonly view: NftViewContext,
    /** The NFTs of these guids, each of which must exist, in the same order (one query for a batch). */
    private readonly loadNfts: (guids: string[]) => Promise<NftRow[]>,
    private readonly log: Logger,
  ) {}

  plan(job: JobRow, network: ChainNetwork): WritePlan {
    const contract = requireAddress(network.contracts.nft, 'NFT', network);
    if (job.kind === 'nft_mint') {
      const p = job.payload as unknown as NftMintPayload;
      return { type: 'write', to: contract, data: encodeMint(p.to, p.tokenUri), complete: (r) => this.minted(p, contract, r) };
    }
    const p = job.payload as unknown as NftTransferPayload;
    return {
      type: 'write',
      to: contract,
      data: encodeTransfer(p.from, p.to, p.tokenId),
      complete: (r) => this.transferred(job.id, p, r),
    };
  }

  /**
   * An NFT batch (kind nft_batch): its members' mints in one mintDigests (metadata stored as digests) or,
   * on a contract deployed before it, one mintMany. When it is mined, every member's NFT is made here
   * (token ids in the receipt's Transfer order) and kept in the batch's result; the members are settled
   * from it when the batch is final (job-batches.ts batchSettlement).
   */
  planBatch(job: JobRow, network: ChainNetwork): WritePlan {
    const contract = requireAddress(network.contracts.nft, 'NFT', network);
    const { mints, digests } = job.payload as unknown as NftBatchPayload;
    return {
      type: 'write',
      to: contract,
      data: digests ? encodeMintDigests(mints) : encodeMintMany(mints),
      complete: async (receipt) => {
        const ids = mintedTokenIds(receipt.logs, contract);
        if (ids.length !== mints.length) throw new Error(`NFT batch ${receipt.hash} minted ${ids.length} tokens for ${mints.length} entries`);
        const rows = await this.loadNfts(mints.map((p) => p.guid));
        const members: NftBatchResult['members'] = mints.map((p, i) => {
          const done = this.mintedAs(rows[i]!, p, ids[i]!, contract, receipt);
          return { jobId: p.jobId, outcome: done.outcome as Record<string, unknown>, result: done.result };
        });
        const result: NftBatchResult = { count: mints.length, members };
        return { outcome: {}, result: result as unknown as Record<string, unknown> };
      },
    };
  }

  /** The minted NFT: token id from the Transfer event. */
  private async minted(p: NftMintPayload, contract: string, receipt: TransactionReceipt): Promise<Completion> {
    const tokenId = mintedTokenId(receipt.logs, contract);
    if (tokenId === undefined) throw new Error(`mint ${receipt.hash} has no Transfer event of ${contract}`);
    const [row] = await this.loadNfts([p.guid]);
    return this.mintedAs(row!, p, tokenId, contract, receipt);
  }

  /** The NFT `row` (minted as `p`) became as token `tokenId` of `receipt`; its certificates are drawn when first viewed. */
  private mintedAs(row: NftRow, p: NftMintPayload, tokenId: string, contract: string, receipt: TransactionReceipt): Completion {
    const now = new Date();
    const nft = toNft(
      { ...row, status: 'created', tokenId, contractAddress: contract, mintTxHash: receipt.hash, ownerAddress: p.to, mintedAt: now, statusChangedAt: now },
      this.view,
    );
    return { outcome: { nft }, result: legacyNftResult(nft) };
  }

  private async transferred(jobId: string, p: NftTransferPayload, receipt: TransactionReceipt): Promise<Completion> {
    const [row] = await this.loadNfts([p.guid]);
    const nft = toNft(
      { ...row!, status: 'transferred', ownerAddress: p.to, transferredTo: p.to, transferJobId: jobId, sendExpiresAt: null, statusChangedAt: new Date() },
      this.view,
    );
    this.log.info({ guid: p.guid, tokenId: p.tokenId, hash: receipt.hash }, 'NFT transferred');
    return { outcome: { nft }, result: legacyNftResult(nft) };
  }

  /**
   * Keeps the NFT in step with its jobs (JobStore transition hook, inside the job's transaction): a
   * completed mint makes it created, a failed mint failed (no NFT); a completed transfer or claim makes
   * it transferred; a failed transfer makes it created again, a failed claim e-mailed again with its
   * receiver code usable again (the code did not move the NFT, so it is not spent).
   */
  async onJobTransition(m: EntityManager, before: JobRow, after: JobRow): Promise<void> {
    if (!after.kind.startsWith('nft_') || (after.status !== 'completed' && after.status !== 'failed') || before.status === after.status) return;
    const guid = (after.payload as { guid: string }).guid;
    const repo = m.getRepository(NftEntity);
    const nft = (after.outcome as StoredOutcome | null)?.nft;
    if (after.kind === 'nft_mint') {
      if (after.status === 'completed' && nft) {
        const at = new Date(nft.timestamp);
        await repo.update(
          { guid, status: 'minting' },
          {
            status: 'created', tokenId: nft.nftId, contractAddress: nft.contractAddress, mintTxHash: nft.nftTxHash, ownerAddress: nft.ownerAddress,
            certificatePdfCid: nft.certificatePdfCid || null, certificateJpgCid: nft.certificateJpgCid || null, mintedAt: at, statusChangedAt: at,
          },
        );
      } else {
        await repo.update({ guid, status: 'minting' }, { status: 'failed', error: after.error ?? 'the mint failed', statusChangedAt: new Date() });
      }
      return;
    }
    if (after.status === 'completed' && nft) {
      await repo.update(
        { guid, transferJobId: after.id },
        { status: 'transferred', ownerAddress: nft.ownerAddress, transferredTo: nft.ownerAddress, sendExpiresAt: null, statusChangedAt: new Date(nft.timestamp) },
      );
      return;
    }
    if (after.kind === 'nft_claim') {
      // A CTE, so the statement is a SELECT: TypeORM answers UPDATE … RETURNING as [rows, count].
      const [restored] = (await m.query(
        `WITH reopened AS (
           UPDATE chain.nft_sends SET claimed_at = NULL, claim_address = NULL, claim_job_id = NULL
            WHERE claim_job_id = $1 RETURNING email, expires_at)
         SELECT email, expires_at FROM reopened`,
        [after.id],
      )) as { email: string; expires_at: Date }[];
      if (restored) {
        await repo.update(
          { guid, transferJobId: after.id },
          { status: 'emailed', transferredTo: restored.email, sendExpiresAt: new Date(restored.expires_at), statusChangedAt: new Date() },
        );
        return;
      }
    }
    await repo.update({ guid, transferJobId: after.id }, { status: 'created', transferredTo: null, sendExpiresAt: null, statusChangedAt: new Date() });
  }
}

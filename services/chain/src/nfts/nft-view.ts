import { NftStatus, type Nft, type NftTransferCodes } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { certificateUrls } from '../certificates/certificates.js';
import { effectiveStatus, type NftRow, type NftStatusName } from './nft-entities.js';

export const NFT_STATUSES: Record<Exclude<NftStatusName, 'failed'>, NftStatus> = {
  minting: NftStatus.NFT_STATUS_MINTING,
  created: NftStatus.NFT_STATUS_CREATED,
  transferring: NftStatus.NFT_STATUS_TRANSFERRING,
  transferred: NftStatus.NFT_STATUS_TRANSFERRED,
  emailed: NftStatus.NFT_STATUS_EMAILED,
};

export interface NftViewContext {
  publicBaseUrl: string;
  /** Explorer URL of a transaction on the NFT's network. */
  txUrl(row: Pick<NftRow, 'network' | 'chainNetwork'>, hash: string): string;
}

export interface NftViewOptions {
  /** The codes of a send, in clear: only in the answer of the send itself (only hashes are stored). */
  codes?: NftTransferCodes;
  /** Leave out an e-mail recipient (public reads: the recipient's address is PII). */
  public?: boolean;
  now?: Date;
}

const EMPTY_CODES: NftTransferCodes = { owner: '', receiver: '' };

/** A stored NFT as the contract's Nft. */
export function toNft(row: NftRow, ctx: NftViewContext, opts: NftViewOptions = {}): Nft {
  const base = ctx.publicBaseUrl.replace(/\/+$/, '');
  const status = effectiveStatus(row, opts.now);
  if (status === 'failed') throw new Error(`NFT ${row.guid} was never minted`);
  const certificates = certificateUrls(base, row.guid);
  // The certificate's addresses hold from the mint on; its files are drawn on first view (nft-certificates.ts).
  const hasCertificates = Boolean(row.tokenId);
  // An expired send shows as created: its recipient is no longer one.
  const transferredTo = status === 'emailed' || status === 'transferred' || status === 'transferring' ? row.transferredTo : null;
  const isEmail = transferredTo?.includes('@') ?? false;
  return {
    guid: row.guid,
    network: row.network,
    nftTxHash: row.mintTxHash ?? '',
    nftId: row.tokenId ?? '',
    nftIpfsHash: row.metadataCid,
    nftImageIpfsHash: row.imageCid,
    nftJson: {
      name: row.metadata.name,
      description: row.metadata.description,
      image: row.metadata.image,
      attributes: row.metadata.attributes.map((a) => ({
        traitType: a.trait_type,
        value: a.value,
        ...(a.display_type ? { displayType: a.display_type } : {}),
      })),
    },
    url: {
      nft: `${base}/ipfs/${row.metadataCid}`,
      image: `${base}/ipfs/${row.imageCid}`,
      transaction: row.mintTxHash ? ctx.txUrl(row, row.mintTxHash) : '',
    },
    status: NFT_STATUSES[status],
    transferCodes: opts.codes ?? EMPTY_CODES,
    ...(transferredTo && !(isEmail && opts.public) ? { transferredTo } : {}),
    timestamp: row.statusChangedAt.getTime(),
    certificateOfTrust: hasCertificates ? certificates.pdf : '',
    certificateOfTrustJpg: hasCertificates ? certificates.jpg : '',
    certificateOfTrustUrl: hasCertificates ? certificates.page : '',
    certificatePdfCid: row.certificatePdfCid ?? '',
    certificateJpgCid: row.certificateJpgCid ?? '',
    contractAddress: row.contractAddress ?? '',
    ownerAddress: row.ownerAddress ?? '',
    mintJobId: row.mintJobId,
    ...(row.transferJobId ? { transferJobId: row.transferJobId } : {}),
  };
}

/**
 * The NFT in the spec's §2.10 shape (the legacy `info.result` of NFT jobs): guid, network, nftTxHash,
 * nftId, nftIPFSHash, nftImageIPFSHash, nftJson, url, status, transferCodes (and transferredTo once
 * transferred).
 */
export function legacyNftResult(nft: Nft): Record<string, unknown> {
  return {
    guid: nft.guid,
    network: nft.network,
    nftTxHash: nft.nftTxHash,
    nftId: nft.nftId,
    nftIPFSHash: nft.nftIpfsHash,
    nftImageIPFSHash: nft.nftImageIpfsHash,
    nftJson: {
      name: nft.nftJson?.name ?? '',
      description: nft.nftJson?.description ?? '',
      image: nft.nftJson?.image ?? '',
      attributes: (nft.nftJson?.attributes ?? []).map((a) => ({
        trait_type: a.traitType,
        value: a.value,
        ...(a.displayType ? { display_type: a.displayType } : {}),
      })),
    },
    url: { nft: nft.url?.nft ?? '', image: nft.url?.image ?? '', transaction: nft.url?.transaction ?? '' },
    status: statusName(nft.status),
    transferCodes: { owner: nft.transferCodes?.owner ?? '', receiver: nft.transferCodes?.receiver ?? '' },
    ...(nft.transferredTo ? { transferredTo: nft.transferredTo } : {}),
  };
}

function statusName(status: NftStatus): string {
  return (Object.keys(NFT_STATUSES) as (keyof typeof NFT_STATUSES)[]).find((k) => NFT_STATUSES[k] === status) ?? 'unknown';
}

import { EntitySchema } from 'typeorm';
import { SCHEMA } from '../schema.js';
import { ACTED_BY_COLUMNS } from '../jobs/entities.js';
import type { NftMetadataJson } from './nft-rules.js';

/** NFT states as stored; `failed` is a mint that did not happen (not an NFT: hidden from reads). */
export type NftStatusName = 'minting' | 'created' | 'transferring' | 'transferred' | 'emailed' | 'failed';

export interface NftRow {
  guid: string;
  /** The account that minted it: the only one that may transfer or send it. */
  accountId: string;
  /** As requested (an alias stays an alias). */
  network: string;
  /** Alias resolved: the chain the token is on. */
  chainNetwork: string;
  status: NftStatusName;
  /** ERC-721 token id (decimal); set once minted. */
  tokenId: string | null;
  contractAddress: string | null;
  metadata: NftMetadataJson;
  metadataCid: string;
  imageCid: string;
  /** The image as the client gave it (URL or URI). */
  imageSource: string;
  mintJobId: string;
  mintTxHash: string | null;
  transferJobId: string | null;
  /** On-chain holder: the custody wallet once minted, the recipient once transferred. */
  ownerAddress: string | null;
  /** E-mail address while e-mailed (PII: never logged, never in events), wallet address once transferred. */
  transferredTo: string | null;
  /** Expiry of the open e-mailed send. */
  sendExpiresAt: Date | null;
  certificatePdfCid: string | null;
  certificateJpgCid: string | null;
  /** Why the mint failed. */
  error: string | null;
  createdAt: Date;
  mintedAt: Date | null;
  statusChangedAt: Date;
}

export const NftEntity = new EntitySchema<NftRow>({
  name: 'ChainNft',
  tableName: 'nfts',
  schema: SCHEMA,
  columns: {
    guid: { type: 'uuid', primary: true },
    accountId: { name: 'account_id', type: 'uuid' },
    network: { type: 'varchar' },
    chainNetwork: { name: 'chain_network', type: 'varchar' },
    status: { type: 'varchar' },
    tokenId: { name: 'token_id', type: 'numeric', nullable: true },
    contractAddress: { name: 'contract_address', type: 'varchar', nullable: true },
    metadata: { type: 'jsonb' },
    metadataCid: { name: 'metadata_cid', type: 'varchar' },
    imageCid: { name: 'image_cid', type: 'varchar' },
    imageSource: { name: 'image_source', type: 'text' },
    mintJobId: { name: 'mint_job_id', type: 'uuid' },
    mintTxHash: { name: 'mint_tx_hash', type: 'varchar', nullable: true },
    transferJobId: { name: 'transfer_job_id', type: 'uuid', nullable: true },
    ownerAddress: { name: 'owner_address', type: 'varchar', nullable: true },
    transferredTo: { name: 'transferred_to', type: 'varchar', nullable: true },
    sendExpiresAt: { name: 'send_expires_at', type: 'timestamptz', nullable: true },
    certificatePdfCid: { name: 'certificate_pdf_cid', type: 'varchar', nullable: true },
    certificateJpgCid: { name: 'certificate_jpg_cid', type: 'varchar', nullable: true },
    error: { type: 'text', nullable: true },
    createdAt: { name: 'created_at', type: 'timestamptz' },
    mintedAt: { name: 'minted_at', type: 'timestamptz', nullable: true },
    statusChangedAt: { name: 'status_changed_at', type: 'timestamptz' },
  },
});

/** One e-mailed send: its recipient, the hashes of its two codes and how it ended. */
export interface NftSendRow {
  id: string;
  nftGuid: string;
  email: string;
  ownerCodeHash: string;
  receiverCodeHash: string;
  expiresAt: Date;
  createdAt: Date;
  claimedAt: Date | null;
  claimAddress: string | null;
  claimJobId: string | null;
  revokedAt: Date | null;
  actedBySubject: string | null;
  actedByIssuer: string | null;
}

export const NftSendEntity = new EntitySchema<NftSendRow>({
  name: 'ChainNftSend',
  tableName: 'nft_sends',
  schema: SCHEMA,
  columns: {
    id: { type: 'uuid', primary: true },
    nftGuid: { name: 'nft_guid', type: 'uuid' },
    email: { type: 'varchar' },
    ownerCodeHash: { name: 'owner_code_hash', type: 'char' },
    receiverCodeHash: { name: 'receiver_code_hash', type: 'char' },
    expiresAt: { name: 'expires_at', type: 'timestamptz' },
    createdAt: { name: 'created_at', type: 'timestamptz' },
    claimedAt: { name: 'claimed_at', type: 'timestamptz', nullable: true },
    claimAddress: { name: 'claim_address', type: 'varchar', nullable: true },
    claimJobId: { name: 'claim_job_id', type: 'uuid', nullable: true },
    revokedAt: { name: 'revoked_at', type: 'timestamptz', nullable: true },
    ...ACTED_BY_COLUMNS,
  },
});

export const nftEntities = [NftEntity, NftSendEntity];

/**
 * The status a reader sees: an e-mailed send whose codes expired no longer holds the NFT, which is
 * created (available) again; a new transfer or send closes the expired send for good.
 */
export function effectiveStatus(row: Pick<NftRow, 'status' | 'sendExpiresAt'>, now = new Date()): NftStatusName {
  if (row.status === 'emailed' && row.sendExpiresAt && row.sendExpiresAt.getTime() <= now.getTime()) return 'created';
  return row.status;
}

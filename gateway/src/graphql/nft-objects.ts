import type { Nft } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { nftStatusName } from '../catalogue/chain/nft-shapes.js';

/** ChainService's Nft → the GraphQL Nft of nft-schema.ts. Pure. */

export type GqlNft = ReturnType<typeof toGqlNft>;

const orNull = (s: string | undefined) => s || null;

export function toGqlNft(n: Nft) {
  const hasCertificate = Boolean(n.certificateOfTrust && n.certificateOfTrustJpg && n.certificateOfTrustUrl);
  return {
    guid: n.guid,
    network: n.network,
    nftId: orNull(n.nftId),
    txHash: orNull(n.nftTxHash),
    // MINTING, CREATED, …: the legacy name upper-cased.
    status: nftStatusName(n.status).toUpperCase(),
    owner: orNull(n.ownerAddress),
    transferredTo: n.transferredTo ?? null,
    contractAddress: orNull(n.contractAddress),
    metadata: {
      name: n.nftJson?.name ?? '',
      description: n.nftJson?.description ?? '',
      image: n.nftJson?.image ?? '',
      attributes: (n.nftJson?.attributes ?? []).map((a) => ({
        traitType: a.traitType,
        value: a.value ?? null,
        stringValue: typeof a.value === 'string' ? a.value : null,
        numberValue: typeof a.value === 'number' ? a.value : null,
        booleanValue: typeof a.value === 'boolean' ? a.value : null,
        displayType: a.displayType ?? null,
      })),
    },
    metadataCid: n.nftIpfsHash,
    imageCid: n.nftImageIpfsHash,
    urls: { nft: n.url?.nft ?? '', image: n.url?.image ?? '', transaction: orNull(n.url?.transaction) },
    certificate: hasCertificate ? { pdf: n.certificateOfTrust, jpg: n.certificateOfTrustJpg, page: n.certificateOfTrustUrl } : null,
    timestamp: String(n.timestamp),
    mintJobId: n.mintJobId,
    transferJobId: n.transferJobId ?? null,
  };
}

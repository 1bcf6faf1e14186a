import type { MetadataAttribute } from '../nfts/nft-rules.js';

/** What a certificate of trust states about one minted NFT. Both renderings show exactly these facts. */
export interface CertificateFacts {
  guid: string;
  name: string;
  description: string;
  attributes: MetadataAttribute[];
  network: string;
  chainId: number;
  contractAddress: string;
  tokenId: string;
  txHash: string;
  blockNumber: number;
  /** Time of the mint's block. */
  mintedAt: Date;
  custodyAddress: string;
  metadataCid: string;
  imageCid: string;
  /** Where anyone can check the certificate against the service (its landing page). */
  verificationUrl: string;
  /** The NFT's image, drawn on the certificate when it is a PNG or JPEG. */
  image?: { bytes: Buffer; contentType: string } | undefined;
}

export const CERTIFICATE_TITLE = 'Certificate of Trust';
export const CERTIFICATE_STATEMENT =
  'This certifies that the NFT described below was minted on the blockchain by the Green Impact service, ' +
  'with its metadata and image stored under the content identifiers shown.';

/** The rows of the certificate, label and value, in order. */
export function certificateRows(f: CertificateFacts): [string, string][] {
  const attributes = f.attributes.map((a) => `${a.trait_type}: ${String(a.value)}`).join(' · ');
  return [
    ['NFT', f.name],
    ...(f.description ? ([['Description', f.description]] as [string, string][]) : []),
    ...(attributes ? ([['Attributes', attributes]] as [string, string][]) : []),
    ['Network', `${f.network} (chain id ${f.chainId})`],
    ['Contract', f.contractAddress],
    ['Token id', f.tokenId],
    ['Transaction', f.txHash],
    ['Block', `${f.blockNumber}, ${formatUtc(f.mintedAt)}`],
    ['Minted to', `${f.custodyAddress} (the service's custody wallet)`],
    ['Metadata', `ipfs://${f.metadataCid}`],
    ['Image', `ipfs://${f.imageCid}`],
  ];
}

export function formatUtc(d: Date): string {
  return `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

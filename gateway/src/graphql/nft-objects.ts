import type { Nft, NftAttribute, NftMetadata, NftUrls } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { nftStatusName } from '../catalogue/chain/nft-shapes.js';
import { deprecated, nodeId, objectType } from '../catalogue/objects.js';
import { nftMetadataObject, nftUrlsObject } from '../generated/chain.js';

/**
 * The object types of NFTs (nft-schema.ts), declared once (catalogue/objects.ts; NftMetadata and NftUrls
 * generated from chain.proto) and resolved from ChainService's Nft messages. The service answers '' for what is not set yet; GraphQL answers null.
 */

const orNull = (s: string | undefined) => s || null;

/** What an NFT without its metadata or URLs answers (the service always sends them once minted). */
const NO_METADATA: NftMetadata = { name: '', description: '', image: '', attributes: [] };
const NO_URLS: NftUrls = { nft: '', image: '', transaction: '' };

const nftType = objectType<Nft>('Nft', 'An ERC-721 token minted by the service (spec §2.10).', (field) => ({
  nodeId: nodeId(),
  guid: field('ID!', "The NFT's unique id; also the address of its certificate.", 'guid'),
  network: field('String!', 'Network it was minted on.', 'network'),
  nftId: field('String', 'ERC-721 token id, decimal text; null while minting.', (n) => orNull(n.nftId)),
  txHash: field('String', 'Hash of the mint transaction; null while minting.', (n) => orNull(n.nftTxHash)),
  // MINTING, CREATED, …: the legacy name upper-cased.
  status: field('NftStatus!', 'Where the NFT is.', (n) => nftStatusName(n.status).toUpperCase()),
  owner: field('String', "The holder as the service records it: its custody wallet until transferred, then the recipient's wallet.", (n) => orNull(n.ownerAddress)),
  transferredTo: field('String', 'The recipient: an e-mail address while EMAILED, a wallet address once transferring or transferred.', 'transferredTo'),
  contractAddress: field('String', 'Address of the ERC-721 contract; null while minting.', (n) => orNull(n.contractAddress)),
  metadata: field('NftMetadata!', "The metadata JSON (the token URI's content).", (n) => n.nftJson ?? NO_METADATA),
  metadataCid: field('String!', 'CID of the metadata JSON in the content store (spec nftIPFSHash).', 'nftIpfsHash'),
  imageCid: field('String!', 'CID of the image in the content store (spec nftImageIPFSHash).', 'nftImageIpfsHash'),
  urls: field('NftUrls!', 'Metadata, image and transaction URLs (spec url).', (n) => n.url ?? NO_URLS),
  // The message carries its certificate's addresses (nftCertificateType), all three once minted.
  certificate: field('NftCertificate', 'The certificate of trust; null until the mint completed (its files are drawn when first opened).', (n) =>
    n.certificateOfTrust && n.certificateOfTrustJpg && n.certificateOfTrustUrl ? n : null,
  ),
  timestamp: field('String!', 'Milliseconds since 1970 of the last status change, as text.', (n) => String(n.timestamp)),
  mintJobId: field('ID!', 'The job that minted it.', 'mintJobId'),
  transferJobId: field('ID', 'The last transfer or claim job.', 'transferJobId'),
}), { implements: 'Node' });

const nftAttributeType = objectType<NftAttribute>('NftAttribute', 'One attribute of the metadata.', (field) => ({
  traitType: field('String!', "The metadata's trait_type.", 'traitType'),
  value: deprecated(field('JSON', 'A string, a number or a boolean.', 'value'), 'Untyped: read stringValue, numberValue or booleanValue, the one that is set.'),
  stringValue: field('String', 'The value when it is a string.', (a) => (typeof a.value === 'string' ? a.value : null)),
  numberValue: field('Float', 'The value when it is a number.', (a) => (typeof a.value === 'number' ? a.value : null)),
  booleanValue: field('Boolean', 'The value when it is a boolean.', (a) => (typeof a.value === 'boolean' ? a.value : null)),
  displayType: field('String', 'OpenSea display_type (number, boost_number, boost_percentage, date).', 'displayType'),
}));

const nftCertificateType = objectType<Nft>(
  'NftCertificate',
  'The certificate of trust of an NFT (spec certificateOfTrust, certificateOfTrustJPG, certificateOfTrustUrl). Public.',
  (field) => ({
    pdf: field('String!', 'PDF, <base>/certificates/<guid>.pdf.', 'certificateOfTrust'),
    jpg: field('String!', 'JPG, <base>/certificates/<guid>.jpg.', 'certificateOfTrustJpg'),
    page: field('String!', 'Landing page, <base>/certificates/<guid>.', 'certificateOfTrustUrl'),
  }),
);

/** In the order of the printed schema (nft-schema.ts). */
export const nftObjects = [nftType, nftMetadataObject, nftAttributeType, nftUrlsObject, nftCertificateType];

import type { Nft, NftMetadata, NftUrls } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { objectType } from '../catalogue/objects.js';
import { nftAttributeObjectWith, nftMetadataObject, nftObjectWith, nftUrlsObject } from '../generated/chain.js';

/**
 * The object types of NFTs (nft-schema.ts), declared once (catalogue/objects.ts; NftMetadata and NftUrls
 * generated from chain.proto, Nft too, completed here) and resolved from ChainService's Nft messages. The service answers '' for what is not set yet; GraphQL answers null.
 */

/** What an NFT without its metadata or URLs answers (the service always sends them once minted). */
const NO_METADATA: NftMetadata = { name: '', description: '', image: '', attributes: [] };
const NO_URLS: NftUrls = { nft: '', image: '', transaction: '' };

/** Nft is generated from chain.proto; the gateway adds the fallbacks of its metadata and URLs and its certificate. */
const nftType = nftObjectWith((field) => ({
  resolve: { metadata: (n) => n.nftJson ?? NO_METADATA, urls: (n) => n.url ?? NO_URLS },
  after: {
    urls: {
      // The message carries its certificate's addresses (nftCertificateType), all three once minted.
      certificate: field('NftCertificate', 'The certificate of trust; null until the mint completed (its files are drawn when first opened).', (n) =>
        n.certificateOfTrust && n.certificateOfTrustJpg && n.certificateOfTrustUrl ? n : null,
      ),
    },
  },
}));

/** NftAttribute is generated from chain.proto; the gateway adds the typed forms of its value. */
const nftAttributeType = nftAttributeObjectWith((field) => ({
  after: {
    value: {
      stringValue: field('String', 'The value when it is a string.', (a) => (typeof a.value === 'string' ? a.value : null)),
      numberValue: field('Float', 'The value when it is a number.', (a) => (typeof a.value === 'number' ? a.value : null)),
      booleanValue: field('Boolean', 'The value when it is a boolean.', (a) => (typeof a.value === 'boolean' ? a.value : null)),
    },
  },
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

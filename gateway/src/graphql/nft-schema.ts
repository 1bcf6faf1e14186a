import { nftOperations } from '../catalogue/chain/nfts.js';
import { inputTypesSdl, orderTypesSdl, rootFieldsSdl } from '../catalogue/sdl.js';
import { connectionType } from './pagination.js';
import { USER_ERRORS_FIELD } from './user-errors.js';

/**
 * SDL of NFTs (spec §4.13, SVC.NFT.zK): reads, the mint / transfer / send / claim / revoke mutations and
 * the NFT outcome of a job; root fields and input types written from their declarations (catalogue/sdl.ts). Appended to schema.ts's typeDefs. claimNft and revokeNftSend need no
 * X-Api-Key: the transfer code is the authority (the recipient of an e-mail has no account).
 */
export const nftTypeDefs = /* GraphQL */ `
  extend type Query {${rootFieldsSdl('Query', nftOperations)}
  }
${orderTypesSdl(nftOperations)}
  extend type Mutation {${rootFieldsSdl('Mutation', nftOperations)}
  }

  "Where an NFT is."
  enum NftStatus {
    "Mint job queued or submitted."
    MINTING
    "Minted, held by the service's custody wallet."
    CREATED
    "Transfer or claim job queued or submitted."
    TRANSFERRING
    "Held by transferredTo."
    TRANSFERRED
    "Claim link e-mailed; waiting for the claim or a revoke."
    EMAILED
  }

  "An ERC-721 token minted by the service (spec §2.10)."
  type Nft implements Node {
    "Globally unique, opaque id for node(id:) and nodes(ids:) (Relay's Node); id is unchanged."
    nodeId: ID!
    "The NFT's unique id; also the address of its certificate."
    guid: ID!
    "Network it was minted on."
    network: String!
    "ERC-721 token id, decimal text; null while minting."
    nftId: String
    "Hash of the mint transaction; null while minting."
    txHash: String
    "Where the NFT is."
    status: NftStatus!
    "The holder as the service records it: its custody wallet until transferred, then the recipient's wallet."
    owner: String
    "The recipient: an e-mail address while EMAILED, a wallet address once transferring or transferred."
    transferredTo: String
    "Address of the ERC-721 contract; null while minting."
    contractAddress: String
    "The metadata JSON (the token URI's content)."
    metadata: NftMetadata!
    "CID of the metadata JSON in the content store (spec nftIPFSHash)."
    metadataCid: String!
    "CID of the image in the content store (spec nftImageIPFSHash)."
    imageCid: String!
    "Metadata, image and transaction URLs (spec url)."
    urls: NftUrls!
    "The certificate of trust; null until rendered (after the mint)."
    certificate: NftCertificate
    "Milliseconds since 1970 of the last status change, as text."
    timestamp: String!
    "The job that minted it."
    mintJobId: ID!
    "The last transfer or claim job."
    transferJobId: ID
  }

  "The ERC-721 metadata JSON."
  type NftMetadata {
    "Name of the NFT."
    name: String!
    "Description of the NFT."
    description: String!
    "ipfs://<image CID>."
    image: String!
    "Attributes (traits), in the order given."
    attributes: [NftAttribute!]!
  }

  "One attribute of the metadata."
  type NftAttribute {
    "The metadata's trait_type."
    traitType: String!
    "A string, a number or a boolean."
    value: JSON @deprecated(reason: "Untyped: read stringValue, numberValue or booleanValue, the one that is set.")
    "The value when it is a string."
    stringValue: String
    "The value when it is a number."
    numberValue: Float
    "The value when it is a boolean."
    booleanValue: Boolean
    "OpenSea display_type (number, boost_number, boost_percentage, date)."
    displayType: String
  }

  "Where an NFT's files are (spec url)."
  type NftUrls {
    "The metadata JSON, <base>/ipfs/<CID>."
    nft: String!
    "The image, <base>/ipfs/<CID>."
    image: String!
    "The mint transaction on an explorer (the gateway's /explorer page for networks without one); null while minting."
    transaction: String
  }

  "The certificate of trust of an NFT (spec certificateOfTrust, certificateOfTrustJPG, certificateOfTrustUrl). Public."
  type NftCertificate {
    "PDF, <base>/certificates/<guid>.pdf."
    pdf: String!
    "JPG, <base>/certificates/<guid>.jpg."
    jpg: String!
    "Landing page, <base>/certificates/<guid>."
    page: String!
  }

  "Answer of sendNft: the NFT, EMAILED, and the codes of the send, in clear this once (only their hashes are kept)."
  type NftSendPayload {
    "The NFT, EMAILED; null only with userErrors."
    nft: Nft
    "Cancels the send (revokeNftSend) until it is claimed or expires. Keep it. Null only with userErrors."
    ownerCode: String
    "What the recipient got by e-mail; claims the NFT (claimNft). Null only with userErrors."
    receiverCode: String${USER_ERRORS_FIELD}
  }

  "Answer of revokeNftSend: the NFT, CREATED again."
  type NftPayload {
    "The NFT, CREATED again; null only with userErrors."
    nft: Nft${USER_ERRORS_FIELD}
  }

  "One attribute of mintNft."
  input NftAttributeInput {
    "At most 100 characters."
    traitType: String!
    "A string, a finite number or a boolean."
    value: JSON @deprecated(reason: "Untyped: give stringValue, numberValue or booleanValue instead (exactly one).")
    "A string value (exactly one of stringValue, numberValue, booleanValue)."
    stringValue: String
    "A finite number value; OpenSea's display types need one."
    numberValue: Float
    "A boolean value."
    booleanValue: Boolean
    "OpenSea display_type; needs a number value."
    displayType: String
  }

${inputTypesSdl(nftOperations)}
  extend type Job {
    "NFT jobs: the NFT's guid."
    nftGuid: ID
    "NFT jobs: the token id, once minted."
    nftId: String
    "Outcome of a completed NFT job: the NFT after it."
    nft: Nft
  }
${connectionType('Nft', 'NFTs')}`;

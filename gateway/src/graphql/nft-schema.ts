import { connectionType, PAGE_ARGS } from './pagination.js';
import { USER_ERRORS_FIELD } from './user-errors.js';

/**
 * SDL of NFTs (spec §4.13, SVC.NFT.zK): reads, the mint / transfer / send / claim / revoke mutations and
 * the NFT outcome of a job. Appended to schema.ts's typeDefs. claimNft and revokeNftSend need no
 * X-Api-Key: the transfer code is the authority (the recipient of an e-mail has no account).
 */
export const nftTypeDefs = /* GraphQL */ `
  extend type Query {
    """
    The account's NFTs whose mint was asked in [from, to] (spec list), newest first; without a range all of
    them (the pages are not capped at the spec's last 20). Minting NFTs are listed (status MINTING, no
    nftId); failed mints are not.
    """
    nfts(
      "Milliseconds since 1970, inclusive."
      from: Float
      "Milliseconds since 1970, inclusive."
      to: Float
      "Only NFTs of this network (an alias and its target are one chain)."
      network: String${PAGE_ARGS}
    ): NftConnection!
    "One NFT of the account by its guid; null when the account has none."
    nft("The NFT's guid." guid: ID!): Nft
  }

  extend type Mutation {
    "Mints an NFT to the service's custody wallet (spec new). Answers the job, QUEUED; the NFT is job.nft once COMPLETED."
    mintNft("The fields of the change, each described on MintNftInput." input: MintNftInput!): Job!
    "Sends a custodied NFT to a wallet address (spec transfer). Answers the job."
    transferNft("The fields of the change, each described on TransferNftInput." input: TransferNftInput!): Job!
    "E-mails the recipient a claim link (spec send). The NFT becomes EMAILED; the answer carries both codes, the only time they are shown."
    sendNft("The fields of the change, each described on SendNftInput." input: SendNftInput!): NftSendPayload!
    "Claims an e-mailed NFT into a wallet with the receiver code. Needs no X-Api-Key. Answers the transfer job."
    claimNft("The fields of the change, each described on ClaimNftInput." input: ClaimNftInput!): Job!
    "Cancels an e-mailed send with the owner code; the NFT is CREATED again. Needs no X-Api-Key."
    revokeNftSend("The fields of the change, each described on RevokeNftSendInput." input: RevokeNftSendInput!): Nft!
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
    value: JSON
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

  "One attribute of mintNft."
  input NftAttributeInput {
    "At most 100 characters."
    traitType: String!
    "A string, a finite number or a boolean."
    value: JSON!
    "OpenSea display_type; needs a number value."
    displayType: String
  }

  "Input of mintNft."
  input MintNftInput {
    "Network name, one of networks."
    network: String!
    "One line, at most 200 characters."
    name: String!
    "At most 5000 characters."
    description: String
    "An http(s) URL the service fetches, or a file of the content store (ipfs://<cid>, /ipfs/<cid>)."
    image: String!
    "At most 100."
    attributes: [NftAttributeInput!]
    "Same key, same job: a retry never mints twice."
    idempotencyKey: String
  }

  "Input of transferNft."
  input TransferNftInput {
    "Network the NFT is on."
    network: String!
    "Token id on that network, or the NFT's guid."
    nftId: String!
    "Wallet address, 0x and 40 hex digits, any case."
    address: String!
    "Same key, same job."
    idempotencyKey: String
  }

  "Input of sendNft."
  input SendNftInput {
    "Network the NFT is on."
    network: String!
    "Token id on that network, or the NFT's guid."
    nftId: String!
    "The recipient's e-mail address."
    email: String!
  }

  "Input of claimNft."
  input ClaimNftInput {
    "The receiver code from the e-mail."
    receiverCode: String!
    "Wallet address to receive the NFT, 0x and 40 hex digits, any case."
    address: String!
    "The NFT's guid (the claim link carries it): checked against the code."
    guid: ID
    "Same key, same job."
    idempotencyKey: String
  }

  "Input of revokeNftSend."
  input RevokeNftSendInput {
    "The owner code sendNft answered."
    ownerCode: String!
    "The NFT's guid: checked against the code."
    guid: ID
  }

  extend type Job {
    "NFT jobs: the NFT's guid."
    nftGuid: ID
    "NFT jobs: the token id, once minted."
    nftId: String
    "Outcome of a completed NFT job: the NFT after it."
    nft: Nft
  }
${connectionType('Nft', 'NFTs')}`;

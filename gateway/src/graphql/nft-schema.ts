import { nftOperations } from '../catalogue/chain/nfts.js';
import { objectTypesSdl } from '../catalogue/objects.js';
import { inputTypesSdl, orderTypesSdl, rootFieldsSdl } from '../catalogue/sdl.js';
import { nftStatusEnumSdl } from '../generated/chain.js';
import { nftObjects } from './nft-objects.js';
import { connectionType } from './pagination.js';
import { USER_ERRORS_FIELD } from './user-errors.js';

/**
 * SDL of NFTs (spec §4.13, SVC.NFT.zK): reads, the mint / transfer / send / claim / revoke mutations and
 * their answers. Root fields and input types are written from their declarations (catalogue/sdl.ts), the
 * object types from nft-objects.ts; a job's NFT outcome is declared with Job (chain-objects.ts). Appended
 * to schema.ts's typeDefs. claimNft and revokeNftSend need no X-Api-Key: the transfer code is the
 * authority (the recipient of an e-mail has no account).
 */
export const nftTypeDefs = /* GraphQL */ `
  extend type Query {${rootFieldsSdl('Query', nftOperations)}
  }
${orderTypesSdl(nftOperations)}
  extend type Mutation {${rootFieldsSdl('Mutation', nftOperations)}
  }

${nftStatusEnumSdl}
${objectTypesSdl(nftObjects)}
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
${connectionType('Nft', 'NFTs')}`;

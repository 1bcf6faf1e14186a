import { createAccount } from '../catalogue/identity/accounts.js';
import { identityOperations } from '../catalogue/identity/index.js';
import { addUser } from '../catalogue/identity/users.js';
import { objectTypesSdl } from '../catalogue/objects.js';
import { inputTypesSdl, rootFieldsSdl } from '../catalogue/sdl.js';
import { chainMutationTypeDefs } from './chain-mutations-schema.js';
import { chainTypeDefs } from './chain-schema.js';
import { frameworkMutationTypeDefs } from './framework-mutations-schema.js';
import { frameworkTypeDefs } from './framework-schema.js';
import { accountObjects, userObjects } from './identity-objects.js';
import { accountRoleEnumSdl, userRoleEnumSdl } from '../generated/identity.js';
import { jobTypeDefs } from './job-schema.js';
import { nftTypeDefs } from './nft-schema.js';
import { portfolioMutationTypeDefs } from './portfolio-mutations-schema.js';
import { portfolioTypeDefs } from './portfolio-schema.js';
import { recomputeTypeDefs } from './recompute-schema.js';
import { reportingTypeDefs } from './reporting-schema.js';
import { reportTypeDefs } from './report-schema.js';
import { subscriptionTypeDefs } from './subscription-schema.js';
import { taxonomyMutationTypeDefs } from './taxonomy-mutations-schema.js';
import { taxonomyTypeDefs } from './taxonomy-schema.js';
import { nodeTypeDefs } from './node-schema.js';
import { connectionType } from './pagination.js';
import { payloadType } from './payloads.js';
import { USER_ERRORS_FIELD, userErrorTypeDefs } from './user-errors.js';
import { scalarTypeDefs } from './scalars.js';

/**
 * The GraphQL schema (SDL). camelCase counterpart of the /v1/call identity operations plus account
 * and API-key administration, the root fields and input types the catalogue declares written from their
 * declarations (catalogue/sdl.ts), the object types from identity-objects.ts; other domains `extend type
 * Query` / `Mutation` in their own file
 * (taxonomy-schema.ts, taxonomy-mutations-schema.ts, framework-schema.ts, framework-mutations-schema.ts,
 * portfolio-schema.ts, portfolio-mutations-schema.ts, chain-schema.ts, job-schema.ts,
 * chain-mutations-schema.ts, nft-schema.ts, subscription-schema.ts, recompute-schema.ts, node-schema.ts) and are
 * appended below.
 */
const identityTypeDefs = /* GraphQL */ `
  """
  Reads. Every field needs an X-Api-Key header; without one it fails with extensions.code UNAUTHENTICATED.
  """
  type Query {
    "The account the request's API key belongs to."
    me: Account!${rootFieldsSdl('Query', identityOperations)}
  }

  "Changes. Every field needs an X-Api-Key header."
  type Mutation {${rootFieldsSdl('Mutation', identityOperations)}
  }
${accountRoleEnumSdl}${userRoleEnumSdl}
${objectTypesSdl(accountObjects)}
  "A newly issued API key with its record."
  type ApiKeyPayload {
    "The key in clear. Shown only now; the service keeps just a hash. Null only with userErrors."
    apiKey: String
    "The key's record; null only with userErrors."
    key: ApiKey
    "Ids of keys revoked by this call (rotateApiKey); empty otherwise."
    revokedKeyIds: [ID!]!${USER_ERRORS_FIELD}
  }

  "Answer of generateEncryptionKey."
  type GenerateEncryptionKeyPayload {
    "A fresh 256-bit key, 64 hex characters: give it as encryptionKey, and as decryptionKey to read. The service never stores it: keep it safe. Null only with userErrors."
    encryptionKey: String${USER_ERRORS_FIELD}
  }

  "Answer of revokeApiKey."
  type RevokeApiKeyPayload {
    "The key's record, revokedAt set; null only with userErrors."
    key: ApiKey${USER_ERRORS_FIELD}
  }

  "Result of createAccount."
  type CreateAccountPayload {
    "The new account; null only with userErrors."
    account: Account
    "Its first API key in clear. Shown only now. Null only with userErrors."
    apiKey: String
    "The key's record; null only with userErrors."
    key: ApiKey${USER_ERRORS_FIELD}
  }

${inputTypesSdl([createAccount])}
${objectTypesSdl(userObjects)}
${inputTypesSdl([addUser])}${payloadType(
  'UserPayload',
  'Answer of addUser, addGroupToUser and removeGroupFromUser.',
  'user',
  'User',
  "The user as users(userIdentifier, decryptionKey) reads it after the change, with addUser's encryptionKey as the key: names and e-mail in clear only with it, else masked when stored encrypted.",
)}${payloadType(
  'UserInvestorsPayload',
  'Answer of addInvestorToUser and removeInvestorFromUser.',
  'userInvestors',
  'UserInvestors',
  "The user's investor access as investorsOfUser(userIdentifier) reads it after the change, without a key: encrypted investor names masked.",
)}
  "Answer of a removal: the service's message, and the id of the item removed. Nothing is left to read."
  type RemovalPayload {
    "The service's message, as /v1/call returns it."
    message: String!
    "Id of the item created, changed or removed, when the service answers one."
    id: ID
    "Id of the removed item, for evicting it from a client cache; null when the caller could not read it before the removal."
    removedId: ID${USER_ERRORS_FIELD}
  }
${connectionType('User', 'users')}${connectionType('Account', 'accounts')}`;

export const typeDefs =
  identityTypeDefs +
  taxonomyTypeDefs +
  taxonomyMutationTypeDefs +
  frameworkTypeDefs +
  frameworkMutationTypeDefs +
  reportingTypeDefs +
  portfolioTypeDefs +
  portfolioMutationTypeDefs +
  chainTypeDefs +
  jobTypeDefs +
  chainMutationTypeDefs +
  nftTypeDefs +
  subscriptionTypeDefs +
  recomputeTypeDefs +
  reportTypeDefs +
  nodeTypeDefs +
  userErrorTypeDefs +
  scalarTypeDefs;

import { createAccount } from '../catalogue/identity/accounts.js';
import { identityOperations } from '../catalogue/identity/index.js';
import { addUser } from '../catalogue/identity/users.js';
import { inputTypesSdl, rootFieldsSdl } from '../catalogue/sdl.js';
import { chainMutationTypeDefs } from './chain-mutations-schema.js';
import { chainTypeDefs } from './chain-schema.js';
import { frameworkMutationTypeDefs } from './framework-mutations-schema.js';
import { frameworkTypeDefs } from './framework-schema.js';
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
 * declarations (catalogue/sdl.ts); other domains `extend type Query` / `Mutation` in their own file
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

  "Role of an account of the service."
  enum AccountRole {
    "Administers accounts and changes shared reference data (taxonomy, currencies, FX rates)."
    OPERATOR
    "Owns its own frameworks, projects, assets, investors and users."
    USER
  }

  "Role of a user within an account, as the spec names it (user_role)."
  enum UserRole {
    "An ordinary user."
    USER
    "An administrator of the account's users."
    ADMIN
  }

  "A customer of the service; API keys belong to accounts, and data is scoped by account."
  type Account implements Node {
    "Globally unique, opaque id for node(id:) and nodes(ids:) (Relay's Node); id is unchanged."
    nodeId: ID!
    "Account id."
    id: ID!
    "Display name."
    name: String!
    "What the account may do."
    role: AccountRole!
    "Creation time, RFC 3339."
    createdAt: DateTime!
  }

  "An API key's record. The key itself is shown only once, when issued."
  type ApiKey {
    "Key id, used to revoke it."
    id: ID!
    "Account the key belongs to."
    accountId: ID!
    "Last four characters of the key, to tell keys apart."
    hint: String!
    "Creation time, RFC 3339."
    createdAt: DateTime!
    "Revocation time, RFC 3339; null while the key is active."
    revokedAt: DateTime
    "Time of last use, RFC 3339; null if never used."
    lastUsedAt: DateTime
  }

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
  "A user of an account (spec user)."
  type User implements Node {
    "Globally unique, opaque id for node(id:) and nodes(ids:) (Relay's Node); id is unchanged."
    nodeId: ID!
    "User id (spec user_id)."
    id: ID!
    "The account's identifier for the user (spec user_identifier)."
    identifier: String!
    "First name; masked when stored encrypted and no matching decryptionKey was given; null when not set."
    firstName: String
    "Last name; masked or null as firstName."
    lastName: String
    "E-mail address; masked or null as firstName."
    email: String
    "Role of the user."
    role: UserRole!
    "Groups the user is in."
    groups: [Group!]!
    "True when the user's names and e-mail are stored encrypted."
    encrypted: Boolean!
    "True when names and e-mail are returned masked (encrypted and no matching key given)."
    masked: Boolean!
  }

  "A group users can be put in."
  type Group {
    "Group id."
    id: ID!
    "Group name, e.g. investors."
    name: String!
  }

  "A user and the investors the user may access."
  type UserInvestors {
    "User id."
    userId: ID!
    "The user's identifier."
    userIdentifier: String!
    "Investors the user may access."
    investors: [AccessibleInvestor!]!
  }

  "An investor a user may access."
  type AccessibleInvestor {
    "Investor id; null when the account has no investor with this identifier (or the gateway has no portfolio backend)."
    id: ID
    "The investor's identifier."
    identifier: String!
    "Investor name (PII), masked unless decryptionKey opens it; null when id is null."
    name: String
  }

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

import type { InvestorDetails, UserWithInvestors } from '../composition/investor-details.js';
import { objectType } from '../catalogue/objects.js';
import { accountObject, apiKeyInfoObject, groupObject, userObject } from '../generated/identity.js';

/**
 * The object types of accounts, API keys, users and their investor access (schema.ts). Account, ApiKey,
 * User and Group are generated from identity.proto's annotated messages (scripts/catalogue-generate.mjs);
 * written here by hand are only the types of composition: a user's investors as composition reads them
 * from the portfolio service (composition/investor-details.ts).
 */

const userInvestorsType = objectType<UserWithInvestors>('UserInvestors', 'A user and the investors the user may access.', (field) => ({
  userId: field('ID!', 'User id.', 'userId'),
  userIdentifier: field('String!', "The user's identifier.", 'userIdentifier'),
  investors: field('[AccessibleInvestor!]!', 'Investors the user may access.', 'investors'),
}));

const accessibleInvestorType = objectType<InvestorDetails>('AccessibleInvestor', 'An investor a user may access.', (field) => ({
  id: field('ID', 'Investor id; null when the account has no investor with this identifier (or the gateway has no portfolio backend).', 'investorId'),
  identifier: field('String!', "The investor's identifier.", 'investorIdentifier'),
  name: field('String', 'Investor name (PII), masked unless decryptionKey opens it; null when id is null.', 'investorName'),
}));

/** Written by schema.ts, in these two places and orders. */
export const accountObjects = [accountObject, apiKeyInfoObject];
export const userObjects = [userObject, groupObject, userInvestorsType, accessibleInvestorType];

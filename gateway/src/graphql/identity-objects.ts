import { AccountRole, UserRole, type Account, type ApiKeyInfo, type Group, type User } from '@green-impact/proto/greenimpact/identity/v1/identity';
import type { InvestorDetails, UserWithInvestors } from '../composition/investor-details.js';
import { nodeId, objectType } from '../catalogue/objects.js';

/**
 * The object types of accounts, API keys, users and their investor access (schema.ts), declared once
 * (catalogue/objects.ts) and resolved from IdentityService's messages; a user's investors as composition
 * reads them from the portfolio service (composition/investor-details.ts).
 */

const accountType = objectType<Account>('Account', 'A customer of the service; API keys belong to accounts, and data is scoped by account.', (field) => ({
  nodeId: nodeId(),
  id: field('ID!', 'Account id.', 'id'),
  name: field('String!', 'Display name.', 'name'),
  role: field('AccountRole!', 'What the account may do.', (a) => (a.role === AccountRole.ACCOUNT_ROLE_OPERATOR ? 'OPERATOR' : 'USER')),
  createdAt: field('DateTime!', 'Creation time, RFC 3339.', 'createdAt'),
}), { implements: 'Node' });

const apiKeyType = objectType<ApiKeyInfo>('ApiKey', "An API key's record. The key itself is shown only once, when issued.", (field) => ({
  id: field('ID!', 'Key id, used to revoke it.', 'id'),
  accountId: field('ID!', 'Account the key belongs to.', 'accountId'),
  hint: field('String!', 'Last four characters of the key, to tell keys apart.', 'hint'),
  createdAt: field('DateTime!', 'Creation time, RFC 3339.', 'createdAt'),
  revokedAt: field('DateTime', 'Revocation time, RFC 3339; null while the key is active.', 'revokedAt'),
  lastUsedAt: field('DateTime', 'Time of last use, RFC 3339; null if never used.', 'lastUsedAt'),
}));

// Names and e-mail never set come as '': GraphQL answers null.
const userType = objectType<User>('User', 'A user of an account (spec user).', (field) => ({
  nodeId: nodeId(),
  id: field('ID!', 'User id (spec user_id).', 'userId'),
  identifier: field('String!', "The account's identifier for the user (spec user_identifier).", 'userIdentifier'),
  firstName: field(
    'String',
    'First name; masked when stored encrypted and no matching decryptionKey was given; null when not set.',
    (u) => u.userFirstName || null,
  ),
  lastName: field('String', 'Last name; masked or null as firstName.', (u) => u.userLastName || null),
  email: field('String', 'E-mail address; masked or null as firstName.', (u) => u.userEmail || null),
  role: field('UserRole!', 'Role of the user.', (u) => (u.userRole === UserRole.USER_ROLE_ADMIN ? 'ADMIN' : 'USER')),
  groups: field('[Group!]!', 'Groups the user is in.', 'userGroups'),
  encrypted: field('Boolean!', "True when the user's names and e-mail are stored encrypted.", 'encrypted'),
  masked: field('Boolean!', 'True when names and e-mail are returned masked (encrypted and no matching key given).', 'masked'),
}), { implements: 'Node' });

const groupType = objectType<Group>('Group', 'A group users can be put in.', (field) => ({
  id: field('ID!', 'Group id.', 'id'),
  name: field('String!', 'Group name, e.g. investors.', 'group'),
}));

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
export const accountObjects = [accountType, apiKeyType];
export const userObjects = [userType, groupType, userInvestorsType, accessibleInvestorType];

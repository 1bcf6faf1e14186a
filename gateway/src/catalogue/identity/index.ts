import { accountOperations } from './accounts.js';
import { userOperations } from './users.js';

/** The identity domain: users, groups, investor access and PII keys (spec §4.11, §4.9), accounts and API keys. */
export const identityOperations = [...userOperations, ...accountOperations];

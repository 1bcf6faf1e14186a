import { AccountRole, type Account, type ApiKeyInfo } from '@green-impact/proto/greenimpact/identity/v1/identity';
import { InternalError } from '@green-impact/shared/errors';
import { identifier, oneOf, text } from '../fields.js';
import { declare } from '../operation.js';
import { ESG } from '../renders.js';
import { pageFields } from '../../graphql/pagination.js';

/**
 * Accounts and API keys: GraphQL's own operations (no /v1/call twin), served by IdentityService, which
 * owns every rule (who may act on which account, a name of 1 to 255 characters, the ids' lengths) and the
 * refusals' texts. `me` needs no call (it is the authenticated key's account) and stays a resolver of
 * graphql/resolvers/account-resolvers.ts. The accounts list is paged by the service (GraphqlFace.paged).
 */

const accountId = identifier('account_id', { doc: "The account; defaults to the caller's.", graphql: 'ID' }).optional();

/** The key record of an answer: identity always returns it; its absence is a contract breach, not a client error. */
function keyRecord(k: ApiKeyInfo | undefined): ApiKeyInfo {
  if (!k) throw new InternalError('Internal error.', { cause: new Error('identity returned no key record') });
  return k;
}

/** Account ids (UUIDs as the identity service issues them; the service refuses one that names no account). */
const ACCOUNT_ID = /^[0-9a-z]+(-[0-9a-z]+)+$/;

export const listAccounts = declare({
  solution: ESG,
  summary: 'Every account of the service, in creation order. Operators only.',
  input: {},
  service: 'identity',
  method: 'listAccounts',
  request: (_i, ctx) => pageFields(ctx.page),
  graphql: {
    paged: { idOf: (a: Account) => a.id, idPattern: ACCOUNT_ID },
    returns: 'AccountConnection!',
    nested: false,
    render: async (call) => {
      const res = await call();
      return { items: res.accounts, nextPageToken: res.nextPageToken, totalCount: res.totalCount ?? res.accounts.length };
    },
  },
});

export const listApiKeys = declare({
  solution: ESG,
  summary: 'API keys of an account, without their secrets; other accounts than the caller\'s need an operator.',
  input: { accountId },
  service: 'identity',
  method: 'listApiKeys',
  request: (i) => ({ accountId: i.accountId }),
  graphql: { returns: '[ApiKey!]!', nested: false, render: async (call) => (await call()).keys },
});

export const createAccount = declare({
  solution: ESG,
  summary: 'Creates an account and its first API key. Operators only.',
  input: {
    name: text('name', { doc: 'Display name, 1 to 255 characters.' }),
    role: oneOf('role', ['USER', 'OPERATOR'], { graphql: 'AccountRole', doc: 'Role of the new account.' }),
  },
  service: 'identity',
  method: 'createAccount',
  request: (i) => ({ name: i.name, role: i.role === 'OPERATOR' ? AccountRole.ACCOUNT_ROLE_OPERATOR : AccountRole.ACCOUNT_ROLE_USER }),
  graphql: {
    returns: 'CreateAccountPayload!',
    nested: true,
    render: async (call) => {
      const res = await call();
      if (!res.account) throw new InternalError('Internal error.', { cause: new Error('identity returned no account') });
      return { account: res.account, apiKey: res.apiKey, key: keyRecord(res.key) };
    },
  },
});

export const rotateApiKey = declare({
  solution: ESG,
  summary: 'Revokes every active key of an account and issues a new one.',
  input: { accountId },
  service: 'identity',
  method: 'rotateApiKey',
  request: (i) => ({ accountId: i.accountId }),
  graphql: {
    returns: 'ApiKeyPayload!',
    nested: false,
    render: async (call) => {
      const res = await call();
      return { apiKey: res.apiKey, key: keyRecord(res.key), revokedKeyIds: res.revokedKeyIds };
    },
  },
});

export const issueApiKey = declare({
  solution: ESG,
  summary: 'Issues an additional API key.',
  input: { accountId },
  service: 'identity',
  method: 'issueApiKey',
  request: (i) => ({ accountId: i.accountId }),
  graphql: {
    returns: 'ApiKeyPayload!',
    nested: false,
    render: async (call) => {
      const res = await call();
      return { apiKey: res.apiKey, key: keyRecord(res.key), revokedKeyIds: [] };
    },
  },
});

export const revokeApiKey = declare({
  solution: ESG,
  summary: 'Revokes one API key.',
  input: { keyId: identifier('key_id', { doc: 'Id of the key (not the key itself).', graphql: 'ID' }) },
  service: 'identity',
  method: 'revokeApiKey',
  request: (i) => ({ keyId: i.keyId }),
  graphql: { returns: 'RevokeApiKeyPayload!', nested: false, render: async (call) => ({ key: keyRecord((await call()).key) }) },
});

export const accountOperations = [listAccounts, listApiKeys, createAccount, rotateApiKey, issueApiKey, revokeApiKey];

import { InternalError } from '@green-impact/shared/errors';
import { validateParameters } from '../../v1/parameters.js';
import { callAs, type GraphqlContext } from '../context.js';
import { account, accountRoleFromGql, apiKey, type GqlAccountRole } from '../mappers.js';
import type { ServicePage } from '../pagination.js';

/** Accounts and API keys: `me`, operator administration, key issue/rotate/revoke. */

const accountIdParam = { account_id: { type: 'identifier' } } as const;
const keyIdParam = { key_id: { type: 'identifier', required: true } } as const;
const createAccountParams = { name: { type: 'string', required: true, maxLength: 255 } } as const;

function optionalAccountId(args: { accountId?: string | null }) {
  return validateParameters(accountIdParam, { account_id: args.accountId }, { account_id: 'accountId' }).account_id;
}

export const accountQueries = {
  async me(_: unknown, __: unknown, ctx: GraphqlContext) {
    return account((await ctx.auth()).account);
  },
  /** The accounts connection: the identity service pages the listing, in creation order (servicePaged in index.ts). */
  async accounts(_: unknown, __: unknown, ctx: GraphqlContext, page: { pageSize: number; pageToken: string | undefined }): Promise<ServicePage<ReturnType<typeof account>>> {
    const req = { pageSize: page.pageSize, ...(page.pageToken === undefined ? {} : { pageToken: page.pageToken }) };
    const res = await ctx.clients.identity.listAccounts(req, await callAs(ctx));
    return { items: res.accounts.map(account), nextPageToken: res.nextPageToken, totalCount: res.totalCount ?? res.accounts.length };
  },
  async apiKeys(_: unknown, args: { accountId?: string | null }, ctx: GraphqlContext) {
    const opts = await callAs(ctx);
    const { keys } = await ctx.clients.identity.listApiKeys({ accountId: optionalAccountId(args) }, opts);
    return keys.map(apiKey);
  },
};

export const accountMutations = {
  async createAccount(_: unknown, args: { input: { name: string; role: GqlAccountRole } }, ctx: GraphqlContext) {
    const opts = await callAs(ctx);
    const { name } = validateParameters(createAccountParams, { name: args.input.name }, { name: 'input.name' });
    const res = await ctx.clients.identity.createAccount({ name, role: accountRoleFromGql(args.input.role) }, opts);
    if (!res.account) throw new InternalError('Internal error.', { cause: new Error('identity returned no account') });
    return { account: account(res.account), apiKey: res.apiKey, key: apiKey(res.key) };
  },
  async rotateApiKey(_: unknown, args: { accountId?: string | null }, ctx: GraphqlContext) {
    const opts = await callAs(ctx);
    const res = await ctx.clients.identity.rotateApiKey({ accountId: optionalAccountId(args) }, opts);
    return { apiKey: res.apiKey, key: apiKey(res.key), revokedKeyIds: res.revokedKeyIds };
  },
  async issueApiKey(_: unknown, args: { accountId?: string | null }, ctx: GraphqlContext) {
    const opts = await callAs(ctx);
    const res = await ctx.clients.identity.issueApiKey({ accountId: optionalAccountId(args) }, opts);
    return { apiKey: res.apiKey, key: apiKey(res.key), revokedKeyIds: [] };
  },
  async revokeApiKey(_: unknown, args: { keyId: string }, ctx: GraphqlContext) {
    const opts = await callAs(ctx);
    const { key_id } = validateParameters(keyIdParam, { key_id: args.keyId }, { key_id: 'keyId' });
    const res = await ctx.clients.identity.revokeApiKey({ keyId: key_id }, opts);
    return apiKey(res.key);
  },
};

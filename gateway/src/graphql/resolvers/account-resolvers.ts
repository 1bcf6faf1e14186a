import type { GraphqlContext } from '../context.js';

/**
 * `me`: the account of the request's API key, as authentication found it. It calls no service, so it has
 * no declaration; the account and key operations are declared in catalogue/identity/accounts.ts.
 */
export const accountQueries = {
  async me(_: unknown, __: unknown, ctx: GraphqlContext) {
    return (await ctx.auth()).account;
  },
};

import { NotFoundError } from '@green-impact/shared/errors';
import { portfolioClient } from '../../clients.js';
import type { CallContext } from '../operation.js';
import { pageFields } from './fields.js';

/** The `investor_identifiers_allowed` / `investor_filter_active` pair of GetPositions and GetPortfolios. */
export interface InvestorFilter {
  investorIdentifiersAllowed: string[];
  investorFilterActive: boolean;
}

export const NO_INVESTOR_FILTER: InvestorFilter = { investorIdentifiersAllowed: [], investorFilterActive: false };

/**
 * COMPOSITION POINT of the spec's `user_identifier` filter (§5.4): identity knows which investors a user
 * may access, the portfolio service lists positions and portfolios. Without a user the filter is off; with
 * one, identity's list is passed on and the filter is on, so a user given no investors sees nothing. An
 * unknown user is identity's NOT_FOUND `No such user.` (§7). Both faces come here from a declaration's
 * `request`.
 */
export async function investorFilterOfUser(userIdentifier: string | undefined, ctx: CallContext): Promise<InvestorFilter> {
  if (userIdentifier === undefined) return NO_INVESTOR_FILTER;
  const { users } = await ctx.clients.identity.getInvestorsOfUser({ userIdentifier }, { caller: ctx.caller, requestId: ctx.requestId });
  const user = users.find((u) => u.userIdentifier === userIdentifier);
  if (!user) throw new NotFoundError('No such user.');
  return { investorIdentifiersAllowed: [...user.investorIdentifiers], investorFilterActive: true };
}

/** What a GetPositions or GetPortfolios listing asks for, whichever face. */
export interface Listing {
  investorIdentifier?: string | undefined;
  assetIdentifier?: string | undefined;
  userIdentifier?: string | undefined;
  decryptionKey?: string | undefined;
}

/**
 * The request fields GetPositions and GetPortfolios share: the investor ('' for every investor of the
 * account), the asset, the key, the user filter resolved through identity and the page. The portfolio
 * backend is picked before the first call: without one the answer is 503 whatever the user.
 */
export async function listingRequest(i: Listing, ctx: CallContext) {
  portfolioClient(ctx.clients);
  return {
    investorIdentifier: i.investorIdentifier ?? '',
    assetIdentifier: i.assetIdentifier,
    decryptionKey: i.decryptionKey,
    ...(await investorFilterOfUser(i.userIdentifier, ctx)),
    ...pageFields(ctx.page),
  };
}

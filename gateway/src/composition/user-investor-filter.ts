import { NotFoundError } from '@green-impact/shared/errors';
import type { CompositionContext } from './investor-details.js';

/** The `investor_identifiers_allowed` / `investor_filter_active` pair of GetPositions and GetPortfolios. */
export interface InvestorFilter {
  investorIdentifiersAllowed: string[];
  investorFilterActive: boolean;
}

/**
 * COMPOSITION POINT of the spec's `user_identifier` filter (§5.4): identity knows which investors a user
 * may access, the portfolio service lists positions and portfolios. Without a user the filter is off; with
 * one, identity's list is passed on and the filter is on, so a user given no investors sees nothing. An
 * unknown user is identity's NOT_FOUND `No such user.` (§7).
 */
export async function investorFilterOfUser(userIdentifier: string | undefined, ctx: CompositionContext): Promise<InvestorFilter> {
  if (userIdentifier === undefined) return { investorIdentifiersAllowed: [], investorFilterActive: false };
  const { users } = await ctx.clients.identity.getInvestorsOfUser({ userIdentifier }, { caller: ctx.caller, requestId: ctx.requestId });
  const user = users.find((u) => u.userIdentifier === userIdentifier);
  if (!user) throw new NotFoundError('No such user.');
  return { investorIdentifiersAllowed: [...user.investorIdentifiers], investorFilterActive: true };
}

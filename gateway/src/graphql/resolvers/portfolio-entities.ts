import type { GraphqlContext } from '../context.js';
import type { GqlAsset, GqlInvestor, GqlPortfolio } from '../portfolio-objects.js';
import { changePayload, type ServiceAnswer } from '../payloads.js';
import { portfolioQueries } from './portfolio-resolvers.js';

/**
 * The asset, investor or portfolio a change's payload carries (payloads.ts), read as asset(identifier),
 * investor(identifier, decryptionKey) and portfolio(identifier, decryptionKey) read it for the caller.
 * Investor names and e-mails are PII: a payload shows them in clear only with the key the change itself
 * was given (addInvestor's encryptionKey), else masked as those reads show them without a key, so a
 * payload never reveals more than the Query would with the same arguments.
 */

export function assetPayload(ctx: GraphqlContext, answer: ServiceAnswer, identifier: string) {
  return changePayload(ctx, answer, 'asset', (): Promise<GqlAsset | null> => portfolioQueries.asset(undefined, { identifier }, ctx));
}

export function investorPayload(ctx: GraphqlContext, answer: ServiceAnswer, identifier: string, decryptionKey: string | undefined) {
  return changePayload(ctx, answer, 'investor', (): Promise<GqlInvestor | null> =>
    portfolioQueries.investor(undefined, { identifier, decryptionKey }, ctx),
  );
}

/** The portfolio without a key: its investor reads masked, as portfolio(identifier) shows it. */
export function portfolioPayload(ctx: GraphqlContext, answer: ServiceAnswer, identifier: string) {
  return changePayload(ctx, answer, 'portfolio', (): Promise<GqlPortfolio | null> => portfolioQueries.portfolio(undefined, { identifier }, ctx));
}

/** The id of the asset a removal names, read before it (payloads.ts's removalPayload). */
export const assetIdOf = (ctx: GraphqlContext, identifier: string) => async () => (await portfolioQueries.asset(undefined, { identifier }, ctx))?.id;

/** The id of the investor a removal names, read before it, without a key (only its id is used). */
export const investorIdOf = (ctx: GraphqlContext, identifier: string) => async () => (await portfolioQueries.investor(undefined, { identifier }, ctx))?.id;

/** The id of the portfolio a removal names, read before it. */
export const portfolioIdOf = (ctx: GraphqlContext, identifier: string) => async () => (await portfolioQueries.portfolio(undefined, { identifier }, ctx))?.id;

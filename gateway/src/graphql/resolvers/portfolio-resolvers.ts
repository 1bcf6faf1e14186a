import type { GraphQLResolveInfo } from 'graphql';
import { NotFoundError } from '@green-impact/shared/errors';
import { withLabels } from '../../catalogue/graphql.js';
import type { GraphqlContext } from '../context.js';
import { frameworkReads, type GqlFramework } from '../framework-reads.js';
import { IMPACT_KEY, impactKeyOf, toAssetFrameworkDetails, type GqlAsset, type GqlImpactSummary, type GqlInvestor, type GqlPortfolio, type GqlPosition } from '../portfolio-objects.js';
import { servicePaged, type PageRequest } from '../pagination.js';
import { portfolioReads } from '../portfolio-reads.js';
import { selectsField } from '../selects-field.js';

/**
 * The nested fields of Asset, Investor, Position and Portfolio (their root fields are the catalogue's:
 * catalogue/portfolio/). They resolve through the request's batched reads (portfolio-reads.ts) and start
 * their loads without awaiting anything first, so the siblings of a list join one batch. The services own
 * the rules of their arguments (a 4-digit year, a language); a refusal names the argument as the field
 * does (`year`, `languageCode`).
 */

type Maybe<T> = T | null | undefined;

const YEAR = { reporting_year: 'year' };

/** The position's or portfolio's investor; it always exists (removing an investor removes both). */
async function investorOf(holder: { investorIdentifier: string; decryptionKey: string | undefined }, ctx: GraphqlContext): Promise<GqlInvestor> {
  const found = await portfolioReads(ctx).investor(holder.investorIdentifier, holder.decryptionKey);
  if (!found) throw new NotFoundError('No such investor.');
  return found;
}

const present = <T>(items: (T | undefined)[]): T[] => items.filter((i): i is T => i !== undefined);

/** Nested fields of Asset, Investor, Position and Portfolio (Framework.assets is in framework-resolvers.ts). */
export const portfolioTypes = {
  Asset: {
    /** Read by identifier as the caller; only the framework the asset was linked to (same id) is answered. */
    async framework(a: GqlAsset, args: { year: number }, ctx: GraphqlContext): Promise<GqlFramework | null> {
      const found = await withLabels(frameworkReads(ctx).frameworkByIdentifier(a.frameworkIdentifier, args.year), YEAR);
      return found && found.id === a.frameworkId ? found : null;
    },
    async frameworkDetails(a: GqlAsset, args: { year: number; languageCode?: Maybe<string> }, ctx: GraphqlContext) {
      const languageCode = args.languageCode ?? undefined;
      const read = portfolioReads(ctx).assetFrameworkDetails(a.identifier, args.year, languageCode);
      const detail = await withLabels(read, { ...YEAR, language_code: 'languageCode' });
      return detail ? toAssetFrameworkDetails(detail, args.year, languageCode) : null;
    },
  },
  Investor: {
    positions: (i: GqlInvestor, _: unknown, ctx: GraphqlContext) => portfolioReads(ctx).positionsOfInvestor(i.identifier, i.decryptionKey),
    portfolios: (i: GqlInvestor, _: unknown, ctx: GraphqlContext) => portfolioReads(ctx).portfoliosOfInvestor(i.identifier, i.decryptionKey),
    impacts: (i: GqlInvestor, args: { year: number; computeMissing?: Maybe<boolean> }, ctx: GraphqlContext, info: GraphQLResolveInfo) =>
      withLabels(portfolioReads(ctx).investorImpacts(i.identifier, args.year, args.computeMissing === true, selectsField(info, 'records')), YEAR),
  },
  Position: {
    investor: (p: GqlPosition, _: unknown, ctx: GraphqlContext) => investorOf(p, ctx),
    asset: async (p: GqlPosition, _: unknown, ctx: GraphqlContext) => (await portfolioReads(ctx).asset(p.assetIdentifier)) ?? null,
    impacts: (p: GqlPosition, args: { year: number }, ctx: GraphqlContext) => withLabels(portfolioReads(ctx).positionImpacts(p, args.year), YEAR),
  },
  ImpactSummary: {
    // A summary's records a page at a time, streamed by the service whatever their number (records holds them all).
    recordConnection: servicePaged(
      (summary: GqlImpactSummary, _args: unknown, ctx: GraphqlContext, page: PageRequest) => {
        if (!summary.scope) throw new Error('An ImpactSummary without its scope.');
        return withLabels(portfolioReads(ctx).impactRecordPage(summary.scope, summary.year, page), YEAR);
      },
      impactKeyOf,
      IMPACT_KEY,
    ),
  },
  Portfolio: {
    investor: (p: GqlPortfolio, _: unknown, ctx: GraphqlContext) => investorOf(p, ctx),
    positions: async (p: GqlPortfolio, _: unknown, ctx: GraphqlContext) =>
      present(await Promise.all(p.positionIds.map((id) => portfolioReads(ctx).position(id, p.decryptionKey)))),
    assets: async (p: GqlPortfolio, _: unknown, ctx: GraphqlContext) =>
      present(await Promise.all(p.assetIdentifiers.map((identifier) => portfolioReads(ctx).asset(identifier)))),
    impacts: (p: GqlPortfolio, args: { year: number; computeMissing?: Maybe<boolean> }, ctx: GraphqlContext, info: GraphQLResolveInfo) =>
      withLabels(portfolioReads(ctx).portfolioImpacts(p.identifier, args.year, args.computeMissing === true, selectsField(info, 'records')), YEAR),
  },
};

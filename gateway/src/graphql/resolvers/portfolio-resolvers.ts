import type { GraphQLResolveInfo } from 'graphql';
import { NotFoundError } from '@green-impact/shared/errors';
import { portfolioClient } from '../../clients.js';
import { investorFilterOfUser } from '../../composition/user-investor-filter.js';
import { toVisibility } from '../../v1/operations/framework-params.js';
import {
  assetIdentifierParams,
  getAssetFrameworkDetailsParams,
  getAssetsParams,
  getInvestorsParams,
  getPortfoliosParams,
  getPositionsParams,
  portfolioIdentifierParams,
  portfolioParams,
} from '../../v1/operations/portfolio-params.js';
import { validateParameters } from '../../v1/parameters.js';
import { callAs, type GraphqlContext } from '../context.js';
import { frameworkReads, type GqlFramework, type GqlVisibility } from '../framework-reads.js';
import { toAssetFrameworkDetails, type GqlAsset, type GqlInvestor, type GqlPortfolio, type GqlPosition } from '../portfolio-objects.js';
import { portfolioReads, type PageRequest } from '../portfolio-reads.js';
import { selectsField } from '../selects-field.js';

/**
 * Assets, investors, positions, portfolios and impacts: the GraphQL face of spec §4.8–§4.10 reads.
 * Top-level fields authenticate, check that a portfolio backend is configured (503 UNAVAILABLE otherwise),
 * then validate with the /v1/call parameter specs; nested fields resolve through the request's batched
 * reads (portfolio-reads.ts) and start their loads without awaiting anything first, so the siblings of a
 * list join one batch.
 */

type Maybe<T> = T | null | undefined;

const labels = {
  issuer_visibility: 'visibility',
  issuer_identifier: 'issuerIdentifier',
  framework_identifier: 'frameworkIdentifier',
  asset_identifier: 'assetIdentifier',
  investor_identifier: 'investorIdentifier',
  portfolio_identifier: 'identifier',
  user_identifier: 'userIdentifier',
  decryption_key: 'decryptionKey',
  reporting_year: 'year',
  language_code: 'languageCode',
} as const;

/** GraphQL lists every investor of the account when no investor is named (the proto's empty identifier). */
const listPositionsParams = { ...getPositionsParams, investor_identifier: portfolioParams.optionalIdentifier } as const;
const listPortfoliosParams = { ...getPortfoliosParams, investor_identifier: portfolioParams.optionalIdentifier } as const;
const investorParams = { investor_identifier: portfolioParams.investorIdentifier, decryption_key: portfolioParams.decryptionKey } as const;
const portfolioReadParams = { ...portfolioIdentifierParams, decryption_key: portfolioParams.decryptionKey } as const;
const yearParams = { reporting_year: portfolioParams.reportingYear } as const;

/** Authenticates, then picks the portfolio client (UNAVAILABLE without one) before any validation. */
async function prepare(ctx: GraphqlContext) {
  const opts = await callAs(ctx);
  portfolioClient(ctx.clients);
  return { caller: opts.caller, requestId: ctx.requestId, clients: ctx.clients };
}

const yearOf = (year: number) => validateParameters(yearParams, { reporting_year: year }, labels).reporting_year;

export const portfolioQueries = {
  /** The assets connection: the portfolio service pages the listing (servicePaged in index.ts). */
  async assets(
    _: unknown,
    args: { issuerIdentifier?: Maybe<string>; frameworkIdentifier?: Maybe<string>; visibility?: Maybe<GqlVisibility> },
    ctx: GraphqlContext,
    page: PageRequest,
  ) {
    await prepare(ctx);
    const p = validateParameters(
      getAssetsParams,
      { issuer_visibility: args.visibility, issuer_identifier: args.issuerIdentifier, framework_identifier: args.frameworkIdentifier },
      labels,
    );
    const filter = { visibility: toVisibility(p.issuer_visibility), issuerIdentifier: p.issuer_identifier, frameworkIdentifier: p.framework_identifier };
    return portfolioReads(ctx).assetsPage(filter, page);
  },
  async asset(_: unknown, args: { identifier: string }, ctx: GraphqlContext): Promise<GqlAsset | null> {
    await prepare(ctx);
    const p = validateParameters(assetIdentifierParams, { asset_identifier: args.identifier }, { asset_identifier: 'identifier' });
    return (await portfolioReads(ctx).asset(p.asset_identifier)) ?? null;
  },
  /** The investors connection: the portfolio service pages the listing (servicePaged in index.ts). */
  async investors(_: unknown, args: { decryptionKey?: Maybe<string> }, ctx: GraphqlContext, page: { pageSize: number; pageToken: string | undefined }) {
    await prepare(ctx);
    const p = validateParameters(getInvestorsParams, { decryption_key: args.decryptionKey }, labels);
    return portfolioReads(ctx).investorsPage(p.decryption_key, page);
  },
  async investor(_: unknown, args: { identifier: string; decryptionKey?: Maybe<string> }, ctx: GraphqlContext): Promise<GqlInvestor | null> {
    await prepare(ctx);
    const p = validateParameters(investorParams, { investor_identifier: args.identifier, decryption_key: args.decryptionKey }, { ...labels, investor_identifier: 'identifier' });
    return (await portfolioReads(ctx).investor(p.investor_identifier, p.decryption_key)) ?? null;
  },
  /** The positions connection: the portfolio service pages the listing (servicePaged in index.ts). */
  async positions(_: unknown, args: PositionsArgs, ctx: GraphqlContext, page: { pageSize: number; pageToken: string | undefined }) {
    return portfolioReads(ctx).positionsPage(await positionListing(args, ctx), page);
  },
  /** The portfolios connection: the portfolio service pages the listing (servicePaged in index.ts). */
  async portfolios(
    _: unknown,
    args: { investorIdentifier?: Maybe<string>; assetIdentifier?: Maybe<string>; userIdentifier?: Maybe<string>; decryptionKey?: Maybe<string> },
    ctx: GraphqlContext,
    page: PageRequest,
  ) {
    const composition = await prepare(ctx);
    const p = validateParameters(
      listPortfoliosParams,
      { investor_identifier: args.investorIdentifier, asset_identifier: args.assetIdentifier, user_identifier: args.userIdentifier, decryption_key: args.decryptionKey },
      labels,
    );
    const filter = await investorFilterOfUser(p.user_identifier, composition);
    const listing = { investorIdentifier: p.investor_identifier ?? '', assetIdentifier: p.asset_identifier, decryptionKey: p.decryption_key, filter };
    return portfolioReads(ctx).portfoliosPage(listing, page);
  },
  async portfolio(_: unknown, args: { identifier: string; decryptionKey?: Maybe<string> }, ctx: GraphqlContext): Promise<GqlPortfolio | null> {
    await prepare(ctx);
    const p = validateParameters(portfolioReadParams, { portfolio_identifier: args.identifier, decryption_key: args.decryptionKey }, labels);
    return (await portfolioReads(ctx).portfolio(p.portfolio_identifier.trim(), p.decryption_key)) ?? null;
  },
};

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
      const found = await frameworkReads(ctx).frameworkByIdentifier(a.frameworkIdentifier, yearOf(args.year));
      return found && found.id === a.frameworkId ? found : null;
    },
    async frameworkDetails(a: GqlAsset, args: { year: number; languageCode?: Maybe<string> }, ctx: GraphqlContext) {
      const p = validateParameters(
        getAssetFrameworkDetailsParams,
        { asset_identifier: a.identifier, reporting_year: args.year, language_code: args.languageCode },
        labels,
      );
      const detail = await portfolioReads(ctx).assetFrameworkDetails(p.asset_identifier, p.reporting_year, p.language_code);
      return detail ? toAssetFrameworkDetails(detail, p.reporting_year, p.language_code) : null;
    },
  },
  Investor: {
    positions: (i: GqlInvestor, _: unknown, ctx: GraphqlContext) => portfolioReads(ctx).positionsOfInvestor(i.identifier, i.decryptionKey),
    portfolios: (i: GqlInvestor, _: unknown, ctx: GraphqlContext) => portfolioReads(ctx).portfoliosOfInvestor(i.identifier, i.decryptionKey),
    impacts: (i: GqlInvestor, args: { year: number; computeMissing?: Maybe<boolean> }, ctx: GraphqlContext, info: GraphQLResolveInfo) =>
      portfolioReads(ctx).investorImpacts(i.identifier, yearOf(args.year), args.computeMissing === true, selectsField(info, 'records')),
  },
  Position: {
    investor: (p: GqlPosition, _: unknown, ctx: GraphqlContext) => investorOf(p, ctx),
    asset: async (p: GqlPosition, _: unknown, ctx: GraphqlContext) => (await portfolioReads(ctx).asset(p.assetIdentifier)) ?? null,
    impacts: (p: GqlPosition, args: { year: number }, ctx: GraphqlContext) => portfolioReads(ctx).positionImpacts(p, yearOf(args.year)),
  },
  Portfolio: {
    investor: (p: GqlPortfolio, _: unknown, ctx: GraphqlContext) => investorOf(p, ctx),
    positions: async (p: GqlPortfolio, _: unknown, ctx: GraphqlContext) =>
      present(await Promise.all(p.positionIds.map((id) => portfolioReads(ctx).position(id, p.decryptionKey)))),
    assets: async (p: GqlPortfolio, _: unknown, ctx: GraphqlContext) =>
      present(await Promise.all(p.assetIdentifiers.map((identifier) => portfolioReads(ctx).asset(identifier)))),
    impacts: (p: GqlPortfolio, args: { year: number; computeMissing?: Maybe<boolean> }, ctx: GraphqlContext, info: GraphQLResolveInfo) =>
      portfolioReads(ctx).portfolioImpacts(p.identifier, yearOf(args.year), args.computeMissing === true, selectsField(info, 'records')),
  },
};

type PositionsArgs = {
  investorIdentifier?: Maybe<string>;
  assetIdentifier?: Maybe<string>;
  issuerIdentifier?: Maybe<string>;
  userIdentifier?: Maybe<string>;
  decryptionKey?: Maybe<string>;
};

/** The positions listing the arguments ask for (validated; the user filter resolved through identity). */
async function positionListing(args: PositionsArgs, ctx: GraphqlContext) {
  const composition = await prepare(ctx);
  const p = validateParameters(
    listPositionsParams,
    {
      investor_identifier: args.investorIdentifier,
      asset_identifier: args.assetIdentifier,
      issuer_identifier: args.issuerIdentifier,
      user_identifier: args.userIdentifier,
      decryption_key: args.decryptionKey,
    },
    labels,
  );
  const filter = await investorFilterOfUser(p.user_identifier, composition);
  return {
    investorIdentifier: p.investor_identifier ?? '',
    assetIdentifier: p.asset_identifier,
    issuerIdentifier: p.issuer_identifier,
    decryptionKey: p.decryption_key,
    filter,
  };
}

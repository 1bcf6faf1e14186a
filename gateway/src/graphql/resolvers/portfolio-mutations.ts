import type { GraphQLResolveInfo } from 'graphql';
import { portfolioClient } from '../../clients.js';
import {
  addAssetParams,
  addAssetRequest,
  addInvestorParams,
  addInvestorRequest,
  addPortfolioParams,
  addPositionParams,
  addPositionRequest,
  assetIdentifierParams,
  investorIdentifierParams,
  portfolioOfInvestorParams,
  portfolioParams,
  portfolioPositionParams,
  positionOfInvestorParams,
} from '../../v1/operations/portfolio-params.js';
import { validateParameters } from '../../v1/parameters.js';
import { callAs, type GraphqlContext } from '../context.js';
import type { GqlVisibility } from '../framework-reads.js';
import { messageResult } from '../mappers.js';
import { removalPayload } from '../payloads.js';
import { toImpact } from '../portfolio-objects.js';
import { assetIdOf, assetPayload, investorIdOf, investorPayload, portfolioIdOf, portfolioPayload } from './portfolio-entities.js';

/**
 * Changes of assets, investors, positions and portfolios (spec §4.8–§4.10), and the impact computation.
 * Each resolver authenticates, picks the portfolio client (UNAVAILABLE without one), validates with the
 * /v1/call parameter specs (messages name the GraphQL fields: `input.amount must be greater than 0.`),
 * calls PortfolioService and answers its message, id and the item as a following read shows it to the
 * caller (portfolio-entities.ts), or a removal's removedId.
 */

type Maybe<T> = T | null | undefined;

export interface AddAssetInput {
  identifier: string;
  name: string;
  issuerIdentifier: string;
  issuerName?: Maybe<string>;
  frameworkIdentifier: string;
  valueOutstanding?: Maybe<number>;
  currencyCode: string;
  dateIssued?: Maybe<string>;
  dateMaturity?: Maybe<string>;
  visibility?: Maybe<GqlVisibility>;
}
export interface AddInvestorInput {
  identifier: string;
  name: string;
  currencyCode: string;
  email?: Maybe<string>;
  encryptionKey?: Maybe<string>;
}
export interface AddPositionInput {
  investorIdentifier: string;
  assetIdentifier: string;
  amount: number;
  currencyCode: string;
  year?: Maybe<number>;
  days?: Maybe<number>;
  startDate?: Maybe<string>;
}

/** GraphQL names of the spec's parameters, for messages. */
const inputLabels = {
  asset_identifier: 'input.identifier',
  asset_name: 'input.name',
  issuer_identifier: 'input.issuerIdentifier',
  issuer_name: 'input.issuerName',
  framework_identifier: 'input.frameworkIdentifier',
  asset_value_outstanding: 'input.valueOutstanding',
  asset_currency_code: 'input.currencyCode',
  date_issued: 'input.dateIssued',
  date_maturity: 'input.dateMaturity',
  asset_visibility: 'input.visibility',
  investor_identifier: 'input.identifier',
  investor_name: 'input.name',
  investor_currency_code: 'input.currencyCode',
  investor_email: 'input.email',
  encryption_key: 'input.encryptionKey',
} as const;
const positionLabels = {
  investor_identifier: 'input.investorIdentifier',
  asset_identifier: 'input.assetIdentifier',
  position_amount: 'input.amount',
  position_currency_code: 'input.currencyCode',
  reporting_year: 'input.year',
  position_days: 'input.days',
  position_start_date: 'input.startDate',
} as const;
const argLabels = {
  asset_identifier: 'identifier',
  investor_identifier: 'investorIdentifier',
  portfolio_identifier: 'portfolioIdentifier',
  portfolio_identifier_changed: 'newIdentifier',
  position_id: 'positionId',
  reporting_year: 'year',
} as const;
/** addPortfolio and removePortfolio name the portfolio `identifier`. */
const portfolioArgLabels = { ...argLabels, portfolio_identifier: 'identifier' } as const;
const computeParams = { position_id: portfolioParams.positionId, reporting_year: portfolioParams.reportingYear } as const;

/** Authenticates (before any validation, as /v1/call does) and picks the portfolio client. */
async function prepare(ctx: GraphqlContext) {
  const opts = await callAs(ctx);
  return { client: portfolioClient(ctx.clients), opts };
}

export const portfolioMutations = {
  // ---- assets ----
  async addAsset(_: unknown, { input }: { input: AddAssetInput }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(
      addAssetParams,
      {
        asset_identifier: input.identifier,
        asset_name: input.name,
        issuer_identifier: input.issuerIdentifier,
        framework_identifier: input.frameworkIdentifier,
        asset_value_outstanding: input.valueOutstanding,
        asset_currency_code: input.currencyCode,
        date_issued: input.dateIssued,
        date_maturity: input.dateMaturity,
        asset_visibility: input.visibility,
        issuer_name: input.issuerName,
      },
      inputLabels,
    );
    return assetPayload(ctx, await client.addAsset(addAssetRequest(p, inputLabels), opts), p.asset_identifier);
  },
  async removeAsset(_: unknown, args: { identifier: string }, ctx: GraphqlContext, info: GraphQLResolveInfo) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(assetIdentifierParams, { asset_identifier: args.identifier }, argLabels);
    return removalPayload(ctx, info, assetIdOf(ctx, p.asset_identifier), () => client.removeAsset({ assetIdentifier: p.asset_identifier }, opts));
  },

  // ---- investors ----
  async generateInvestorIdentifier(_: unknown, __: unknown, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    return (await client.generateInvestorIdentifier({}, opts)).investorIdentifier;
  },
  async addInvestor(_: unknown, { input }: { input: AddInvestorInput }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(
      addInvestorParams,
      {
        investor_identifier: input.identifier,
        investor_name: input.name,
        investor_currency_code: input.currencyCode,
        encryption_key: input.encryptionKey,
        investor_email: input.email,
      },
      inputLabels,
    );
    return investorPayload(ctx, await client.addInvestor(addInvestorRequest(p), opts), p.investor_identifier, p.encryption_key);
  },
  async removeInvestor(_: unknown, args: { identifier: string }, ctx: GraphqlContext, info: GraphQLResolveInfo) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(investorIdentifierParams, { investor_identifier: args.identifier }, { investor_identifier: 'identifier' });
    const remove = () => client.removeInvestor({ investorIdentifier: p.investor_identifier }, opts);
    return removalPayload(ctx, info, investorIdOf(ctx, p.investor_identifier), remove);
  },

  // ---- positions and impacts ----
  async addPosition(_: unknown, { input }: { input: AddPositionInput }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(
      addPositionParams,
      {
        investor_identifier: input.investorIdentifier,
        asset_identifier: input.assetIdentifier,
        position_amount: input.amount,
        position_currency_code: input.currencyCode,
        reporting_year: input.year,
        position_days: input.days,
        position_start_date: input.startDate,
      },
      positionLabels,
    );
    const res = await client.addPosition(addPositionRequest(p, positionLabels.position_amount), opts);
    return { ...messageResult(res), impacts: res.impacts.map(toImpact) };
  },
  async removePosition(_: unknown, args: { investorIdentifier: string; positionId: string }, ctx: GraphqlContext, info: GraphQLResolveInfo) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(positionOfInvestorParams, { investor_identifier: args.investorIdentifier, position_id: args.positionId }, argLabels);
    const remove = () => client.removePosition({ investorIdentifier: p.investor_identifier, positionId: p.position_id }, opts);
    return removalPayload(ctx, info, p.position_id, remove);
  },
  async computePositionImpacts(_: unknown, args: { positionId: string; year: number }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(computeParams, { position_id: args.positionId, reporting_year: args.year }, argLabels);
    const res = await client.computePositionImpacts({ positionId: p.position_id, reportingYear: p.reporting_year }, opts);
    return { ...messageResult(res), impacts: res.impacts.map(toImpact) };
  },

  // ---- portfolios ----
  async addPortfolio(_: unknown, args: { investorIdentifier: string; identifier: string; newIdentifier?: Maybe<string> }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(
      addPortfolioParams,
      { investor_identifier: args.investorIdentifier, portfolio_identifier: args.identifier, portfolio_identifier_changed: args.newIdentifier },
      portfolioArgLabels,
    );
    const req = {
      investorIdentifier: p.investor_identifier,
      portfolioIdentifier: p.portfolio_identifier,
      portfolioIdentifierChanged: p.portfolio_identifier_changed,
    };
    return portfolioPayload(ctx, await client.addPortfolio(req, opts), p.portfolio_identifier_changed ?? p.portfolio_identifier);
  },
  async removePortfolio(_: unknown, args: { investorIdentifier: string; identifier: string }, ctx: GraphqlContext, info: GraphQLResolveInfo) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(portfolioOfInvestorParams, { investor_identifier: args.investorIdentifier, portfolio_identifier: args.identifier }, portfolioArgLabels);
    const remove = () => client.removePortfolio({ investorIdentifier: p.investor_identifier, portfolioIdentifier: p.portfolio_identifier }, opts);
    return removalPayload(ctx, info, portfolioIdOf(ctx, p.portfolio_identifier), remove);
  },
  async addPositionToPortfolio(_: unknown, args: { investorIdentifier: string; portfolioIdentifier: string; positionId: string }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(
      portfolioPositionParams,
      { investor_identifier: args.investorIdentifier, portfolio_identifier: args.portfolioIdentifier, position_id: args.positionId },
      argLabels,
    );
    const req = { investorIdentifier: p.investor_identifier, portfolioIdentifier: p.portfolio_identifier, positionId: p.position_id };
    return portfolioPayload(ctx, await client.addPositionToPortfolio(req, opts), p.portfolio_identifier);
  },
  async removePositionFromPortfolio(_: unknown, args: { investorIdentifier: string; portfolioIdentifier: string; positionId: string }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(
      portfolioPositionParams,
      { investor_identifier: args.investorIdentifier, portfolio_identifier: args.portfolioIdentifier, position_id: args.positionId },
      argLabels,
    );
    const req = { investorIdentifier: p.investor_identifier, portfolioIdentifier: p.portfolio_identifier, positionId: p.position_id };
    return portfolioPayload(ctx, await client.removePositionFromPortfolio(req, opts), p.portfolio_identifier);
  },
};

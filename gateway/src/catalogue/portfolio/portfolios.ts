import type { Portfolio } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { servicePageOf } from '../../graphql/pagination.js';
import { portfolioClient } from '../../clients.js';
import { callAs, type GraphqlContext } from '../../graphql/context.js';
import { changePayload, removalPayload } from '../../graphql/payloads.js';
import { keyed, portfolioReads, type Keyed } from '../../graphql/portfolio-reads.js';
import { listed } from '../../v1/truncation.js';
import { identifier } from '../fields.js';
import { declare } from '../operation.js';
import { ESG, messageOnly } from '../renders.js';
import { assetIdentifier, decryptionKey, investorIdentifier, portfolioIdentifier, positionId, SERVICE_ID, userIdentifier } from './fields.js';
import { listingRequest, NO_INVESTOR_FILTER } from './investor-filter.js';
import { portfolioPositionRow, portfolioRow } from './rows.js';

/**
 * Portfolios (spec §4.10), served by PortfolioService. Portfolio identifiers are unique per account
 * (getPortfolioPositions takes only the identifier); a portfolio holds positions of its one investor.
 */

/**
 * The portfolio an identifier names in the account, through the request's reads; null when there is none.
 * For portfolio(identifier), the payloads of changes and node().
 */
export async function portfolioOf(ctx: GraphqlContext, identifier: string, key: string | undefined): Promise<Keyed<Portfolio> | null> {
  await callAs(ctx);
  portfolioClient(ctx.clients);
  return (await portfolioReads(ctx).portfolio(identifier.trim(), key)) ?? null;
}

/** A change's payload: the portfolio without a key (its investor reads masked, as portfolio(identifier) shows it). */
const portfolioPayload = (ctx: GraphqlContext, answer: { message: string; id?: number | undefined }, identifier: string) =>
  changePayload(ctx, answer, 'portfolio', () => portfolioOf(ctx, identifier, undefined));

const listingInput = { assetIdentifier: assetIdentifier.with({ doc: 'Only portfolios holding this asset.' }).optional(), userIdentifier: userIdentifier.optional(), decryptionKey: decryptionKey.optional() };

export const getPortfolios = declare({
  solution: ESG,
  operation: 'getPortfolios',
  summary: "An investor's portfolios, filtered.",
  input: { investorIdentifier, ...listingInput },
  service: 'portfolio',
  method: 'getPortfolios',
  request: listingRequest,
  v1: (res, _i, ctx) => listed(ctx, res, res.portfolios.map(portfolioRow)),
});

export const portfolios = declare({
  solution: ESG,
  summary: "The account's portfolios, filtered: every investor's unless one is named.",
  input: { investorIdentifier: investorIdentifier.with({ doc: "Only this investor's portfolios; default every investor of the account." }).optional(), ...listingInput },
  service: 'portfolio',
  method: 'getPortfolios',
  request: listingRequest,
  graphql: {
    root: 'Query',
    field: 'portfolios',
    returns: 'PortfolioConnection!',
    nested: false,
    paged: {
      idOf: (p: Portfolio) => p.portfolioId,
      idPattern: SERVICE_ID,
      backward: true,
      orderBy: {
        type: 'Portfolio',
        plural: 'portfolios',
        fields: {
          IDENTIFIER: 'The identifier, as text.',
          INVESTOR_IDENTIFIER: "The investor's identifier, as text.",
          CREATED_AT: 'When the portfolio was added.',
        },
      },
    },
    render: async (call, i) => {
      const res = await call();
      return servicePageOf(res.portfolios.map((p) => keyed(p, i.decryptionKey)), res);
    },
  },
});

export const portfolio = declare({
  solution: ESG,
  summary: 'One portfolio of the account by identifier; null when there is none.',
  input: { identifier: portfolioIdentifier, decryptionKey: decryptionKey.optional() },
  service: 'portfolio',
  method: 'getPortfolios',
  request: () => ({ investorIdentifier: '', ...NO_INVESTOR_FILTER }),
  // From the request's one listing of the account's portfolios, which the nested fields share.
  graphql: { root: 'Query', field: 'portfolio', returns: 'Portfolio', nested: false, render: (_call, i, ctx) => portfolioOf(ctx, i.identifier, i.decryptionKey) },
});

export const getPortfolioPositions = declare({
  solution: ESG,
  operation: 'getPortfolioPositions',
  summary: "A portfolio's positions.",
  input: { portfolioIdentifier },
  service: 'portfolio',
  method: 'getPortfolioPositions',
  request: (i) => ({ portfolioIdentifier: i.portfolioIdentifier }),
  v1: (res, _i, ctx) => listed(ctx, res, res.positions.map(portfolioPositionRow)),
});

export const addPortfolio = declare({
  solution: ESG,
  operation: 'addPortfolio',
  summary: 'Adds a portfolio of an investor, or renames it (portfolio_identifier_changed).',
  input: {
    investorIdentifier,
    identifier: portfolioIdentifier,
    newIdentifier: identifier('portfolio_identifier_changed', { doc: 'The new identifier of an existing portfolio.' }).optional(),
  },
  service: 'portfolio',
  method: 'addPortfolio',
  request: (i) => ({ investorIdentifier: i.investorIdentifier, portfolioIdentifier: i.identifier, portfolioIdentifierChanged: i.newIdentifier }),
  v1: messageOnly,
  graphql: {
    root: 'Mutation',
    field: 'addPortfolio',
    returns: 'PortfolioPayload!',
    nested: false,
    render: async (call, i, ctx) => portfolioPayload(ctx, await call(), i.newIdentifier ?? i.identifier),
  },
});

const portfolioPosition = { investorIdentifier, portfolioIdentifier, positionId };
const portfolioPositionRequest = (i: { investorIdentifier: string; portfolioIdentifier: string; positionId: number }) => ({
  investorIdentifier: i.investorIdentifier,
  portfolioIdentifier: i.portfolioIdentifier,
  positionId: i.positionId,
});

export const addPositionToPortfolio = declare({
  solution: ESG,
  operation: 'addPositionToPortfolio',
  summary: 'Adds a position of the investor to the portfolio.',
  input: portfolioPosition,
  service: 'portfolio',
  method: 'addPositionToPortfolio',
  request: portfolioPositionRequest,
  v1: messageOnly,
  graphql: {
    root: 'Mutation',
    field: 'addPositionToPortfolio',
    returns: 'PortfolioPayload!',
    nested: false,
    render: async (call, i, ctx) => portfolioPayload(ctx, await call(), i.portfolioIdentifier),
  },
});

export const removePositionFromPortfolio = declare({
  solution: ESG,
  operation: 'removePositionFromPortfolio',
  summary: 'Takes a position out of the portfolio.',
  input: portfolioPosition,
  service: 'portfolio',
  method: 'removePositionFromPortfolio',
  request: portfolioPositionRequest,
  v1: messageOnly,
  graphql: {
    root: 'Mutation',
    field: 'removePositionFromPortfolio',
    returns: 'PortfolioPayload!',
    nested: false,
    render: async (call, i, ctx) => portfolioPayload(ctx, await call(), i.portfolioIdentifier),
  },
});

export const removePortfolio = declare({
  solution: ESG,
  operation: 'removePortfolio',
  summary: 'Removes a portfolio of an investor.',
  input: { investorIdentifier, identifier: portfolioIdentifier },
  service: 'portfolio',
  method: 'removePortfolio',
  request: (i) => ({ investorIdentifier: i.investorIdentifier, portfolioIdentifier: i.identifier }),
  v1: messageOnly,
  graphql: {
    root: 'Mutation',
    field: 'removePortfolio',
    returns: 'RemovalPayload!',
    nested: false,
    render: (call, i, ctx, info) => removalPayload(ctx, info, async () => (await portfolioOf(ctx, i.identifier, undefined))?.portfolioId, call),
  },
});

export const portfolioOperations = [
  getPortfolios,
  portfolios,
  portfolio,
  getPortfolioPositions,
  addPortfolio,
  removePortfolio,
  addPositionToPortfolio,
  removePositionFromPortfolio,
];

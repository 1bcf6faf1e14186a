import type { Portfolio } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { servicePageOf } from '../../graphql/pagination.js';
import { portfolioClient } from '../../clients.js';
import { callAs, type GraphqlContext } from '../../graphql/context.js';
import { changePayload, removalPayload, type ServiceAnswer } from '../../graphql/payloads.js';
import { keyed, portfolioReads, type Keyed } from '../../graphql/portfolio-reads.js';
import { listed } from '../../v1/truncation.js';
import { identifier } from '../fields.js';
import { declare } from '../operation.js';
import { ESG } from '../renders.js';
import { assetIdentifier, decryptionKey, investorIdentifier, portfolioChange, portfolioIdentifier, positionId, SERVICE_ID, userIdentifier } from './fields.js';
import { listingRequest, NO_INVESTOR_FILTER } from './investor-filter.js';
import { portfolioPositionRow, portfolioRow } from '../../generated/portfolio.js';

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

/** A change's GraphQL face: its payload carries the portfolio the input names, without a key (its investor reads masked, as portfolio(identifier) shows it). */
const portfolioChanged = <I>(field: string, identifierOf: (i: I) => string) => ({
  root: 'Mutation' as const,
  field,
  returns: 'PortfolioPayload!',
  nested: false,
  render: async (call: () => Promise<ServiceAnswer>, i: I, ctx: GraphqlContext) => changePayload(ctx, await call(), 'portfolio', () => portfolioOf(ctx, identifierOf(i), undefined)),
});

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
  ...portfolioChange('addPortfolio', 'Adds a portfolio of an investor, or renames it (portfolio_identifier_changed).'),
  input: {
    investorIdentifier,
    identifier: portfolioIdentifier,
    newIdentifier: identifier('portfolio_identifier_changed', { doc: 'The new identifier of an existing portfolio.' }).optional(),
  },
  request: (i) => ({ investorIdentifier: i.investorIdentifier, portfolioIdentifier: i.identifier, portfolioIdentifierChanged: i.newIdentifier }),
  graphql: portfolioChanged('addPortfolio', (i: { identifier: string; newIdentifier?: string | undefined }) => i.newIdentifier ?? i.identifier),
});

/** Adding a position to a portfolio and taking it out take the same input. */
const membership = <M extends string>(method: M, summary: string) => ({
  ...portfolioChange(method, summary),
  input: { investorIdentifier, portfolioIdentifier, positionId },
  request: (i: { investorIdentifier: string; portfolioIdentifier: string; positionId: number }) => ({
    investorIdentifier: i.investorIdentifier,
    portfolioIdentifier: i.portfolioIdentifier,
    positionId: i.positionId,
  }),
  graphql: portfolioChanged(method, (i: { portfolioIdentifier: string }) => i.portfolioIdentifier),
});

export const addPositionToPortfolio = declare(membership('addPositionToPortfolio', 'Adds a position of the investor to the portfolio.'));

export const removePositionFromPortfolio = declare(membership('removePositionFromPortfolio', 'Takes a position out of the portfolio.'));

export const removePortfolio = declare({
  ...portfolioChange('removePortfolio', 'Removes a portfolio of an investor.'),
  input: { investorIdentifier, identifier: portfolioIdentifier },
  request: (i) => ({ investorIdentifier: i.investorIdentifier, portfolioIdentifier: i.identifier }),
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

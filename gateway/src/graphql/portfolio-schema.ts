import { assetOperations } from '../catalogue/portfolio/assets.js';
import { investorOperations } from '../catalogue/portfolio/investors.js';
import { portfolioOperations } from '../catalogue/portfolio/portfolios.js';
import { positionOperations } from '../catalogue/portfolio/positions.js';
import { objectTypesSdl } from '../catalogue/objects.js';
import { orderTypesSdl, rootFieldsSdl } from '../catalogue/sdl.js';
import { connectionType } from './pagination.js';
import { portfolioObjects } from './portfolio-objects.js';

/**
 * SDL of assets, investors, positions, portfolios and their impacts (spec §4.8–§4.10): the camelCase
 * counterpart of the /v1/call reads, served by PortfolioService, its object types declared in
 * portfolio-objects.ts. Appended to schema.ts's typeDefs; the changes are in portfolio-mutations-schema.ts. Nested fields are batched per request
 * (portfolio-reads.ts), so a portfolio of a thousand positions costs a handful of calls.
 */
export const portfolioTypeDefs = /* GraphQL */ `
  extend type Query {${rootFieldsSdl('Query', [...assetOperations, ...investorOperations, ...positionOperations, ...portfolioOperations])}
  }
${orderTypesSdl([...assetOperations, ...investorOperations, ...positionOperations, ...portfolioOperations])}
${objectTypesSdl(portfolioObjects)}${connectionType('Asset', 'assets')}${connectionType('Investor', 'investors')}${connectionType('Position', 'positions')}${connectionType('Portfolio', 'portfolios')}${connectionType('PositionImpact', 'impact records')}`;

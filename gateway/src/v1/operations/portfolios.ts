import { portfolioClient } from '../../clients.js';
import { investorFilterOfUser } from '../../composition/user-investor-filter.js';
import { defineOperation } from '../operation.js';
import {
  addPortfolioParams,
  getPortfoliosParams,
  portfolioIdentifierParams,
  portfolioOfInvestorParams,
  portfolioPositionParams,
} from './portfolio-params.js';
import { portfolioPositionRow, portfolioRow } from './portfolio-shapes.js';
import { call, messageOnly } from './taxonomy.js';
import { listed } from '../truncation.js';

/**
 * /v1/call operations of spec §4.10 on portfolios, served by PortfolioService. Portfolio identifiers are
 * unique per account (getPortfolioPositions takes only the identifier); a portfolio holds positions of its
 * one investor.
 */

const ESG = 'SVC.ESG.Credits';

export const portfolioOperations = [
  defineOperation({
    solution: ESG,
    operation: 'getPortfolios',
    params: getPortfoliosParams,
    async handler(p, ctx) {
      const portfolio = portfolioClient(ctx.clients);
      const filter = await investorFilterOfUser(p.user_identifier, ctx);
      const req = { investorIdentifier: p.investor_identifier, assetIdentifier: p.asset_identifier, decryptionKey: p.decryption_key, ...filter };
      const res = await portfolio.getPortfolios(req, call(ctx));
      return listed(ctx, res, res.portfolios.map(portfolioRow));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'getPortfolioPositions',
    params: portfolioIdentifierParams,
    async handler(p, ctx) {
      const req = { portfolioIdentifier: p.portfolio_identifier };
      const res = await portfolioClient(ctx.clients).getPortfolioPositions(req, call(ctx));
      return listed(ctx, res, res.positions.map(portfolioPositionRow));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'addPortfolio',
    params: addPortfolioParams,
    async handler(p, ctx) {
      const req = {
        investorIdentifier: p.investor_identifier,
        portfolioIdentifier: p.portfolio_identifier,
        portfolioIdentifierChanged: p.portfolio_identifier_changed,
      };
      return messageOnly(await portfolioClient(ctx.clients).addPortfolio(req, call(ctx)));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'addPositionToPortfolio',
    params: portfolioPositionParams,
    async handler(p, ctx) {
      const req = { investorIdentifier: p.investor_identifier, portfolioIdentifier: p.portfolio_identifier, positionId: p.position_id };
      return messageOnly(await portfolioClient(ctx.clients).addPositionToPortfolio(req, call(ctx)));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'removePositionFromPortfolio',
    params: portfolioPositionParams,
    async handler(p, ctx) {
      const req = { investorIdentifier: p.investor_identifier, portfolioIdentifier: p.portfolio_identifier, positionId: p.position_id };
      return messageOnly(await portfolioClient(ctx.clients).removePositionFromPortfolio(req, call(ctx)));
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'removePortfolio',
    params: portfolioOfInvestorParams,
    async handler(p, ctx) {
      const req = { investorIdentifier: p.investor_identifier, portfolioIdentifier: p.portfolio_identifier };
      return messageOnly(await portfolioClient(ctx.clients).removePortfolio(req, call(ctx)));
    },
  }),
];

import { portfolioClient } from '../../clients.js';
import { investorFilterOfUser } from '../../composition/user-investor-filter.js';
import { defineOperation } from '../operation.js';
import { addPositionParams, addPositionRequest, getPositionsParams, positionOfInvestorParams } from './portfolio-params.js';
import { positionRow } from './portfolio-shapes.js';
import { call, messageOnly } from './taxonomy.js';
import { listed } from '../truncation.js';

/**
 * /v1/call operations of spec §4.10 on positions, served by PortfolioService. `user_identifier` limits a
 * listing to the investors identity gave that user (composition/user-investor-filter.ts).
 */

const ESG = 'SVC.ESG.Credits';

export const positionOperations = [
  defineOperation({
    solution: ESG,
    operation: 'getPositions',
    params: getPositionsParams,
    async handler(p, ctx) {
      const portfolio = portfolioClient(ctx.clients);
      const filter = await investorFilterOfUser(p.user_identifier, ctx);
      const req = {
        investorIdentifier: p.investor_identifier,
        assetIdentifier: p.asset_identifier,
        issuerIdentifier: p.issuer_identifier,
        decryptionKey: p.decryption_key,
        ...filter,
      };
      const res = await portfolio.getPositions(req, call(ctx));
      return listed(ctx, res, res.positions.map(positionRow));
    },
  }),
  defineOperation({
    // Always a new position; the message ends with its id (spec). With reporting_year the service computes
    // and stores the year's impacts in the same transaction, or adds nothing.
    solution: ESG,
    operation: 'addPosition',
    params: addPositionParams,
    async handler(p, ctx) {
      return messageOnly(await portfolioClient(ctx.clients).addPosition(addPositionRequest(p), call(ctx)));
    },
  }),
  defineOperation({
    // The spec's confirmation object: the success text as the key, the position id as the value.
    solution: ESG,
    operation: 'removePosition',
    params: positionOfInvestorParams,
    async handler(p, ctx) {
      const req = { investorIdentifier: p.investor_identifier, positionId: p.position_id };
      const res = await portfolioClient(ctx.clients).removePosition(req, call(ctx));
      return { [res.message]: res.id ?? p.position_id };
    },
  }),
];

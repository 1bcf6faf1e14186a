import { NotFoundError } from '@green-impact/shared/errors';
import { portfolioClient } from '../../clients.js';
import { defineOperation, type OperationContext } from '../operation.js';
import {
  computeMissing,
  computePositionImpactsParams,
  getInvestorImpactsParams,
  getPortfolioImpactsParams,
  getPositionImpactsParams,
} from './portfolio-params.js';
import { impactRecordRow, impactSummary } from './portfolio-shapes.js';
import { call } from './taxonomy.js';

/**
 * Impacts of positions on /v1/call. NOT SPEC OPERATIONS: the spec computes impacts only inside addPosition
 * (reporting_year) and the blockchain writes, and shows no way to read them; these four expose
 * PortfolioService's impact methods so a legacy client can compute, read and total them with every input
 * of the formula (ARCHITECTURE §3). Named after the spec's patterns, parameters in its snake_case.
 */

const ESG = 'SVC.ESG.Credits';

/**
 * The position operations that name a position take its investor too (as removePosition does): a
 * position id of another investor is NOT_FOUND, in the service's words, whatever the id.
 */
async function requirePositionOfInvestor(ctx: OperationContext, investorIdentifier: string, positionId: number): Promise<void> {
  const { positions } = await portfolioClient(ctx.clients).getPositionsByIds({ positionIds: [positionId] }, call(ctx));
  if (positions[0]?.investorIdentifier !== investorIdentifier.trim()) {
    const shown = investorIdentifier.length > 60 ? `${investorIdentifier.slice(0, 60)}…` : investorIdentifier;
    throw new NotFoundError(`No position ${positionId} of investor "${shown}".`);
  }
}

export const impactOperations = [
  defineOperation({
    // Computes the year's impacts and replaces the stored ones: {message, impacts: [record]}.
    solution: ESG,
    operation: 'computePositionImpacts',
    params: computePositionImpactsParams,
    async handler(p, ctx) {
      await requirePositionOfInvestor(ctx, p.investor_identifier, p.position_id);
      const req = { positionId: p.position_id, reportingYear: p.reporting_year };
      const res = await portfolioClient(ctx.clients).computePositionImpacts(req, call(ctx));
      return { message: res.message, impacts: res.impacts.map(impactRecordRow) };
    },
  }),
  defineOperation({
    // The stored records: [record], of one year or of every year.
    solution: ESG,
    operation: 'getPositionImpacts',
    params: getPositionImpactsParams,
    async handler(p, ctx) {
      await requirePositionOfInvestor(ctx, p.investor_identifier, p.position_id);
      const req = { positionId: p.position_id, reportingYear: p.reporting_year, computeMissing: computeMissing(p.compute_missing) };
      return (await portfolioClient(ctx.clients).getPositionImpacts(req, call(ctx))).impacts.map(impactRecordRow);
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'getPortfolioImpacts',
    params: getPortfolioImpactsParams,
    async handler(p, ctx) {
      const req = {
        portfolioIdentifier: p.portfolio_identifier,
        reportingYear: p.reporting_year,
        computeMissing: computeMissing(p.compute_missing),
        omitRecords: p.include_records === 'no',
      };
      const res = await portfolioClient(ctx.clients).getPortfolioImpacts(req, call(ctx));
      return { portfolio_identifier: res.portfolioIdentifier, investor_identifier: res.investorIdentifier, ...impactSummary(res, req.omitRecords) };
    },
  }),
  defineOperation({
    solution: ESG,
    operation: 'getInvestorImpacts',
    params: getInvestorImpactsParams,
    async handler(p, ctx) {
      const req = {
        investorIdentifier: p.investor_identifier,
        reportingYear: p.reporting_year,
        computeMissing: computeMissing(p.compute_missing),
        omitRecords: p.include_records === 'no',
      };
      const res = await portfolioClient(ctx.clients).getInvestorImpacts(req, call(ctx));
      return { investor_identifier: res.investorIdentifier, ...impactSummary(res, req.omitRecords) };
    },
  }),
];

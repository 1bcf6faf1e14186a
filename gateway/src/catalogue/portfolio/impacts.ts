import { NotFoundError } from '@green-impact/shared/errors';
import { messageResult } from '../../graphql/mappers.js';
import { toImpact } from '../../graphql/portfolio-objects.js';
import { callService, declare, type CallContext } from '../operation.js';
import { ESG } from '../renders.js';
import { investorIdentifier, portfolioIdentifier, positionId, reportingYear, yesNo } from './fields.js';
import { impactRecordRow, impactSummary } from './rows.js';

/**
 * Impacts of positions. NOT SPEC OPERATIONS: the spec computes impacts only inside addPosition
 * (reporting_year) and the blockchain writes, and shows no way to read them; these expose
 * PortfolioService's impact methods so a legacy client can compute, read and total them with every input
 * of the formula (ARCHITECTURE §3). Named after the spec's patterns, parameters in its snake_case. The
 * service owns the year's rule.
 */

const computeMissing = yesNo('compute_missing', "yes: compute and store the year's records when none are stored.");
/** no: the totals without the records they are made of (the quick answer for large portfolios). Default yes. */
const includeRecords = yesNo('include_records', 'no: the totals without the records they are made of. Default yes.');

/** compute_missing (default no) and include_records (default yes) as the proto's flags. */
const summaryOptions = (i: { computeMissing?: 'yes' | 'no' | undefined; includeRecords?: 'yes' | 'no' | undefined }) => ({
  computeMissing: i.computeMissing === 'yes',
  omitRecords: i.includeRecords === 'no',
});

/**
 * The /v1/call position operations that name a position take its investor too (as removePosition does):
 * a position id of another investor is NOT_FOUND, in the service's words, whatever the id.
 */
async function requirePositionOfInvestor(ctx: CallContext, investor: string, id: number): Promise<void> {
  // An id that names no position at all is the service's to refuse (INVALID_ARGUMENT, in its words).
  if (!Number.isSafeInteger(id) || id <= 0) return;
  const { positions } = await callService(ctx, 'portfolio', 'getPositionsByIds', { positionIds: [id] });
  if (positions[0]?.investorIdentifier !== investor.trim()) {
    const shown = investor.length > 60 ? `${investor.slice(0, 60)}…` : investor;
    throw new NotFoundError(`No position ${id} of investor "${shown}".`);
  }
}

export const computePositionImpactsOfInvestor = declare({
  solution: ESG,
  operation: 'computePositionImpacts',
  summary: "Computes a position's impacts of a year and replaces the stored ones.",
  input: { investorIdentifier, positionId, year: reportingYear },
  service: 'portfolio',
  method: 'computePositionImpacts',
  request: async (i, ctx) => {
    await requirePositionOfInvestor(ctx, i.investorIdentifier, i.positionId);
    return { positionId: i.positionId, reportingYear: i.year };
  },
  // {message, impacts: [record]}.
  v1: (res) => ({ message: res.message, impacts: res.impacts.map(impactRecordRow) }),
});

export const computePositionImpacts = declare({
  solution: ESG,
  summary: "Computes a position's impacts of a year and replaces the stored ones.",
  input: { positionId, year: reportingYear },
  service: 'portfolio',
  method: 'computePositionImpacts',
  request: (i) => ({ positionId: i.positionId, reportingYear: i.year }),
  graphql: {
    root: 'Mutation',
    field: 'computePositionImpacts',
    returns: 'PositionImpactsPayload!',
    nested: false,
    render: async (call) => {
      const res = await call();
      return { ...messageResult(res), impacts: res.impacts.map(toImpact) };
    },
  },
});

export const getPositionImpacts = declare({
  solution: ESG,
  operation: 'getPositionImpacts',
  summary: "A position's stored impacts, of one year or of every year.",
  input: {
    investorIdentifier,
    positionId,
    /** Default: every year with stored records. */
    year: reportingYear.optional(),
    /** yes: compute and store the year's records when none are stored (needs reporting_year). */
    computeMissing: computeMissing.optional(),
  },
  service: 'portfolio',
  method: 'getPositionImpacts',
  request: async (i, ctx) => {
    await requirePositionOfInvestor(ctx, i.investorIdentifier, i.positionId);
    return { positionId: i.positionId, reportingYear: i.year, computeMissing: i.computeMissing === 'yes' };
  },
  v1: (res) => res.impacts.map(impactRecordRow),
});

export const getPortfolioImpacts = declare({
  solution: ESG,
  operation: 'getPortfolioImpacts',
  summary: "A portfolio's impact totals of a year, with the records they are made of.",
  input: { portfolioIdentifier, year: reportingYear, computeMissing: computeMissing.optional(), includeRecords: includeRecords.optional() },
  service: 'portfolio',
  method: 'getPortfolioImpacts',
  request: (i) => ({
    portfolioIdentifier: i.portfolioIdentifier,
    reportingYear: i.year,
    ...summaryOptions(i),
  }),
  v1: (res, i) => ({
    portfolio_identifier: res.portfolioIdentifier,
    investor_identifier: res.investorIdentifier,
    ...impactSummary(res, i.includeRecords === 'no'),
  }),
});

export const getInvestorImpacts = declare({
  solution: ESG,
  operation: 'getInvestorImpacts',
  summary: "An investor's impact totals of a year, with the records they are made of.",
  input: { investorIdentifier, year: reportingYear, computeMissing: computeMissing.optional(), includeRecords: includeRecords.optional() },
  service: 'portfolio',
  method: 'getInvestorImpacts',
  request: (i) => ({
    investorIdentifier: i.investorIdentifier,
    reportingYear: i.year,
    ...summaryOptions(i),
  }),
  v1: (res, i) => ({ investor_identifier: res.investorIdentifier, ...impactSummary(res, i.includeRecords === 'no') }),
});

export const impactOperations = [computePositionImpactsOfInvestor, computePositionImpacts, getPositionImpacts, getPortfolioImpacts, getInvestorImpacts];

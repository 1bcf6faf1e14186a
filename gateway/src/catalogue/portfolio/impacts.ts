import { NotFoundError } from '@green-impact/shared/errors';
import { messageResult } from '../../graphql/mappers.js';
import { callService, declare, streamService, type CallContext } from '../operation.js';
import { ESG } from '../renders.js';
import { investorIdentifier, portfolioIdentifier, positionId, reportingYear, yesNo } from './fields.js';
import { impactRecordRow, impactSummary } from './rows.js';
import { impactRecordsJson } from './impact-records-json.js';
import { JsonItems } from '../../v1/streamed-json.js';

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

/**
 * compute_missing (default no) as the proto's flag. The summary is always read without its records: they
 * are streamed after it (StreamImpactRecords, `recordsOf`), so an answer of any size is written a page at a
 * time, where the records in one message stop at gRPC's 64 MiB limit (10 000 positions × 24 rows are 75 MB).
 */
/** compute_missing yes stores the records it computes: a write (a read-only bearer token is refused it). */
const storesMissing = (i: { computeMissing?: 'yes' | 'no' | undefined }) => i.computeMissing === 'yes';
const summaryOptions = (i: { computeMissing?: 'yes' | 'no' | undefined }) => ({ computeMissing: i.computeMissing === 'yes', omitRecords: true });

/** Records per StreamImpactRecords page: about 1 MB of /v1/call JSON per write. */
export const RECORD_PAGE = 1_000;

/**
 * The records of a summary's scope, streamed after the summary was read (so after compute_missing
 * computed them), rendered a page at a time; none with include_records=no.
 */
function streamedRecords(scope: { investorIdentifier: string } | { portfolioIdentifier: string }, i: { year: number; includeRecords?: 'yes' | 'no' | undefined }, ctx: CallContext) {
  return i.includeRecords === 'no' ? undefined : renderedPages(ctx, { investorIdentifier: '', portfolioIdentifier: '', ...scope, reportingYear: i.year });
}

/**
 * The pages in columns, written as JSON text (impact-records-json.ts); a service that answers records
 * whole (one from before columns) is rendered record by record.
 */
async function* renderedPages(ctx: CallContext, request: { investorIdentifier: string; portfolioIdentifier: string; reportingYear: number }) {
  for await (const page of streamService(ctx, 'portfolio', 'streamImpactRecords', { ...request, pageSize: RECORD_PAGE, pageToken: '', limit: 0, columns: true })) {
    yield page.columns ? new JsonItems(impactRecordsJson(page.columns), page.columns.id.length) : page.impacts.map(impactRecordRow);
  }
}

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
      return { ...messageResult(res), impacts: res.impacts };
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
  writesWhen: storesMissing,
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
  writesWhen: storesMissing,
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
  v1Streamed: { key: 'impacts', items: (res, i, ctx) => streamedRecords({ portfolioIdentifier: res.portfolioIdentifier }, i, ctx) },
});

export const getInvestorImpacts = declare({
  solution: ESG,
  operation: 'getInvestorImpacts',
  summary: "An investor's impact totals of a year, with the records they are made of.",
  input: { investorIdentifier, year: reportingYear, computeMissing: computeMissing.optional(), includeRecords: includeRecords.optional() },
  service: 'portfolio',
  method: 'getInvestorImpacts',
  writesWhen: storesMissing,
  request: (i) => ({
    investorIdentifier: i.investorIdentifier,
    reportingYear: i.year,
    ...summaryOptions(i),
  }),
  v1: (res, i) => ({ investor_identifier: res.investorIdentifier, ...impactSummary(res, i.includeRecords === 'no') }),
  v1Streamed: { key: 'impacts', items: (res, i, ctx) => streamedRecords({ investorIdentifier: res.investorIdentifier }, i, ctx) },
});

export const impactOperations = [computePositionImpactsOfInvestor, computePositionImpacts, getPositionImpacts, getPortfolioImpacts, getInvestorImpacts];

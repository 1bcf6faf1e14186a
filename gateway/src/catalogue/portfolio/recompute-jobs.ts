import type { ImpactRecomputeJob } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { orNull } from '../../graphql/resolvers/or-null.js';
import { identifier, int, oneOf } from '../fields.js';
import type { GraphqlContext } from '../../graphql/context.js';
import { callerOf, declare } from '../operation.js';
import { ESG } from '../renders.js';
import { investorIdentifier, JOB_ID, pageFields, portfolioIdentifier, reportingYear } from './fields.js';
import { RECOMPUTE_SCOPES, RECOMPUTE_STATUSES, recomputeJobRow, SCOPE_ENUMS, STATUS_ENUMS } from './rows.js';

/**
 * Impact recompute jobs. NOT SPEC OPERATIONS: a recompute of a whole investor, portfolio or account (or
 * of the impacts a framework or FX change made stale) runs in the portfolio service as a job; these start
 * one and read its progress (GraphQL's impactRecomputeJobUpdated follows it). What a scope needs (the
 * investor, the portfolio, the year), the job id's length and the listing's limit are the service's rules.
 */

export const jobId = identifier('job_id', { doc: "The job's id.", graphql: 'ID' });
const status = oneOf('status', RECOMPUTE_STATUSES, { doc: 'Only jobs in this status.', graphql: 'RecomputeStatus' });

export const startImpactRecompute = declare({
  solution: ESG,
  operation: 'startImpactRecompute',
  summary: 'Queues a recompute of impacts (an investor, a portfolio or the account for a year, or what changes made stale) and answers at once.',
  input: {
    /** investor | portfolio | account: every position of it for reporting_year; stale: what changes made stale. */
    scope: oneOf('scope', RECOMPUTE_SCOPES, { doc: 'investor, portfolio or account: every position of it for the year; stale: what changes made stale.', graphql: 'RecomputeScope' }),
    investorIdentifier: investorIdentifier.with({ doc: 'With scope investor.' }).optional(),
    portfolioIdentifier: portfolioIdentifier.with({ doc: 'With scope portfolio.' }).optional(),
    year: reportingYear.with({ doc: 'Reporting year, 4 digits; required but for scope stale.' }).optional(),
  },
  service: 'portfolio',
  method: 'startImpactRecompute',
  request: (i) => ({
    scope: SCOPE_ENUMS[i.scope],
    investorIdentifier: i.investorIdentifier ?? '',
    portfolioIdentifier: i.portfolioIdentifier ?? '',
    reportingYear: i.year,
  }),
  // {message, job_id, created: yes|no, job}.
  v1: (res) => ({ message: res.message, job_id: res.job!.jobId, created: res.created ? 'yes' : 'no', job: recomputeJobRow(res.job!) }),
  graphql: {
    root: 'Mutation',
    field: 'startImpactRecompute',
    returns: 'StartImpactRecomputePayload!',
    nested: false,
    render: async (call) => {
      const res = await call();
      return { message: res.message, created: res.created, job: res.job! };
    },
  },
});

export const getImpactRecomputeJob = declare({
  solution: ESG,
  operation: 'getImpactRecomputeJob',
  summary: 'A recompute job as stored: poll until its status is completed or failed.',
  input: { id: jobId },
  service: 'portfolio',
  method: 'getImpactRecomputeJob',
  request: (i) => ({ jobId: i.id }),
  v1: (res) => recomputeJobRow(res.job!),
  graphql: {
    root: 'Query',
    field: 'impactRecomputeJob',
    returns: 'ImpactRecomputeJob',
    nested: false,
    render: async (call) => {
      const res = await orNull(call());
      return res?.job ?? null;
    },
  },
});

/** A job of the caller's account as GraphQL shows it (node()); null when there is none of that id. */
export async function recomputeJobOf(ctx: GraphqlContext, id: string): Promise<ImpactRecomputeJob | null> {
  const res = await orNull(getImpactRecomputeJob.call({ id }, await callerOf(ctx)));
  return res?.job ?? null;
}

export const getImpactRecomputeJobs = declare({
  solution: ESG,
  operation: 'getImpactRecomputeJobs',
  summary: "The account's recompute jobs, newest first (those framework and FX changes started too).",
  input: { status: status.optional(), limit: int('limit', { doc: 'At most this many jobs.' }).optional() },
  service: 'portfolio',
  method: 'listImpactRecomputeJobs',
  request: (i) => ({ limit: i.limit ?? 0, statuses: i.status ? [STATUS_ENUMS[i.status]] : [] }),
  v1: (res) => res.jobs.map(recomputeJobRow),
});

export const impactRecomputeJobs = declare({
  solution: ESG,
  summary: "The account's recompute jobs, newest first (those framework and FX changes started too).",
  input: { status: status.optional() },
  service: 'portfolio',
  method: 'listImpactRecomputeJobs',
  request: (i, ctx) => ({ limit: 0, statuses: i.status ? [STATUS_ENUMS[i.status]] : [], ...pageFields(ctx.page) }),
  graphql: {
    root: 'Query',
    field: 'impactRecomputeJobs',
    returns: 'ImpactRecomputeJobConnection!',
    nested: false,
    paged: { idOf: (j: ImpactRecomputeJob) => j.jobId, idPattern: JOB_ID },
    render: async (call) => {
      const res = await call();
      return { items: res.jobs, nextPageToken: res.nextPageToken, totalCount: res.totalCount ?? res.jobs.length };
    },
  },
});

export const recomputeJobOperations = [startImpactRecompute, getImpactRecomputeJob, getImpactRecomputeJobs, impactRecomputeJobs];

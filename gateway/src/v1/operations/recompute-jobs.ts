import {
  RecomputeScope,
  RecomputeStatus,
  type ImpactRecomputeJob,
  type StartImpactRecomputeRequest,
} from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { portfolioClient } from '../../clients.js';
import { defineOperation } from '../operation.js';
import type { ParamsOf } from '../parameters.js';
import { portfolioParams as p } from './portfolio-params.js';
import { call } from './taxonomy.js';

/**
 * Impact recompute jobs on /v1/call. NOT SPEC OPERATIONS: a recompute of a whole investor, portfolio or
 * account (or of the impacts a framework or FX change made stale) runs in the portfolio service as a job;
 * these start one and read its progress. Parameters in the spec's snake_case; GraphQL validates its
 * arguments with the same specs.
 */

const ESG = 'SVC.ESG.Credits';

export const RECOMPUTE_SCOPES = ['investor', 'portfolio', 'account', 'stale'] as const;
export const RECOMPUTE_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type RecomputeScopeName = (typeof RECOMPUTE_SCOPES)[number];
export type RecomputeStatusName = (typeof RECOMPUTE_STATUSES)[number];

const SCOPE_ENUMS: Record<RecomputeScopeName, RecomputeScope> = {
  investor: RecomputeScope.RECOMPUTE_SCOPE_INVESTOR,
  portfolio: RecomputeScope.RECOMPUTE_SCOPE_PORTFOLIO,
  account: RecomputeScope.RECOMPUTE_SCOPE_ACCOUNT,
  stale: RecomputeScope.RECOMPUTE_SCOPE_STALE,
};
const STATUS_ENUMS: Record<RecomputeStatusName, RecomputeStatus> = {
  queued: RecomputeStatus.RECOMPUTE_STATUS_QUEUED,
  running: RecomputeStatus.RECOMPUTE_STATUS_RUNNING,
  completed: RecomputeStatus.RECOMPUTE_STATUS_COMPLETED,
  failed: RecomputeStatus.RECOMPUTE_STATUS_FAILED,
};
const scopeNames = new Map(Object.entries(SCOPE_ENUMS).map(([n, e]) => [e, n as RecomputeScopeName]));
const statusNames = new Map(Object.entries(STATUS_ENUMS).map(([n, e]) => [e, n as RecomputeStatusName]));

export const statusEnumOf = (name: RecomputeStatusName): RecomputeStatus => STATUS_ENUMS[name];
export const scopeNameOf = (scope: RecomputeScope): RecomputeScopeName | undefined => scopeNames.get(scope);
export const statusNameOf = (status: RecomputeStatus): RecomputeStatusName | undefined => statusNames.get(status);

export const startImpactRecomputeParams = {
  /** investor | portfolio | account: every position of it for reporting_year; stale: what changes made stale. */
  scope: { type: 'enum', values: RECOMPUTE_SCOPES, required: true },
  investor_identifier: { type: 'identifier', aliases: ['investor_identfier'] },
  portfolio_identifier: p.optionalIdentifier,
  reporting_year: p.optionalYear,
} as const;

export const recomputeJobParams = { job_id: { type: 'identifier', required: true, maxLength: 64 } } as const;

export const listRecomputeJobsParams = {
  status: { type: 'enum', values: RECOMPUTE_STATUSES },
  limit: { type: 'int', min: 1, max: 100 },
} as const;

/** The service's request; what a scope needs (the investor, the portfolio, the year) the service checks. */
export function startRecomputeRequest(v: ParamsOf<typeof startImpactRecomputeParams>): StartImpactRecomputeRequest {
  return {
    scope: SCOPE_ENUMS[v.scope],
    investorIdentifier: v.investor_identifier ?? '',
    portfolioIdentifier: v.portfolio_identifier ?? '',
    reportingYear: v.reporting_year,
  };
}

/** A job in snake_case: absent times and year left out. */
export function recomputeJobRow(j: ImpactRecomputeJob) {
  return {
    job_id: j.jobId,
    scope: scopeNameOf(j.scope) ?? 'unknown',
    scope_identifier: j.scopeIdentifier,
    ...(j.reportingYear !== undefined ? { reporting_year: j.reportingYear } : {}),
    status: statusNameOf(j.status) ?? 'unknown',
    done: j.done,
    total: j.total,
    error: j.error,
    reason: j.reason,
    attempts: j.attempts,
    created_at: j.createdAt,
    ...(j.startedAt ? { started_at: j.startedAt } : {}),
    ...(j.finishedAt ? { finished_at: j.finishedAt } : {}),
  };
}

export const recomputeJobOperations = [
  defineOperation({
    // Queues the recompute and answers at once: {message, job_id, created: yes|no, job}.
    solution: ESG,
    operation: 'startImpactRecompute',
    params: startImpactRecomputeParams,
    async handler(v, ctx) {
      const res = await portfolioClient(ctx.clients).startImpactRecompute(startRecomputeRequest(v), call(ctx));
      return { message: res.message, job_id: res.job!.jobId, created: res.created ? 'yes' : 'no', job: recomputeJobRow(res.job!) };
    },
  }),
  defineOperation({
    // The job as stored: poll until status is completed or failed.
    solution: ESG,
    operation: 'getImpactRecomputeJob',
    params: recomputeJobParams,
    async handler(v, ctx) {
      return recomputeJobRow((await portfolioClient(ctx.clients).getImpactRecomputeJob({ jobId: v.job_id }, call(ctx))).job!);
    },
  }),
  defineOperation({
    // The account's jobs, newest first (those framework and FX changes started too): [job].
    solution: ESG,
    operation: 'getImpactRecomputeJobs',
    params: listRecomputeJobsParams,
    async handler(v, ctx) {
      const req = { limit: v.limit ?? 0, statuses: v.status ? [STATUS_ENUMS[v.status]] : [] };
      return (await portfolioClient(ctx.clients).listImpactRecomputeJobs(req, call(ctx))).jobs.map(recomputeJobRow);
    },
  }),
];

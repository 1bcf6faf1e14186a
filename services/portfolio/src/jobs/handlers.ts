import {
  RecomputeScope,
  RecomputeStatus,
  type ImpactRecomputeJob,
  type PortfolioServiceService,
} from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { actedByField } from '@green-impact/shared/caller';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import type { UnaryHandlers } from '@green-impact/shared/grpc/server';
import { requireAccount } from '../caller.js';
import type { PortfolioStores } from '../stores.js';
import type { RecomputeJobRow, RecomputeScopeName, RecomputeStatusName } from './recompute-job-store.js';

type Handlers = UnaryHandlers<typeof PortfolioServiceService>;

const SCOPES: [RecomputeScope, RecomputeScopeName][] = [
  [RecomputeScope.RECOMPUTE_SCOPE_INVESTOR, 'investor'],
  [RecomputeScope.RECOMPUTE_SCOPE_PORTFOLIO, 'portfolio'],
  [RecomputeScope.RECOMPUTE_SCOPE_ACCOUNT, 'account'],
  [RecomputeScope.RECOMPUTE_SCOPE_STALE, 'stale'],
];
const STATUSES: [RecomputeStatus, RecomputeStatusName][] = [
  [RecomputeStatus.RECOMPUTE_STATUS_QUEUED, 'queued'],
  [RecomputeStatus.RECOMPUTE_STATUS_RUNNING, 'running'],
  [RecomputeStatus.RECOMPUTE_STATUS_COMPLETED, 'completed'],
  [RecomputeStatus.RECOMPUTE_STATUS_FAILED, 'failed'],
];
const scopeName = new Map(SCOPES);
const scopeEnum = new Map(SCOPES.map(([e, n]) => [n, e]));
const statusName = new Map(STATUSES);
const statusEnum = new Map(STATUSES.map(([e, n]) => [n, e]));

export function toRecomputeJobMsg(j: RecomputeJobRow): ImpactRecomputeJob {
  return {
    jobId: j.id,
    scope: scopeEnum.get(j.scope)!,
    scopeIdentifier: j.scopeIdentifier,
    ...(j.reportingYear !== null ? { reportingYear: j.reportingYear } : {}),
    status: statusEnum.get(j.status)!,
    done: j.done,
    total: j.total,
    error: j.error,
    reason: j.reason,
    attempts: j.attempts,
    createdAt: j.createdAt.toISOString(),
    ...(j.startedAt ? { startedAt: j.startedAt.toISOString() } : {}),
    ...(j.finishedAt ? { finishedAt: j.finishedAt.toISOString() } : {}),
    ...actedByField(j),
  };
}

/** Recompute jobs (not spec operations): start, read one, list. */
export function recomputeJobHandlers(s: PortfolioStores): Pick<Handlers, 'startImpactRecompute' | 'getImpactRecomputeJob' | 'listImpactRecomputeJobs'> {
  return {
    async startImpactRecompute(req, ctx) {
      const scope = scopeName.get(req.scope);
      if (!scope) throw new InvalidArgumentError('scope must be one of investor, portfolio, account, stale.', { field: 'scope' });
      const { job, created } = await s.recomputeJobs.start(requireAccount(ctx.caller), {
        scope,
        investorIdentifier: req.investorIdentifier,
        portfolioIdentifier: req.portfolioIdentifier,
        reportingYear: req.reportingYear,
      });
      const message = created ? `Recompute job queued with id ${job.id}.` : `Recompute job already ${job.status} with id ${job.id}.`;
      return { message, job: toRecomputeJobMsg(job), created };
    },
    async getImpactRecomputeJob(req, ctx) {
      return { job: toRecomputeJobMsg(await s.recomputeJobs.get(requireAccount(ctx.caller), req.jobId)) };
    },
    async listImpactRecomputeJobs(req, ctx) {
      const statuses = req.statuses.map((st) => {
        const name = statusName.get(st);
        if (!name) throw new InvalidArgumentError('statuses must be queued, running, completed or failed.');
        return name;
      });
      const caller = requireAccount(ctx.caller);
      // No page asked for: the newest `limit` jobs (/v1/call's listImpactRecomputeJobs).
      if (req.pageSize === undefined) return { jobs: (await s.recomputeJobs.list(caller, req.limit, statuses)).map(toRecomputeJobMsg), nextPageToken: '' };
      const page = await s.recomputeJobs.page(caller, { size: req.pageSize, token: req.pageToken }, statuses);
      return { jobs: page.jobs.map(toRecomputeJobMsg), nextPageToken: page.nextPageToken, totalCount: page.totalCount };
    },
  };
}

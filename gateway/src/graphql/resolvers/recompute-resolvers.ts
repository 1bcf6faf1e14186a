import { setTimeout as sleep } from 'node:timers/promises';
import { RecomputeStatus, type ImpactRecomputeJob } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { NotFoundError } from '@green-impact/shared/errors';
import { portfolioClient } from '../../clients.js';
import {
  listRecomputeJobsParams,
  recomputeJobParams,
  scopeNameOf,
  startImpactRecomputeParams,
  startRecomputeRequest,
  statusEnumOf,
  statusNameOf,
  type RecomputeScopeName,
  type RecomputeStatusName,
} from '../../v1/operations/recompute-jobs.js';
import { validateParameters } from '../../v1/parameters.js';
import { callAs, type GraphqlContext } from '../context.js';
import type { ServicePage } from '../pagination.js';
import type { PageRequest } from '../portfolio-reads.js';
import { orNull } from './or-null.js';

/**
 * Impact recompute jobs: start (mutation), read (queries) and follow (subscription). The job's state lives in
 * the portfolio service's database, so the subscription polls it: whichever replica runs the job, every
 * gateway sees its progress.
 */

type Maybe<T> = T | null | undefined;

/** How often impactRecomputeJobUpdated reads the job. */
export const RECOMPUTE_POLL_MS = 250;
const TERMINAL = new Set([RecomputeStatus.RECOMPUTE_STATUS_COMPLETED, RecomputeStatus.RECOMPUTE_STATUS_FAILED]);

export interface GqlRecomputeJob {
  id: string;
  scope: string;
  scopeIdentifier: string | null;
  year: number | null;
  status: string;
  done: number;
  total: number;
  error: string | null;
  reason: string;
  attempts: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export function toGqlRecomputeJob(j: ImpactRecomputeJob): GqlRecomputeJob {
  return {
    id: j.jobId,
    scope: (scopeNameOf(j.scope) ?? 'unknown').toUpperCase(),
    scopeIdentifier: j.scopeIdentifier || null,
    year: j.reportingYear ?? null,
    status: (statusNameOf(j.status) ?? 'unknown').toUpperCase(),
    done: j.done,
    total: j.total,
    error: j.error || null,
    reason: j.reason,
    attempts: j.attempts,
    createdAt: j.createdAt,
    startedAt: j.startedAt ?? null,
    finishedAt: j.finishedAt ?? null,
  };
}

const labels = { job_id: 'id', reporting_year: 'year', investor_identifier: 'investorIdentifier', portfolio_identifier: 'portfolioIdentifier', };

async function prepare(ctx: GraphqlContext) {
  return { client: portfolioClient(ctx.clients), opts: await callAs(ctx) };
}

export const recomputeQueries = {
  async impactRecomputeJob(_: unknown, args: { id: string }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(recomputeJobParams, { job_id: args.id }, labels);
    const res = await orNull(client.getImpactRecomputeJob({ jobId: p.job_id }, opts));
    return res?.job ? toGqlRecomputeJob(res.job) : null;
  },
  /** The jobs connection, newest first: the portfolio service pages the listing (servicePaged in index.ts). */
  async impactRecomputeJobs(_: unknown, args: { status?: Maybe<string> }, ctx: GraphqlContext, page: PageRequest): Promise<ServicePage<GqlRecomputeJob>> {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(listRecomputeJobsParams, { status: args.status?.toLowerCase() });
    const req = {
      limit: 0,
      statuses: p.status ? [statusEnumOf(p.status as RecomputeStatusName)] : [],
      pageSize: page.pageSize,
      ...(page.pageToken === undefined ? {} : { pageToken: page.pageToken }),
    };
    const res = await client.listImpactRecomputeJobs(req, opts);
    return { items: res.jobs.map(toGqlRecomputeJob), nextPageToken: res.nextPageToken, totalCount: res.totalCount ?? res.jobs.length };
  },
};

export const recomputeMutations = {
  async startImpactRecompute(
    _: unknown,
    args: { scope: string; investorIdentifier?: Maybe<string>; portfolioIdentifier?: Maybe<string>; year?: Maybe<number> },
    ctx: GraphqlContext,
  ) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(
      startImpactRecomputeParams,
      {
        scope: args.scope.toLowerCase() as RecomputeScopeName,
        investor_identifier: args.investorIdentifier ?? undefined,
        portfolio_identifier: args.portfolioIdentifier ?? undefined,
        reporting_year: args.year ?? undefined,
      },
      labels,
    );
    const res = await client.startImpactRecompute(startRecomputeRequest(p), opts);
    return { message: res.message, created: res.created, job: toGqlRecomputeJob(res.job!) };
  },
};

/** The job's state now, then on every change of status or progress, until it ended (or the subscriber left). */
async function* followJob(read: () => Promise<ImpactRecomputeJob>): AsyncGenerator<{ impactRecomputeJobUpdated: GqlRecomputeJob }> {
  let last = '';
  for (;;) {
    const job = await read();
    const seen = `${job.status}/${job.done}/${job.total}/${job.attempts}`;
    if (seen !== last) {
      last = seen;
      yield { impactRecomputeJobUpdated: toGqlRecomputeJob(job) };
    }
    if (TERMINAL.has(job.status)) return;
    await sleep(RECOMPUTE_POLL_MS);
  }
}

export const recomputeSubscriptions = {
  impactRecomputeJobUpdated: {
    async subscribe(_: unknown, args: { id: string }, ctx: GraphqlContext) {
      const { client, opts } = await prepare(ctx);
      const p = validateParameters(recomputeJobParams, { job_id: args.id }, labels);
      const read = async () => {
        const { job } = await client.getImpactRecomputeJob({ jobId: p.job_id }, opts);
        if (!job) throw new NotFoundError(`No such recompute job "${p.job_id}".`);
        return job;
      };
      // Read once before answering, so an unknown job is the subscription's error, not its first event's.
      const first = await read();
      let pending: ImpactRecomputeJob | undefined = first;
      return followJob(async () => {
        if (pending) {
          const j = pending;
          pending = undefined;
          return j;
        }
        return read();
      });
    },
  },
};

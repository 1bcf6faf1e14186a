import { randomUUID } from 'node:crypto';
import { RecomputeScope, RecomputeStatus, type ImpactRecomputeJob, type ListImpactRecomputeJobsRequest } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import type { Caller } from '@green-impact/shared/caller';
import { NotFoundError } from '@green-impact/shared/errors';
import { fakePageOf, fakePageRequest, invalidToken } from './fake-pages.js';

const JOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The fake portfolio service's recompute jobs: only listed and read (seeded by tests, never run); another
 * account's job reads NOT_FOUND as an unknown one, as the real service answers. Listed as the
 * real service lists them: newest first, then by id; whole (the newest `limit`, at most 100) without
 * page_size, else paged by keyset after the token's job, which must be one of the account's jobs.
 */
export function fakeRecomputeJobs() {
  const jobs: { account: string; job: ImpactRecomputeJob }[] = [];
  const cmp = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  const newestFirst = (a: ImpactRecomputeJob, b: ImpactRecomputeJob) => cmp(b.createdAt, a.createdAt) || cmp(a.jobId, b.jobId);
  return {
    seed(caller: Caller, createdAt: string[]): string[] {
      return createdAt.map((at) => {
        const job: ImpactRecomputeJob = {
          jobId: randomUUID(),
          scope: RecomputeScope.RECOMPUTE_SCOPE_ACCOUNT,
          scopeIdentifier: '',
          reportingYear: 2024,
          status: RecomputeStatus.RECOMPUTE_STATUS_COMPLETED,
          done: 0,
          total: 0,
          error: '',
          reason: 'requested',
          attempts: 1,
          createdAt: new Date(at).toISOString(),
        };
        jobs.push({ account: caller.accountId, job });
        return job.jobId;
      });
    },
    get(c: Caller, jobId: string): { job: ImpactRecomputeJob } {
      const found = jobs.find((j) => j.account === c.accountId && j.job.jobId === jobId);
      if (!found) throw new NotFoundError(`No such recompute job "${jobId.length > 60 ? `${jobId.slice(0, 60)}…` : jobId}".`);
      return { job: found.job };
    },
    list(c: Caller, req: ListImpactRecomputeJobsRequest) {
      const mine = jobs.filter((j) => j.account === c.accountId).map((j) => j.job);
      const list = mine.filter((j) => req.statuses.length === 0 || req.statuses.includes(j.status)).sort(newestFirst);
      if (req.pageSize === undefined) return { jobs: list.slice(0, req.limit > 0 ? Math.min(req.limit, 100) : 100), nextPageToken: '' };
      const { size, after } = fakePageRequest(req, JOB_ID);
      const anchor = after && mine.find((j) => j.jobId === after.id);
      if (after && !anchor) throw invalidToken();
      const rest = anchor ? list.filter((j) => newestFirst(j, anchor) > 0) : list;
      const page = fakePageOf(rest, size, after, (j) => j.jobId, list.length);
      return { jobs: page.items, nextPageToken: page.nextPageToken, totalCount: page.totalCount };
    },
  };
}

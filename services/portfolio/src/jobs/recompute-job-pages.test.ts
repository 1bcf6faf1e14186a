import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { RecomputeStatus, type ImpactRecomputeJob, type ListImpactRecomputeJobsRequest } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import type { Caller } from '@green-impact/shared/caller';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { rejectsWith, startPortfolioHarness, type PortfolioHarness } from '@green-impact/testing/portfolio/harness';

const token = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** ListImpactRecomputeJobs with page_size / page_token: newest first, keyset on (created_at, id), counted, only the caller's jobs. */
for (const db of testDatabases) {
  describe(`recompute jobs paged by the service on ${db.name}`, { skip: await skipReason(db) }, () => {
    let h: PortfolioHarness;
    /** A finished job created at the given minute of 2025-01-01 (several share a minute: ties are ordered by id). */
    const addJob = async (caller: Caller, minute: number, status: 'completed' | 'failed' = 'completed') => {
      const id = randomUUID();
      await h.service.dataSource.query(
        `INSERT INTO portfolio.recompute_jobs (id, account_id, account_role, scope, scope_identifier, reporting_year, reason, status, created_at)
         VALUES ($1, $2, 'user', 'account', '', 2024, 'requested', $3, $4)`,
        [id, caller.accountId, status, new Date(Date.UTC(2025, 0, 1, 0, minute))],
      );
      return id;
    };
    const allPages = async (size: number, caller: Caller, req: Partial<ListImpactRecomputeJobsRequest> = {}, between?: (page: number, last: ImpactRecomputeJob) => Promise<void>) => {
      const pages: ImpactRecomputeJob[][] = [];
      let pageToken: string | undefined;
      for (;;) {
        const res = await h.portfolio.listImpactRecomputeJobs({ limit: 0, statuses: [], ...req, pageSize: size, ...(pageToken ? { pageToken } : {}) }, { caller });
        pages.push(res.jobs);
        if (!res.nextPageToken) break;
        assert.equal(res.jobs.length, size, 'a page before the last is full');
        pageToken = res.nextPageToken;
        await between?.(pages.length, res.jobs.at(-1)!);
      }
      return pages;
    };
    const newestFirst = (jobs: ImpactRecomputeJob[]) =>
      [...jobs].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || (a.jobId < b.jobId ? -1 : a.jobId > b.jobId ? 1 : 0));

    before(async () => {
      h = await startPortfolioHarness(db);
      // 110 jobs (more than the whole list's cap of 100), ten to a minute; every tenth failed.
      for (let n = 0; n < 110; n++) await addJob(h.investor, Math.floor(n / 10), n % 10 === 0 ? 'failed' : 'completed');
      for (let n = 0; n < 3; n++) await addJob(h.stranger, n);
    });
    after(async () => {
      await h?.stop();
    });

    it('pages cover every job once, newest first (ties by id), with the count; absent page_size is the newest 100', async () => {
      const whole = await h.portfolio.listImpactRecomputeJobs({ limit: 0, statuses: [] }, { caller: h.investor });
      assert.deepEqual([whole.jobs.length, whole.nextPageToken, whole.totalCount], [100, '', undefined]);
      const paged = (await allPages(7, h.investor)).flat();
      assert.equal(paged.length, 110);
      assert.deepEqual(paged, newestFirst(paged));
      assert.deepEqual(paged.slice(0, 100), whole.jobs, 'the pages start as the whole list does');
      for (const size of [1, 10, 1000]) assert.deepEqual((await allPages(size, h.investor)).flat(), paged, `page size ${size}`);
      assert.equal((await h.portfolio.listImpactRecomputeJobs({ limit: 0, statuses: [], pageSize: 3 }, { caller: h.investor })).totalCount, 110);
      const failed = (await allPages(4, h.investor, { statuses: [RecomputeStatus.RECOMPUTE_STATUS_FAILED] })).flat();
      assert.deepEqual(failed, paged.filter((j) => j.status === RecomputeStatus.RECOMPUTE_STATUS_FAILED));
      assert.equal(failed.length, 11);
      const theirs = (await allPages(2, h.stranger)).flat().map((j) => j.jobId);
      assert.equal(theirs.length, 3);
      assert.ok(theirs.every((id) => !paged.some((j) => j.jobId === id)), "another account's jobs never appear");
    });

    it('jobs created and changed between pages: each job present throughout is seen exactly once, in order', async () => {
      const before = (await allPages(1000, h.investor, { statuses: [RecomputeStatus.RECOMPUTE_STATUS_COMPLETED] })).flat();
      let older = '';
      const pages = await allPages(20, h.investor, { statuses: [RecomputeStatus.RECOMPUTE_STATUS_COMPLETED] }, async (page, last) => {
        if (page !== 1) return;
        await addJob(h.investor, 30); // newer than every page: it sorts before the cursor
        older = await addJob(h.investor, -5); // older than every job: the last page shows it
        // The page's last job leaves the filter: the next page still starts right after it.
        await h.service.dataSource.query(`UPDATE portfolio.recompute_jobs SET status = 'failed' WHERE id = $1`, [last.jobId]);
      });
      const seen = pages.flat();
      assert.equal(new Set(seen.map((j) => j.jobId)).size, seen.length);
      assert.deepEqual(seen.map((j) => j.jobId), [...before.map((j) => j.jobId), older]);
    });

    it("refuses a malformed or foreign page_token (another list's, another account's job) and a page_size out of 1..1000", async () => {
      const theirs = (await h.portfolio.listImpactRecomputeJobs({ limit: 0, statuses: [], pageSize: 1 }, { caller: h.stranger })).jobs[0]!.jobId;
      for (const pageToken of ['not a token!', token([1, '12']), token([1, randomUUID()]), token([1, theirs]), token([1, theirs.toUpperCase()]), token({})]) {
        await rejectsWith(h.portfolio.listImpactRecomputeJobs({ limit: 0, statuses: [], pageSize: 2, pageToken }, { caller: h.investor }), 'INVALID_ARGUMENT', 'page_token must be a next_page_token of this listing.');
      }
      for (const pageSize of [0, 1001]) {
        await rejectsWith(h.portfolio.listImpactRecomputeJobs({ limit: 0, statuses: [], pageSize }, { caller: h.investor }), 'INVALID_ARGUMENT', `page_size must be an integer from 1 to 1000, got ${pageSize}.`);
      }
    });
  });
}

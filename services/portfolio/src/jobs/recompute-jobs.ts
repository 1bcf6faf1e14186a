import type { DataSource } from 'typeorm';
import { actedByColumns, type Caller } from '@green-impact/shared/caller';
import { InvalidArgumentError, NotFoundError } from '@green-impact/shared/errors';
import { decodeTextPageToken, pageOf, pageSize, type PageRequest } from '@green-impact/shared/paging';
import type { InvestorStore } from '../investors/investor-store.js';
import type { PortfolioStore } from '../portfolios/portfolio-store.js';
import * as v from '../validation.js';
import type { NewRecomputeJob, RecomputeJobRow, RecomputeJobStore, RecomputeScopeName, RecomputeStatusName } from './recompute-job-store.js';
import type { RecomputeRunner } from './recompute-runner.js';

export interface StartRecompute {
  scope: RecomputeScopeName;
  investorIdentifier?: string | undefined;
  portfolioIdentifier?: string | undefined;
  reportingYear?: number | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const MAX_LISTED_JOBS = 100;
/** A job id as the store answers it (lower-case UUID): the ids of the paged listing's tokens. */
const JOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Starting and reading recompute jobs; the runner (this replica's, or any other's) does the work. */
export class RecomputeJobs {
  constructor(
    private readonly ds: DataSource,
    private readonly store: RecomputeJobStore,
    private readonly runner: RecomputeRunner,
    private readonly investors: InvestorStore,
    private readonly portfolios: PortfolioStore,
  ) {}

  async start(caller: Caller, req: StartRecompute): Promise<{ job: RecomputeJobRow; created: boolean }> {
    const [actedBySubject, actedByIssuer] = actedByColumns(caller);
    const base = { accountId: caller.accountId, accountRole: caller.role, reason: 'requested' as const, actedBySubject, actedByIssuer };
    let job: NewRecomputeJob;
    if (req.scope === 'stale') {
      job = { ...base, scope: 'stale', scopeIdentifier: '', scopeId: null, reportingYear: null };
    } else {
      if (req.reportingYear === undefined) throw new InvalidArgumentError('reporting_year is required.', { field: 'reporting_year' });
      const reportingYear = v.reportingYear(req.reportingYear);
      if (req.scope === 'investor') {
        const investor = await this.investors.requireInvestor(this.ds.manager, caller, v.text('investor_identifier', req.investorIdentifier));
        job = { ...base, scope: 'investor', scopeIdentifier: investor.investorIdentifier, scopeId: investor.id, reportingYear };
      } else if (req.scope === 'portfolio') {
        const portfolio = await this.portfolios.require(this.ds.manager, caller, v.text('portfolio_identifier', req.portfolioIdentifier));
        job = { ...base, scope: 'portfolio', scopeIdentifier: portfolio.portfolioIdentifier, scopeId: portfolio.id, reportingYear };
      } else {
        job = { ...base, scope: 'account', scopeIdentifier: '', scopeId: null, reportingYear };
      }
    }
    const out = await this.store.enqueue(job);
    this.runner.kick();
    return out;
  }

  /** Queues a stale recompute for each account (unless one is queued already) and starts working. */
  async enqueueStale(accountIds: readonly string[]): Promise<RecomputeJobRow[]> {
    const jobs: RecomputeJobRow[] = [];
    for (const accountId of accountIds) {
      const { job } = await this.store.enqueue({
        accountId, accountRole: 'user', scope: 'stale', scopeIdentifier: '', scopeId: null, reportingYear: null, reason: 'taxonomy-change',
      });
      jobs.push(job);
    }
    if (jobs.length > 0) this.runner.kick();
    return jobs;
  }

  async get(caller: Caller, jobId: string): Promise<RecomputeJobRow> {
    const id = v.text('job_id', jobId, v.MAX_JOB_ID_LENGTH);
    const job = UUID.test(id) ? await this.store.get(caller.accountId, id.toLowerCase()) : undefined;
    if (!job) throw new NotFoundError(`No such recompute job "${id.length > 60 ? `${id.slice(0, 60)}…` : id}".`);
    return job;
  }

  async list(caller: Caller, limit: number, statuses: RecomputeStatusName[]): Promise<RecomputeJobRow[]> {
    // 0 is the proto's absent limit: the default.
    if (!Number.isInteger(limit) || limit < 0 || limit > MAX_LISTED_JOBS) {
      throw new InvalidArgumentError(`limit must be from 1 to ${MAX_LISTED_JOBS}, got ${limit}.`, { field: 'limit' });
    }
    const n = limit === 0 ? MAX_LISTED_JOBS : limit;
    return this.store.list(caller.accountId, n, statuses);
  }

  /**
   * One page of the account's jobs, newest first (created_at, then id), after the token's job (keyset:
   * LIMIT size + 1 rows), with the number of matching jobs; not capped at MAX_LISTED_JOBS. A token that
   * names no job of the account (another listing's, or another account's) is INVALID_ARGUMENT.
   */
  async page(caller: Caller, page: PageRequest, statuses: RecomputeStatusName[]): Promise<{ jobs: RecomputeJobRow[]; nextPageToken: string; totalCount: number }> {
    const size = pageSize(page.size);
    const after = decodeTextPageToken(page.token, JOB_ID);
    const found = await this.store.page(caller.accountId, statuses, after?.id, size + 1);
    if (!found) throw new InvalidArgumentError('page_token must be a next_page_token of this listing.');
    const { items, nextPageToken } = pageOf(found.rows, size, after, (j) => j.id);
    return { jobs: items, nextPageToken, totalCount: found.count };
  }
}

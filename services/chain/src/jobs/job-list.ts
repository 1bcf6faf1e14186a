import type { DataSource } from 'typeorm';
import type { ListJobsRequest } from '@green-impact/proto/greenimpact/chain/v1/chain';
import type { Caller } from '@green-impact/shared/caller';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import { JobEntity, type JobRow } from './entities.js';
import { DOCUMENT_KINDS, JOB_KINDS, JOB_STATUSES, nameOf } from './job-types.js';

const DEFAULT_PAGE = 50;
const MAX_PAGE = 500;
/** Identifier filters are lookup keys of at most 255 characters, as the services store them; a network name at most 64. */
const MAX_IDENTIFIER = 255;
const MAX_NETWORK = 64;

function filterKey(field: string, value: string | undefined, max: number): string | undefined {
  const key = value?.trim() || undefined;
  if (key !== undefined && key.length > max) throw new InvalidArgumentError(`${field} must be at most ${max} characters.`, { field });
  return key;
}

/** The caller's jobs, newest first, filtered; pages continue after the last job's sequence number. */
export async function listJobs(ds: DataSource, caller: Caller, req: ListJobsRequest): Promise<{ jobs: JobRow[]; nextPageToken: string; cursors: string[] }> {
  if (req.pageSize < 0) throw new InvalidArgumentError('page_size must not be negative.', { field: 'page_size' });
  if (req.pageSize > MAX_PAGE) throw new InvalidArgumentError(`page_size must be at most ${MAX_PAGE}.`, { field: 'page_size' });
  const size = Math.min(req.pageSize || DEFAULT_PAGE, MAX_PAGE);
  const network = filterKey('network', req.network, MAX_NETWORK);
  const framework = filterKey('framework_identifier', req.frameworkIdentifier, MAX_IDENTIFIER);
  const investor = filterKey('investor_identifier', req.investorIdentifier, MAX_IDENTIFIER);
  const q = ds.getRepository(JobEntity).createQueryBuilder('j').where('j.account_id = :account', { account: caller.accountId });
  const filter = <T extends Record<string, number>>(table: T, value: number | undefined, column: string, what: string) => {
    if (value === undefined) return;
    const name = nameOf(table, value);
    if (!name) throw new InvalidArgumentError(`Unknown ${what} ${value}.`);
    q.andWhere(`j.${column} = :${column}`, { [column]: name });
  };
  filter(JOB_KINDS, req.kind, 'kind', 'kind');
  filter(DOCUMENT_KINDS, req.documentKind, 'document_kind', 'document kind');
  filter(JOB_STATUSES, req.status, 'status', 'status');
  if (network) q.andWhere('j.network = :network', { network });
  if (framework) q.andWhere('j.framework_identifier = :fw', { fw: framework });
  if (investor) q.andWhere('j.investor_identifier = :inv', { inv: investor });
  if (req.positionId !== undefined) q.andWhere('j.position_id = :pos', { pos: req.positionId });
  if (req.pageToken) q.andWhere('j.seq < :after', { after: decodeToken(req.pageToken) });
  const rows = await q.orderBy('j.seq', 'DESC').take(size + 1).getMany();
  const jobs = rows.slice(0, size);
  return { jobs, nextPageToken: rows.length > size ? encodeToken(jobs[jobs.length - 1]!.seq) : '', cursors: jobs.map((j) => encodeToken(j.seq)) };
}

function encodeToken(seq: number): string {
  return Buffer.from(`jobs:${seq}`, 'utf8').toString('base64url');
}

function decodeToken(token: string): number {
  const m = /^jobs:(\d{1,15})$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  if (!m) throw new InvalidArgumentError('page_token is not a token this service gave out.', { field: 'page_token' });
  return Number(m[1]);
}

import type { DataSource } from 'typeorm';
import type { ListJobsRequest } from '@green-impact/proto/greenimpact/chain/v1/chain';
import type { Caller } from '@green-impact/shared/caller';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import { decodePageToken, orderOf, pageBeforeOf, pageOf, type ListingOrders, type PageToken } from '@green-impact/shared/paging';
import { keysetPage } from '../keyset-query.js';
import { JobEntity, type JobRow } from './entities.js';
import { DOCUMENT_KINDS, JOB_KINDS, JOB_STATUSES, nameOf } from './job-types.js';

const DEFAULT_PAGE = 50;
const MAX_PAGE = 500;
/** Identifier filters are lookup keys of at most 255 characters, as the services store them; a network name at most 64. */
const MAX_IDENTIFIER = 255;
const MAX_NETWORK = 64;

/**
 * The orders a job page can be read in (GraphQL JobOrderField), each then by the job's sequence number
 * (its order of creation). The default stays newest first, with the service's own tokens (`jobs:<seq>`).
 */
const JOB_ORDERS: ListingOrders = {
  id: { sql: 'j.seq', type: 'bigint' },
  columns: {
    created_at: { sql: 'j.created_at', type: 'timestamptz' },
    updated_at: { sql: 'j.updated_at', type: 'timestamptz' },
    status: { sql: 'j.status', type: 'text' },
    kind: { sql: 'j.kind', type: 'text' },
    network: { sql: 'j.network', type: 'text' },
  },
  default: { field: 'id', descending: true },
};

function filterKey(field: string, value: string | undefined, max: number): string | undefined {
  const key = value?.trim() || undefined;
  if (key !== undefined && key.length > max) throw new InvalidArgumentError(`${field} must be at most ${max} characters.`, { field });
  return key;
}

/**
 * The caller's jobs, filtered, newest first or in page_order; pages continue after the token's job (or end
 * right before page_before's), keyset on the order's value and the job's sequence number.
 */
export async function listJobs(
  ds: DataSource,
  caller: Caller,
  req: ListJobsRequest,
): Promise<{ jobs: JobRow[]; nextPageToken: string; cursors: string[]; hasPreviousPage: boolean }> {
  if (req.pageSize < 0) throw new InvalidArgumentError('page_size must not be negative.', { field: 'page_size' });
  if (req.pageSize > MAX_PAGE) throw new InvalidArgumentError(`page_size must be at most ${MAX_PAGE}.`, { field: 'page_size' });
  const size = Math.min(req.pageSize || DEFAULT_PAGE, MAX_PAGE);
  const network = filterKey('network', req.network, MAX_NETWORK);
  const framework = filterKey('framework_identifier', req.frameworkIdentifier, MAX_IDENTIFIER);
  const investor = filterKey('investor_identifier', req.investorIdentifier, MAX_IDENTIFIER);
  const order = orderOf(JOB_ORDERS, req.pageOrder);
  const after = req.pageToken ? decodeToken(req.pageToken, 'page_token') : undefined;
  if (req.pageBefore && after) throw new InvalidArgumentError('page_token and page_before cannot be given together: a page is read forward or backward.');
  const before = req.pageBefore ? decodeToken(req.pageBefore, 'page_before') : undefined;
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
  const rows = await keysetPage(q, order, before ?? after, size, before !== undefined);
  const idOf = (j: JobRow) => j.seq;
  const page = before ? pageBeforeOf(rows, size, before, idOf, order) : { ...pageOf(rows, size, after, idOf, order), hasPreviousPage: after !== undefined };
  // The default order keeps the service's own tokens; an ordered page's carry its order and the job's value.
  const cursors = order.tag === order.defaultTag ? page.items.map((j) => encodeToken(j.seq)) : page.itemPageTokens;
  const more = before ? page.items.length > 0 : rows.length > size;
  return { jobs: page.items, nextPageToken: more ? (cursors.at(-1) ?? '') : '', cursors, hasPreviousPage: page.hasPreviousPage };
}

function encodeToken(seq: number): string {
  return Buffer.from(`jobs:${seq}`, 'utf8').toString('base64url');
}

/**
 * A token of this listing: the default order's own (`jobs:<seq>`), or an ordered page's (shared paging's,
 * which also names the gateway's end of the list for a backward page without before).
 */
function decodeToken(token: string, field: 'page_token' | 'page_before'): PageToken {
  const m = /^jobs:(\d{1,15})$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  if (m) return { offset: 0, id: Number(m[1]) };
  try {
    return decodePageToken(token)!;
  } catch {
    throw new InvalidArgumentError(`${field} is not a token this service gave out.`, { field });
  }
}

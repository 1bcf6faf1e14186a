import { documentKindFromGql, jobKindFromGql, jobStatusFromGql } from '../../graphql/chain-objects.js';
import {
  AFTER_IN_ORDER,
  backwardSize,
  BEFORE_IN_ORDER,
  decodeCursor,
  edgesOf,
  END_OF_LIST_CURSOR,
  inOrder,
  orderArgDoc,
  orderOfArgs,
  orderTypes,
  type Cursor,
  type PageArgs,
} from '../../graphql/pagination.js';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import { orNull } from '../../graphql/resolvers/or-null.js';
import { identifier, int, json, text } from '../fields.js';
import type { GraphqlContext } from '../../graphql/context.js';
import { callerOf, declare } from '../operation.js';
import { ESG, HASH, NFT } from '../renders.js';
import { fetchAnswer, jobOf } from './job-shapes.js';
import { nftFetchAnswer } from './nft-shapes.js';

/**
 * Blockchain jobs and networks (spec §4.2 getJobStatusFromBlockchain, §4.12 fetch; GraphQL's jobs, job and
 * networks), served by ChainService, which owns job ids (a UUID or an entry's number), page sizes and
 * tokens, and their texts.
 */

/** A job UUID, or the decimal `id` of a getBlockchainJobsFor* entry. */
const jobId = identifier('job_id', { doc: "The job's id (UUID), or the id of a document entry.", graphql: 'ID' });

/** The job a `fetch` reads: `jobId`, as info.jobId names it; `job_id` as the ESG solution spells it. */
const fetchJobId = identifier('jobId', { aliases: ['job_id'], doc: 'The job id a call answered.' });

/**
 * GetJob, one declaration for its four faces: getJobStatusFromBlockchain (not shown in the spec: the
 * `fetch` answer of the job, docs/api-operations.md); Hash `fetch` (unnamed in the spec), any job of the
 * account whatever its kind, with version required as on every Hash call (spec §4.1) and no network (the
 * job knows its network); NFT `fetch`, whose mint answers its certificate keys from the start; and
 * GraphQL's `job`, null when the account has none. `jobId`, as info.jobId names it, on the fetches;
 * `job_id` as the ESG solution spells it (an alias there).
 */
const job = declare({
  solution: ESG,
  operation: 'getJobStatusFromBlockchain',
  summary: "One of the caller's jobs, by its id (UUID) or the id of a document entry. Null when the account has none.",
  input: { id: jobId },
  service: 'chain',
  method: 'getJob',
  request: (i) => ({ jobId: i.id }),
  v1: (res) => fetchAnswer(jobOf(res)),
  v1Also: [
    { solution: HASH, operation: 'fetch', input: { id: fetchJobId }, envelope: { version: 'required' }, v1: (res) => fetchAnswer(jobOf(res)) },
    { solution: NFT, operation: 'fetch', input: { id: fetchJobId }, v1: (res) => nftFetchAnswer(jobOf(res)) },
  ],
  graphql: {
    root: 'Query',
    field: 'job',
    returns: 'Job',
    nested: false,
    render: async (call) => {
      const res = await orNull(call());
      return res?.job ?? null;
    },
  },
});

/**
 * What the jobs connection is ordered by (JobOrderField: the service's page_order fields in upper case),
 * then by the order of creation; without orderBy newest first, with the service's own cursors.
 */
const JOB_ORDER = {
  type: 'Job',
  plural: 'jobs',
  fields: {
    CREATED_AT: 'When the job was accepted.',
    UPDATED_AT: 'When the job last changed.',
    STATUS: "The status as the service names it, as text (completed, failed, queued, submitted going up).",
    KIND: 'The kind as the service names it (kv_insert_string, nft_mint, ...), as text.',
    NETWORK: 'The network name as the job was sent to it, as text.',
  },
  default: { field: 'id', descending: true, doc: 'newest first (ID DESC)' },
};
const JOB_PAGE_MAX = 500;
const JOB_PAGE_DEFAULT = 50;

/** The SDL of JobOrder and JobOrderField (chain-schema.ts). */
export const jobOrderSdl = orderTypes(JOB_ORDER.type, JOB_ORDER.plural, JOB_ORDER.fields);

/** The order a jobs cursor was given in: an ordered page's cursor says it; the service's own (jobs:<seq>), none. Which cursor is this list's is the service's to say. */
function jobCursor(text: string): Cursor {
  try {
    return decodeCursor(text);
  } catch {
    return { offset: 0, id: '' };
  }
}

/**
 * The caller's jobs, newest first or in orderBy, filtered and paged forward or backward by the chain
 * service (its token after each job is that edge's cursor). The connection is not servicePaged: its
 * cursors are the service's own (jobs:<seq>) and its pages 1 to 500 jobs, default 50, as before.
 */
const jobs = declare({
  solution: ESG,
  summary: "The caller's blockchain jobs, newest first, filtered and paged.",
  input: {
    kind: identifier('kind', { graphql: 'JobKind', doc: 'Only jobs of this kind.' }).optional(),
    documentKind: identifier('document_kind', { graphql: 'DocumentKind', doc: 'Only document jobs writing this kind of report.' }).optional(),
    status: identifier('status', { graphql: 'JobStatus', doc: 'Only jobs in this status.' }).optional(),
    network: identifier('network', { doc: 'A network name as the jobs were sent to it (an alias such as mumbai stays as given).' }).optional(),
    frameworkIdentifier: identifier('framework_identifier', { doc: 'Only document jobs about this framework.' }).optional(),
    investorIdentifier: identifier('investor_identifier', { doc: "Only document jobs about this investor's positions." }).optional(),
    positionId: int('position_id', { graphql: 'ID', doc: 'Only document jobs about this position.' }).optional(),
    first: int('page_size', { graphqlDefault: JOB_PAGE_DEFAULT, doc: `Page size: 1 to ${JOB_PAGE_MAX}, default ${JOB_PAGE_DEFAULT}.` }).optional(),
    after: text('page_token', { doc: 'pageInfo.endCursor of the previous page; omit for the first page.' }).optional(),
    last: int('last', {
      doc: `Page backward: the last 1 to ${JOB_PAGE_MAX} jobs (default ${JOB_PAGE_DEFAULT}) before \`before\` (or of the whole list), in the list's order; not with first.`,
    }).optional(),
    before: text('page_before', { doc: 'A cursor of this list: the page ends right before its job (with last).' }).optional(),
    orderBy: json('page_order', { graphql: 'JobOrder', doc: orderArgDoc(JOB_ORDER.default.doc) }).optional(),
  },
  service: 'chain',
  method: 'listJobs',
  // kind, documentKind and status are GraphQL enums, checked by the schema.
  request: (i) => ({
    ...(i.kind ? { kind: jobKindFromGql(i.kind) } : {}),
    ...(i.documentKind ? { documentKind: documentKindFromGql(i.documentKind) } : {}),
    ...(i.status ? { status: jobStatusFromGql(i.status) } : {}),
    network: i.network,
    frameworkIdentifier: i.frameworkIdentifier,
    investorIdentifier: i.investorIdentifier,
    positionId: i.positionId,
    ...(i.last === undefined && i.before === undefined
      ? { pageSize: i.first ?? JOB_PAGE_DEFAULT, pageToken: i.after ?? '' }
      : { pageSize: i.last ?? JOB_PAGE_DEFAULT, pageToken: '', pageBefore: i.before ?? END_OF_LIST_CURSOR }),
    pageOrder: orderOfArgs(i.orderBy as PageArgs['orderBy']),
  }),
  graphql: {
    root: 'Query',
    field: 'jobs',
    returns: 'JobConnection!',
    nested: false,
    render: async (call, i, _ctx, info) => {
      // Checked before the call, as servicePaged checks every other connection.
      const backward = backwardSize({ first: i.first, after: i.after, last: i.last, before: i.before }, info, JOB_PAGE_MAX, JOB_PAGE_DEFAULT) !== undefined;
      const order = orderOfArgs(i.orderBy as PageArgs['orderBy']);
      const cursor = i.before ?? i.after;
      if (cursor !== undefined && !inOrder(jobCursor(cursor), order, JOB_ORDER.default)) {
        throw new InvalidArgumentError(i.before !== undefined ? BEFORE_IN_ORDER : AFTER_IN_ORDER);
      }
      const res = await call();
      const nodes = res.jobs;
      const edges = edgesOf(nodes, (n) => res.cursors[n] ?? '');
      return {
        nodes,
        edges,
        pageInfo: {
          hasNextPage: backward ? i.before !== undefined : res.nextPageToken !== '',
          hasPreviousPage: backward ? res.hasPreviousPage : i.after !== undefined,
          startCursor: edges[0]?.cursor ?? null,
          endCursor: edges.at(-1)?.cursor ?? null,
        },
      };
    },
  },
});

const networks = declare({
  solution: ESG,
  summary: 'The networks jobs can be sent to, aliases kept for legacy clients (mumbai) included.',
  input: {},
  service: 'chain',
  method: 'listNetworks',
  request: () => ({}),
  graphql: { returns: '[Network!]!', nested: false, render: async (call) => (await call()).networks },
});

/** One of the caller's jobs as GraphQL shows it, null when the account has none (a Job node's refetch). */
export async function jobById(ctx: GraphqlContext, id: string) {
  const res = await orNull(job.call({ id }, await callerOf(ctx)));
  return res?.job ?? null;
}

export const jobOperations = [jobs, job, networks];

import { documentKindFromGql, jobKindFromGql, jobStatusFromGql, toGqlJob, toGqlNetwork } from '../../graphql/chain-objects.js';
import { edgesOf } from '../../graphql/pagination.js';
import { orNull } from '../../graphql/resolvers/or-null.js';
import { identifier, int, text } from '../fields.js';
import type { GraphqlContext } from '../../graphql/context.js';
import { callerOf, declare } from '../operation.js';
import { ESG, HASH } from '../renders.js';
import { fetchAnswer, jobOf } from './job-shapes.js';

/**
 * Blockchain jobs and networks (spec §4.2 getJobStatusFromBlockchain, §4.12 fetch; GraphQL's jobs, job and
 * networks), served by ChainService, which owns job ids (a UUID or an entry's number), page sizes and
 * tokens, and their texts.
 */

/** A job UUID, or the decimal `id` of a getBlockchainJobsFor* entry. */
const jobId = identifier('job_id', { doc: "The job's id (UUID), or the id of a document entry.", graphql: 'ID' });

/** Not shown in the spec: the `fetch` answer of the job (docs/api-operations.md). */
const getJobStatusFromBlockchain = declare({
  solution: ESG,
  operation: 'getJobStatusFromBlockchain',
  summary: "A job's status and outcome, as Hash fetch answers it.",
  input: { jobId },
  service: 'chain',
  method: 'getJob',
  request: (i) => ({ jobId: i.jobId }),
  v1: (res) => fetchAnswer(jobOf(res)),
});

/** The job a `fetch` reads: `jobId`, as info.jobId names it; `job_id` as the ESG solution spells it. */
export const fetchJobId = identifier('jobId', { aliases: ['job_id'], doc: 'The job id a call answered.' });

/**
 * Hash `fetch` (unnamed in the spec): any job of the account, whatever its kind (a document write's too):
 * `{statusCode, statusMessage, info}`. version is required as on every Hash call (spec §4.1); network is
 * not: the job knows its network. `jobId`, as info.jobId names it; `job_id` as the ESG solution spells it.
 */
const hashFetch = declare({
  solution: HASH,
  operation: 'fetch',
  summary: "A job's status and outcome; for selects the value read.",
  input: { jobId: fetchJobId },
  service: 'chain',
  method: 'getJob',
  envelope: { version: 'required' },
  request: (i) => ({ jobId: i.jobId }),
  v1: (res) => fetchAnswer(jobOf(res)),
});

/** The caller's jobs, newest first, filtered and paged by the chain service (its token after each job is that edge's cursor). */
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
    first: int('page_size', { graphqlDefault: 50, doc: 'Page size: 1 to 500, default 50.' }).optional(),
    after: text('page_token', { doc: 'pageInfo.endCursor of the previous page; omit for the first page.' }).optional(),
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
    pageSize: i.first ?? 50,
    pageToken: i.after ?? '',
  }),
  graphql: {
    root: 'Query',
    field: 'jobs',
    returns: 'JobConnection!',
    nested: false,
    render: async (call, i, ctx) => {
      const res = await call();
      const nodes = res.jobs.map((j) => toGqlJob(j, ctx.baseUrl));
      const edges = edgesOf(nodes, (n) => res.cursors[n] ?? '');
      return {
        nodes,
        edges,
        pageInfo: {
          hasNextPage: res.nextPageToken !== '',
          hasPreviousPage: i.after !== undefined,
          startCursor: edges[0]?.cursor ?? null,
          endCursor: edges.at(-1)?.cursor ?? null,
        },
      };
    },
  },
});

/** One of the caller's jobs by its id or an entry's; null when the account has none. */
const job = declare({
  solution: ESG,
  summary: "One of the caller's jobs, by its id (UUID) or the id of a document entry. Null when the account has none.",
  input: { id: jobId },
  service: 'chain',
  method: 'getJob',
  request: (i) => ({ jobId: i.id }),
  graphql: {
    root: 'Query',
    field: 'job',
    returns: 'Job',
    nested: false,
    render: async (call, _i, ctx) => {
      const res = await orNull(call());
      return res?.job ? toGqlJob(res.job, ctx.baseUrl) : null;
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
  graphql: { root: 'Query', field: 'networks', returns: '[Network!]!', nested: false, render: async (call) => (await call()).networks.map(toGqlNetwork) },
});

/** One of the caller's jobs as GraphQL shows it, null when the account has none (a Job node's refetch). */
export async function jobById(ctx: GraphqlContext, id: string) {
  const res = await orNull(job.call({ id }, await callerOf(ctx)));
  return res?.job ? toGqlJob(res.job, ctx.baseUrl) : null;
}

export const jobOperations = [getJobStatusFromBlockchain, hashFetch, jobs, job, networks];

import { InvalidArgumentError } from '@green-impact/shared/errors';
import { chainClient } from '../../clients.js';
import { jobIdParams, jobsForFrameworkParams, jobsForImpactsParams } from '../../v1/operations/blockchain-params.js';
import { requireVerifiedDocument } from '../../v1/operations/blockchain-shapes.js';
import { validateParameters } from '../../v1/parameters.js';
import { callAs, type GraphqlContext } from '../context.js';
import {
  documentKindFromGql,
  jobKindFromGql,
  jobStatusFromGql,
  jsonScalar,
  toGqlDocument,
  toGqlDocumentEntry,
  toGqlJob,
  toGqlNetwork,
} from '../chain-objects.js';
import { edgesOf, type ServicePage } from '../pagination.js';
import { orNull } from './or-null.js';

/**
 * Blockchain jobs, networks and written documents: the GraphQL face of spec §4.2 reads and the job fetch.
 * Each field authenticates, checks that a chain backend is configured (503 UNAVAILABLE otherwise), then
 * validates with the /v1/call parameter specs (messages name the GraphQL arguments).
 */

type Maybe<T> = T | null | undefined;

const labels = {
  job_id: 'id',
  framework_identifier: 'frameworkIdentifier',
  investor_identifier: 'investorIdentifier',
  position_id: 'positionId',
  network: 'network',
  page_size: 'first',
  page_token: 'after',
} as const;

const listJobsParams = {
  network: { type: 'identifier', maxLength: 64 },
  framework_identifier: { type: 'identifier' },
  investor_identifier: { type: 'identifier' },
  position_id: { type: 'int', min: 1 },
  page_size: { type: 'int', min: 1, max: 500 },
  page_token: { type: 'string', maxLength: 512 },
} as const;

/** Authenticates, then picks the chain client (UNAVAILABLE without one) before any validation. */
async function prepare(ctx: GraphqlContext) {
  const opts = await callAs(ctx);
  return { client: chainClient(ctx.clients), opts };
}

export interface JobsArgs {
  kind?: Maybe<string>;
  documentKind?: Maybe<string>;
  status?: Maybe<string>;
  network?: Maybe<string>;
  frameworkIdentifier?: Maybe<string>;
  investorIdentifier?: Maybe<string>;
  positionId?: Maybe<string>;
  first?: Maybe<number>;
  after?: Maybe<string>;
}

export const chainQueries = {
  async jobs(_: unknown, args: JobsArgs, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(
      listJobsParams,
      {
        network: args.network,
        framework_identifier: args.frameworkIdentifier,
        investor_identifier: args.investorIdentifier,
        position_id: args.positionId,
        page_size: args.first ?? 50,
        page_token: args.after,
      },
      labels,
    );
    const res = await client.listJobs(
      {
        ...(args.kind ? { kind: jobKindFromGql(args.kind) } : {}),
        ...(args.documentKind ? { documentKind: documentKindFromGql(args.documentKind) } : {}),
        ...(args.status ? { status: jobStatusFromGql(args.status) } : {}),
        network: p.network,
        frameworkIdentifier: p.framework_identifier,
        investorIdentifier: p.investor_identifier,
        positionId: p.position_id,
        pageSize: p.page_size ?? 50,
        pageToken: p.page_token ?? '',
      },
      opts,
    );
    const nodes = res.jobs.map((j) => toGqlJob(j, ctx.baseUrl));
    // The service's token after each job is its edge's cursor (the last one is next_page_token when more follow).
    const edges = edgesOf(nodes, (i) => res.cursors[i] ?? '');
    return {
      nodes,
      edges,
      pageInfo: {
        hasNextPage: res.nextPageToken !== '',
        hasPreviousPage: p.page_token !== undefined,
        startCursor: edges[0]?.cursor ?? null,
        endCursor: edges.at(-1)?.cursor ?? null,
      },
    };
  },
  async job(_: unknown, args: { id: string }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(jobIdParams, { job_id: args.id }, labels);
    const res = await orNull(client.getJob({ jobId: p.job_id }, opts));
    return res?.job ? toGqlJob(res.job, ctx.baseUrl) : null;
  },
  async networks(_: unknown, _args: unknown, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    return (await client.listNetworks({}, opts)).networks.map(toGqlNetwork);
  },
  /** One page of the listing, paged by the chain service (keyset on the entry id, with its count). */
  async documents(
    _: unknown,
    args: { frameworkIdentifier?: Maybe<string>; investorIdentifier?: Maybe<string>; positionId?: Maybe<string> },
    ctx: GraphqlContext,
    page: { pageSize: number; pageToken: string | undefined },
  ): Promise<ServicePage<ReturnType<typeof toGqlDocumentEntry>>> {
    const { client, opts } = await prepare(ctx);
    let req;
    if (args.frameworkIdentifier) {
      const p = validateParameters(jobsForFrameworkParams, { framework_identifier: args.frameworkIdentifier }, labels);
      req = { frameworkIdentifier: p.framework_identifier, kinds: [] };
    } else if (args.investorIdentifier || args.positionId) {
      const p = validateParameters(jobsForImpactsParams, { investor_identifier: args.investorIdentifier, position_id: args.positionId }, labels);
      req = { investorIdentifier: p.investor_identifier, positionId: p.position_id, kinds: [] };
    } else {
      throw new InvalidArgumentError('Give frameworkIdentifier, or investorIdentifier with positionId.');
    }
    const res = await client.listDocumentJobs({ ...req, pageSize: page.pageSize, ...(page.pageToken === undefined ? {} : { pageToken: page.pageToken }) }, opts);
    return { items: res.jobs.map(toGqlDocumentEntry), nextPageToken: res.nextPageToken, totalCount: res.totalCount ?? res.jobs.length };
  },
  async document(_: unknown, args: { jobId: string }, ctx: GraphqlContext) {
    const { client, opts } = await prepare(ctx);
    const p = validateParameters(jobIdParams, { job_id: args.jobId }, { job_id: 'jobId' });
    const doc = await orNull(client.getDocument({ jobId: p.job_id }, opts));
    return doc ? toGqlDocument(requireVerifiedDocument(doc, {}), ctx.baseUrl, ctx.documentLinks) : null;
  },
};

export const chainTypes = { JSON: jsonScalar };

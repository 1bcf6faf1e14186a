import { NETWORK_NAME } from '@green-impact/proto/rules';
import { JobKind } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { InvalidArgumentError, NotFoundError } from '@green-impact/shared/errors';
import { chainClient } from '../../clients.js';
import { identifier } from '../../catalogue/fields.js';
import { inputFromGraphql } from '../../catalogue/parse.js';
import { jobKindFromGql } from '../chain-objects.js';
import { callAs, type GraphqlContext } from '../context.js';
import { mapIterator, streamIterator } from '../subscriptions/stream-iterator.js';
import { orNull } from './or-null.js';

/**
 * Subscriptions: jobUpdated and nftUpdated, both over the chain service's WatchJobs stream. Each
 * subscription holds one gRPC stream, cancelled when the subscriber completes or disconnects.
 */

type Maybe<T> = T | null | undefined;

/**
 * A subscription is not an operation of the catalogue but a stream GraphQL holds itself, so the few bounds
 * of its arguments are checked here, before the stream opens (a refusal of the stream would arrive as its
 * first event instead of refusing the subscription).
 */
const MAX_WATCHED_JOBS = 100;
const MAX_ID_LENGTH = 64;
/** A watched job: its UUID or a document entry's id; an NFT's guid. */
function watchedId(value: unknown, label: string): string {
  const id = inputFromGraphql({ [label]: identifier(label) }, { [label]: value }, false)[label] as string;
  if (id.length > MAX_ID_LENGTH) throw new InvalidArgumentError(`${label} must be at most ${MAX_ID_LENGTH} characters.`, { field: label });
  return id;
}

function checkNetworkName(value: string, label: string): string {
  if (!NETWORK_NAME.test(value)) throw new InvalidArgumentError(`${label} must be a network name such as sepolia.`);
  return value;
}
const NFT_JOB_KINDS = new Set([JobKind.JOB_KIND_NFT_MINT, JobKind.JOB_KIND_NFT_TRANSFER, JobKind.JOB_KIND_NFT_CLAIM]);

export interface JobUpdatedArgs {
  ids?: Maybe<string[]>;
  kind?: Maybe<string>;
  network?: Maybe<string>;
}

/** Each event's payload is { <field>: value }; an Error there (the stream failed) is that event's GraphQL error. */
const payloadOf = (field: string) => (payload: Record<string, unknown>) => {
  const value = payload[field];
  if (value instanceof Error) throw value;
  return value;
};

export const subscriptionResolvers = {
  jobUpdated: {
    resolve: payloadOf('jobUpdated'),
    async subscribe(_: unknown, args: JobUpdatedArgs, ctx: GraphqlContext) {
      const opts = await callAs(ctx);
      const client = chainClient(ctx.clients);
      const ids = args.ids ?? [];
      if (ids.length > MAX_WATCHED_JOBS) {
        throw new InvalidArgumentError(`ids must hold at most ${MAX_WATCHED_JOBS} job ids, got ${ids.length}.`);
      }
      const jobIds = ids.map((id, i) => watchedId(id, `ids[${i}]`));
      const network = args.network ? checkNetworkName(args.network, 'network') : undefined;
      const stream = client.watchJobs(
        { jobIds, ...(args.kind ? { kind: jobKindFromGql(args.kind) } : {}), network, sendCurrent: jobIds.length > 0 },
        opts,
      );
      return mapIterator(
        streamIterator(stream),
        (res): Record<string, unknown> | undefined => (res.job ? { jobUpdated: res.job } : undefined),
        [],
        (err) => ({ jobUpdated: err }),
      );
    },
  },
  nftUpdated: {
    resolve: payloadOf('nftUpdated'),
    async subscribe(_: unknown, args: { guid?: Maybe<string> }, ctx: GraphqlContext) {
      const opts = await callAs(ctx);
      const client = chainClient(ctx.clients);
      const guid = args.guid ? watchedId(args.guid, 'guid') : undefined;
      // Watch first, then read: a change between the two is seen (at worst twice), never missed.
      const source = streamIterator(client.watchJobs({ jobIds: [], sendCurrent: false }, opts));
      // A failed mint leaves no NFT behind: nothing to show here (jobUpdated tells the failure).
      const read = async (nftGuid: string) => {
        const found = await orNull(client.getNft({ guid: nftGuid }, opts));
        return found?.nft ? { nftUpdated: found.nft } : undefined;
      };
      let first: Record<string, unknown>[] = [];
      if (guid) {
        const current = await read(guid).catch(async (err: unknown) => {
          await source.return?.();
          throw err;
        });
        if (!current) {
          await source.return?.();
          throw new NotFoundError(`No NFT with guid ${guid}.`);
        }
        first = [current];
      }
      return mapIterator(
        source,
        (res): Promise<Record<string, unknown> | undefined> | undefined => {
          const job = res.job;
          if (!job?.nftGuid || !NFT_JOB_KINDS.has(job.kind) || (guid && job.nftGuid !== guid)) return undefined;
          return read(job.nftGuid);
        },
        first,
        (err) => ({ nftUpdated: err }),
      );
    },
  },
};

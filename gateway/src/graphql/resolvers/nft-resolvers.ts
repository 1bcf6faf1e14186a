import { chainClient } from '../../clients.js';
import { checkNetworkName } from '../../v1/operations/blockchain-params.js';
import { checkRange, nftParams } from '../../v1/operations/nft-params.js';
import { validateParameters } from '../../v1/parameters.js';
import { callAs, type GraphqlContext } from '../context.js';
import { toGqlNft } from '../nft-objects.js';
import type { ServicePage } from '../pagination.js';
import { orNull } from './or-null.js';

/** The ids of the NFTs connection (guids as the chain service answers them): a cursor of another list is refused. */
export const NFT_GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * NFT reads on GraphQL (spec §4.13 list; GetNft by guid): authenticate, check the chain backend (503
 * UNAVAILABLE), then validate with the /v1/call specs, messages naming the arguments.
 */

type Maybe<T> = T | null | undefined;

const readParams = {
  from: nftParams.from,
  to: nftParams.to,
  guid: { ...nftParams.guid, required: true },
} as const;

export interface NftsArgs {
  from?: Maybe<number>;
  to?: Maybe<number>;
  network?: Maybe<string>;
}

export const nftQueries = {
  /** One page of the account's NFTs, paged by the chain service (newest first, keyset after the cursor's guid). */
  async nfts(_: unknown, args: NftsArgs, ctx: GraphqlContext, page: { pageSize: number; pageToken: string | undefined }): Promise<ServicePage<ReturnType<typeof toGqlNft>>> {
    const opts = await callAs(ctx);
    const client = chainClient(ctx.clients);
    const { from, to } = validateParameters({ from: readParams.from, to: readParams.to }, { ...args });
    const network = args.network ? checkNetworkName(args.network, 'network') : undefined;
    const paging = { pageSize: page.pageSize, ...(page.pageToken === undefined ? {} : { pageToken: page.pageToken }) };
    const res = await client.listNfts({ ...checkRange(from, to), network, ...paging }, opts);
    return { items: res.nfts.map(toGqlNft), nextPageToken: res.nextPageToken, totalCount: res.totalCount ?? res.nfts.length };
  },
  async nft(_: unknown, args: { guid: string }, ctx: GraphqlContext) {
    const opts = await callAs(ctx);
    const client = chainClient(ctx.clients);
    const { guid } = validateParameters({ guid: readParams.guid }, { ...args });
    const found = await orNull(client.getNft({ guid }, opts));
    return found?.nft ? toGqlNft(found.nft) : null;
  },
};

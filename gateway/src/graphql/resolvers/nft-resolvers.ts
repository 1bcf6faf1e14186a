import { chainClient } from '../../clients.js';
import { checkNetworkName } from '../../v1/operations/blockchain-params.js';
import { checkRange, nftParams } from '../../v1/operations/nft-params.js';
import { validateParameters } from '../../v1/parameters.js';
import { callAs, type GraphqlContext } from '../context.js';
import { toGqlNft } from '../nft-objects.js';
import { orNull } from './or-null.js';

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
  async nfts(_: unknown, args: NftsArgs, ctx: GraphqlContext) {
    const opts = await callAs(ctx);
    const client = chainClient(ctx.clients);
    const { from, to } = validateParameters({ from: readParams.from, to: readParams.to }, { ...args });
    const network = args.network ? checkNetworkName(args.network, 'network') : undefined;
    const { nfts } = await client.listNfts({ ...checkRange(from, to), network }, opts);
    return nfts.map(toGqlNft);
  },
  async nft(_: unknown, args: { guid: string }, ctx: GraphqlContext) {
    const opts = await callAs(ctx);
    const client = chainClient(ctx.clients);
    const { guid } = validateParameters({ guid: readParams.guid }, { ...args });
    const found = await orNull(client.getNft({ guid }, opts));
    return found?.nft ? toGqlNft(found.nft) : null;
  },
};

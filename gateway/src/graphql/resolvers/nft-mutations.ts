import { chainClient } from '../../clients.js';
import { checkNetworkName, requestEcho } from '../../v1/operations/blockchain-params.js';
import { jobOf } from '../../v1/operations/chain-calls.js';
import { attributesOf, checkImage, checkWalletAddress, nftParams } from '../../v1/operations/nft-params.js';
import { nftOf } from '../../v1/operations/nft-shapes.js';
import { validateParameters } from '../../v1/parameters.js';
import { parseIdempotencyKey } from '../../v1/request-facts.js';
import { toGqlJob } from '../chain-objects.js';
import { callAs, type GraphqlContext } from '../context.js';
import { toGqlNft } from '../nft-objects.js';

/**
 * NFT mutations on GraphQL (spec §4.13 new, transfer, send; claim and revoke): the /v1/call rules
 * (nft-params.ts), jobs echoing the call in its legacy SVC.NFT.zK spelling so a job reads the same
 * whichever face created it. mintNft, transferNft and sendNft authenticate first; claimNft and
 * revokeNftSend never ask for the key — the code is the authority — and never echo the code.
 */

type Maybe<T> = T | null | undefined;
const NFT = 'SVC.NFT.zK';

export interface MintNftInput {
  network: string;
  name: string;
  description?: Maybe<string>;
  image: string;
  attributes?: Maybe<{ traitType: string; value: unknown; displayType?: Maybe<string> }[]>;
  idempotencyKey?: Maybe<string>;
}
export interface TransferNftInput {
  network: string;
  nftId: string;
  address: string;
  idempotencyKey?: Maybe<string>;
}
export interface SendNftInput {
  network: string;
  nftId: string;
  email: string;
}
export interface ClaimNftInput {
  receiverCode: string;
  address: string;
  guid?: Maybe<string>;
  idempotencyKey?: Maybe<string>;
}
export interface RevokeNftSendInput {
  ownerCode: string;
  guid?: Maybe<string>;
}

const n = nftParams;
const labels = {
  name: 'input.name',
  description: 'input.description',
  image: 'input.image',
  nftId: 'input.nftId',
  address: 'input.address',
  email: 'input.email',
  receiverCode: 'input.receiverCode',
  ownerCode: 'input.ownerCode',
  guid: 'input.guid',
} as const;
const idempotencyKeyOf = (input: { idempotencyKey?: Maybe<string> }) => parseIdempotencyKey(input.idempotencyKey, 'input.idempotencyKey');

export const nftMutations = {
  async mintNft(_: unknown, { input }: { input: MintNftInput }, ctx: GraphqlContext) {
    const opts = await callAs(ctx);
    const client = chainClient(ctx.clients);
    const p = validateParameters({ name: n.name, description: n.description, image: n.image }, { ...input }, labels);
    const network = checkNetworkName(input.network, 'input.network');
    const image = checkImage(p.image, 'input.image');
    // The list form of the legacy parameter, so one rule checks both faces.
    const legacyAttributes = (input.attributes ?? []).map((a) => ({
      trait_type: a.traitType,
      value: a.value,
      ...(a.displayType ? { display_type: a.displayType } : {}),
    }));
    const attributes = attributesOf(legacyAttributes, 'input.attributes');
    const res = await client.mintNft(
      {
        network,
        name: p.name,
        description: p.description ?? '',
        image,
        attributes,
        idempotencyKey: idempotencyKeyOf(input),
        requestEcho: requestEcho(NFT, 'new', { ...p, attributes: legacyAttributes }, { version: 1, network }),
      },
      opts,
    );
    return toGqlJob(jobOf(res), ctx.baseUrl);
  },

  async transferNft(_: unknown, { input }: { input: TransferNftInput }, ctx: GraphqlContext) {
    const opts = await callAs(ctx);
    const client = chainClient(ctx.clients);
    const p = validateParameters({ nftId: n.nftId, address: n.address }, { ...input }, labels);
    const network = checkNetworkName(input.network, 'input.network');
    const address = checkWalletAddress(p.address, 'input.address');
    const echoed = { nftId: p.nftId, address: p.address.trim(), destination: p.address.trim() };
    const res = await client.transferNft(
      { network, nftId: p.nftId, address, idempotencyKey: idempotencyKeyOf(input), requestEcho: requestEcho(NFT, 'transfer', echoed, { version: 1, network }) },
      opts,
    );
    return toGqlJob(jobOf(res), ctx.baseUrl);
  },

  async sendNft(_: unknown, { input }: { input: SendNftInput }, ctx: GraphqlContext) {
    const opts = await callAs(ctx);
    const client = chainClient(ctx.clients);
    const p = validateParameters({ nftId: n.nftId, email: n.email }, { ...input }, labels);
    const network = checkNetworkName(input.network, 'input.network');
    const nft = nftOf(await client.sendNft({ network, nftId: p.nftId, email: p.email.trim() }, opts));
    return { nft: toGqlNft(nft), ownerCode: nft.transferCodes?.owner ?? '', receiverCode: nft.transferCodes?.receiver ?? '' };
  },

  async claimNft(_: unknown, { input }: { input: ClaimNftInput }, ctx: GraphqlContext) {
    const client = chainClient(ctx.clients);
    const p = validateParameters({ receiverCode: n.receiverCode, address: n.address, guid: n.guid }, { ...input }, labels);
    const address = checkWalletAddress(p.address, 'input.address');
    const res = await client.claimNft(
      {
        receiverCode: p.receiverCode.trim(),
        address,
        guid: p.guid,
        idempotencyKey: idempotencyKeyOf(input),
        requestEcho: requestEcho(NFT, 'claim', { address: p.address.trim(), guid: p.guid }),
      },
      { requestId: ctx.requestId },
    );
    return toGqlJob(jobOf(res), ctx.baseUrl);
  },

  async revokeNftSend(_: unknown, { input }: { input: RevokeNftSendInput }, ctx: GraphqlContext) {
    const client = chainClient(ctx.clients);
    const p = validateParameters({ ownerCode: n.ownerCode, guid: n.guid }, { ...input }, labels);
    const res = await client.revokeNftSend({ ownerCode: p.ownerCode.trim(), guid: p.guid }, { requestId: ctx.requestId });
    return toGqlNft(nftOf(res));
  },
};

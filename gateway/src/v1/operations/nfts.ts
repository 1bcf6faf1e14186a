import { chainClient } from '../../clients.js';
import { defineOperation, type KeylessOperationContext, type OperationContext } from '../operation.js';
import { requestEcho } from './blockchain-params.js';
import { jobAccepted } from './blockchain-shapes.js';
import { chain, jobOf } from './chain-calls.js';
import {
  attributesOf,
  checkImage,
  checkRange,
  checkWalletAddress,
  claimParams,
  fetchParams,
  listParams,
  newParams,
  revokeParams,
  sendParams,
  transferParams,
} from './nft-params.js';
import { legacyNft, nftAnswer, nftFetchAnswer, nftOf } from './nft-shapes.js';
import { call } from './taxonomy.js';

/**
 * /v1/call operations of SVC.NFT.zK (spec §4.13) on ChainService's NFT methods (rules: docs/nfts.md).
 * `new` and `transfer` are jobs answered at once with `{statusCode, statusMessage, info: {jobId}}`;
 * `fetch` (unnamed in the spec) reads any job of the account. `claim` and `revoke` (unnamed too) are
 * called WITHOUT an API key: the transfer code is the authority (the recipient of an e-mail has no
 * account). Codes never go into a request echo, a log line or an error message.
 *
 * Envelope, as §4.13 marks it: `new` and `transfer` need version 1 and network; `send` needs network
 * (version optional, as its examples send it); `list` needs neither (network, when given, narrows the list
 * to that chain). fetch, claim and revoke follow `list`: the job, or the code, knows its NFT and network.
 */

const NFT = 'SVC.NFT.zK';
const JOB_ENVELOPE = { version: 'required', network: 'required' } as const;

/** What a job-creating NFT call passes besides its own fields: the Idempotency-Key and the legacy echo. */
function jobFields(ctx: OperationContext | KeylessOperationContext, operation: string, echoed: Record<string, unknown>) {
  return { idempotencyKey: ctx.http.idempotencyKey, requestEcho: requestEcho(NFT, operation, echoed, ctx.envelope) };
}

/** Call options of the keyless operations: the request id only, no account. */
const anonymous = (ctx: KeylessOperationContext) => ({ requestId: ctx.requestId });

export const nftOperations = [
  defineOperation({
    solution: NFT,
    operation: 'new',
    params: newParams,
    envelope: JOB_ENVELOPE,
    async handler(p, ctx) {
      const image = checkImage(p.image);
      const attributes = attributesOf(p.attributes);
      const res = await chain(ctx).mintNft(
        { network: ctx.envelope.network!, name: p.name, description: p.description ?? '', image, attributes, ...jobFields(ctx, 'new', p) },
        call(ctx),
      );
      return jobAccepted(res.jobId || jobOf(res).id);
    },
  }),
  defineOperation({
    // Without from/to the last 20 (spec §8); a range answers at most 1000, newest first.
    solution: NFT,
    operation: 'list',
    params: listParams,
    async handler(p, ctx) {
      const range = checkRange(p.from, p.to);
      const { nfts } = await chain(ctx).listNfts({ ...range, network: ctx.envelope.network }, call(ctx));
      return nftAnswer(nfts.map(legacyNft));
    },
  }),
  defineOperation({
    solution: NFT,
    operation: 'transfer',
    params: transferParams,
    envelope: JOB_ENVELOPE,
    async handler(p, ctx) {
      const address = checkWalletAddress(p.address);
      // The spec's fetch example echoes the address as `destination`: both names are kept.
      const echoed = { nftId: p.nftId, address: p.address.trim(), destination: p.address.trim() };
      const res = await chain(ctx).transferNft(
        { network: ctx.envelope.network!, nftId: p.nftId, address, ...jobFields(ctx, 'transfer', echoed) },
        call(ctx),
      );
      return jobAccepted(res.jobId || jobOf(res).id);
    },
  }),
  defineOperation({
    // The answer carries both transfer codes in clear: the only time they are ever shown.
    solution: NFT,
    operation: 'send',
    params: sendParams,
    envelope: { network: 'required' },
    async handler(p, ctx) {
      const res = await chain(ctx).sendNft({ network: ctx.envelope.network!, nftId: p.nftId, email: p.email.trim() }, call(ctx));
      return nftAnswer(legacyNft(nftOf(res)));
    },
  }),
  defineOperation({
    solution: NFT,
    operation: 'fetch',
    params: fetchParams,
    async handler(p, ctx) {
      return nftFetchAnswer(jobOf(await chain(ctx).getJob({ jobId: p.jobId }, call(ctx))));
    },
  }),
  defineOperation({
    solution: NFT,
    operation: 'claim',
    params: claimParams,
    withoutApiKey: true,
    authority: 'the receiver code of an e-mailed send',
    async handler(p, ctx) {
      const address = checkWalletAddress(p.address);
      // The code stays out of the echo: the job's request is shown to the NFT's owner by fetch.
      const echoed = { address: p.address.trim(), guid: p.guid };
      const res = await chainClient(ctx.clients).claimNft(
        { receiverCode: p.receiverCode.trim(), address, guid: p.guid, ...jobFields(ctx, 'claim', echoed) },
        anonymous(ctx),
      );
      return jobAccepted(res.jobId || jobOf(res).id);
    },
  }),
  defineOperation({
    // Answers the NFT, available (`created`) again.
    solution: NFT,
    operation: 'revoke',
    params: revokeParams,
    withoutApiKey: true,
    authority: 'the owner code of an e-mailed send',
    async handler(p, ctx) {
      const res = await chainClient(ctx.clients).revokeNftSend({ ownerCode: p.ownerCode.trim(), guid: p.guid }, anonymous(ctx));
      return nftAnswer(legacyNft(nftOf(res)));
    },
  }),
];

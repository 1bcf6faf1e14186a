import { JobKind, type Job, type Nft } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { InternalError } from '@green-impact/shared/errors';
import { nftStatusV1 } from '../../generated/chain.js';
import { fetchAnswer } from './job-shapes.js';

/** Chain proto messages → the spec's JSON for SVC.NFT.zK (§2.10, §4.13). Pure. */

/**
 * The legacy `status` of an NFT: the spec's `created`, `transferred`, `emailed`, and the pending states
 * (NftStatus's /v1/call names, generated from chain.proto; an unknown status is a contract breach).
 */
export const nftStatusName = nftStatusV1;
export type NftStatusName = ReturnType<typeof nftStatusV1>;

/** The NFT of a chain answer; the contract always sets it, so its absence is a breach, not a client error. */
export function nftOf(res: { nft?: Nft | undefined }): Nft {
  if (!res.nft) throw new InternalError('Internal error.', { cause: new Error('the chain service answered no NFT') });
  return res.nft;
}

/**
 * An NFT in the spec's §2.10 shape, key for key in its order: guid, network, nftTxHash, nftId, nftIPFSHash,
 * nftImageIPFSHash, nftJson (the metadata as stored: name, description, image, attributes with
 * `trait_type`), url, status, transferCodes, transferredTo (only when there is a recipient, as §2.10 says
 * "present after sending"), timestamp (ms since 1970 as a string, as §2.10 types it). Codes are empty
 * strings except in the answer of `send`, the one time they are shown.
 */
export function legacyNft(nft: Nft) {
  return {
    guid: nft.guid,
    network: nft.network,
    nftTxHash: nft.nftTxHash,
    nftId: nft.nftId,
    nftIPFSHash: nft.nftIpfsHash,
    nftImageIPFSHash: nft.nftImageIpfsHash,
    nftJson: {
      name: nft.nftJson?.name ?? '',
      description: nft.nftJson?.description ?? '',
      image: nft.nftJson?.image ?? '',
      attributes: (nft.nftJson?.attributes ?? []).map((a) => ({
        trait_type: a.traitType,
        value: a.value ?? null,
        ...(a.displayType ? { display_type: a.displayType } : {}),
      })),
    },
    url: { nft: nft.url?.nft ?? '', image: nft.url?.image ?? '', transaction: nft.url?.transaction ?? '' },
    status: nftStatusName(nft.status),
    transferCodes: { owner: nft.transferCodes?.owner ?? '', receiver: nft.transferCodes?.receiver ?? '' },
    ...(nft.transferredTo ? { transferredTo: nft.transferredTo } : {}),
    timestamp: String(nft.timestamp),
  };
}

/**
 * The answer of list, send and revoke: `{statusCode, statusMessage, info}` (§4.13 shows `{statusCode, info}`;
 * §7.3 adds the empty `statusMessage` of every Hash and NFT answer).
 */
export function nftAnswer<T>(info: T) {
  return { statusCode: 200, statusMessage: '', info };
}

/**
 * NFT `fetch`: the fetch answer of any job (blockchain-shapes.ts). A mint job answers the three
 * certificate keys from the start, null until the job completed with its NFT, so a client polling a mint
 * sees every key of §4.13 at every step.
 */
export function nftFetchAnswer(job: Job) {
  const answer = fetchAnswer(job);
  if (job.kind !== JobKind.JOB_KIND_NFT_MINT || job.nft) return answer;
  const { guid, type, timestampInMillis, error, ...head } = answer.info;
  return {
    ...answer,
    info: {
      ...head,
      certificateOfTrust: null,
      certificateOfTrustJPG: null,
      certificateOfTrustUrl: null,
      guid,
      type,
      timestampInMillis,
      ...(error !== undefined ? { error } : {}),
    },
  };
}

import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  JobKind,
  NftStatus,
  type ClaimNftRequest,
  type GetNftRequest,
  type Job,
  type ListNftsRequest,
  type MintNftRequest,
  type Network,
  type Nft,
  type RevokeNftSendRequest,
  type SendNftRequest,
  type TransactionReceipt,
  type TransferNftRequest,
} from '@green-impact/proto/greenimpact/chain/v1/chain';
import type { Caller } from '@green-impact/shared/caller';
import { FailedPreconditionError, InvalidArgumentError, NotAuthorizedError, NotFoundError } from '@green-impact/shared/errors';
import type { CallContext } from '@green-impact/shared/grpc/server';
import { decodeTextPageToken, pageOf, pageSize } from '@green-impact/shared/paging';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The NFT methods of the fake ChainService (fake-chain.ts): mint, list, get, transfer, send, claim, revoke,
 * the NFT side of `complete`, and `ownerOf` / receipts for the JSON-RPC relay. Nothing is minted: a test
 * completes the job, which sets the token id, the certificates and the holder. Rules are the chain
 * service's where the gateway's tests look (codes, statuses, account scoping, public reads), no more.
 */

/** The fake's ERC-721 contract on every network. */
export const FAKE_NFT_CONTRACT = `0x${'e'.repeat(40)}`;
/** What the fake serves as certificate files. */
export const FAKE_PDF = Buffer.from('%PDF-1.7\n% fake certificate of trust\n%%EOF\n');
export const FAKE_JPG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0xff, 0xd9]);

export interface FakeNftDeps {
  /** Records the call and answers its caller (UNAUTHENTICATED without one). */
  record(method: string, request: unknown, ctx: CallContext): Caller;
  /** Records a call that needs no caller. */
  recordAnonymous(method: string, request: unknown, ctx: CallContext): void;
  resolve(name: string): Network;
  create(
    c: Caller,
    fields: { kind: JobKind; network: string; request: Record<string, unknown> | undefined; idempotencyKey: string | undefined; fingerprint: unknown },
    extra: Partial<Job>,
  ): { job: Job; replayed: boolean };
  content: Map<string, { bytes: Buffer; contentType: string }>;
  publicBaseUrl: string;
}

interface StoredNft {
  nft: Nft;
  account: string;
  createdAt: number;
  send?: { owner: string; receiver: string; state: 'open' | 'claimed' | 'revoked' };
}

const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const cidOf = (bytes: Buffer) => `bafkrei${createHash('sha256').update(bytes).digest('hex').slice(0, 52)}`;
const word = (hex: string) => `0x${hex.replace(/^0x/, '').toLowerCase().padStart(64, '0')}`;
const hexOf = (n: number | string) => `0x${BigInt(n).toString(16)}`;

export function fakeNfts(d: FakeNftDeps) {
  const nfts = new Map<string, StoredNft>();
  /** job id → what the job does to which NFT. */
  const jobNft = new Map<string, { guid: string; to?: string }>();
  let nextTokenId = 1;

  const put = (bytes: Buffer, contentType: string) => {
    const cid = cidOf(bytes);
    d.content.set(cid, { bytes, contentType });
    return cid;
  };
  const touch = (s: StoredNft, patch: Partial<Nft>) => {
    s.nft = { ...s.nft, ...patch, timestamp: Date.now() };
  };
  const owned = (c: Caller, network: string | undefined, ref: string): StoredNft => {
    const found = [...nfts.values()].find(
      (s) => s.account === c.accountId && (s.nft.guid === ref.trim().toLowerCase() || (s.nft.nftId === ref.trim() && (!network || s.nft.network === network))),
    );
    if (!found) throw new NotFoundError(`No NFT ${ref.trim()}${network ? ` on network ${network}` : ''} in your account.`);
    return found;
  };
  /** As the chain service's requireAvailable (nft-store.ts), with its texts. */
  const requireCreated = ({ nft }: StoredNft) => {
    const id = nft.nftId || nft.guid;
    if (nft.status === NftStatus.NFT_STATUS_MINTING) {
      throw new FailedPreconditionError(`NFT ${nft.guid} is still being minted; try again once its mint job (${nft.mintJobId}) completed.`);
    }
    if (nft.status === NftStatus.NFT_STATUS_TRANSFERRING) throw new FailedPreconditionError(`NFT ${id} is being transferred (job ${nft.transferJobId}).`);
    if (nft.status === NftStatus.NFT_STATUS_TRANSFERRED) {
      throw new FailedPreconditionError(`NFT ${id} was already transferred to ${nft.transferredTo}; the service no longer holds it.`);
    }
    if (nft.status === NftStatus.NFT_STATUS_EMAILED) {
      throw new FailedPreconditionError(`NFT ${id} was sent by e-mail and waits to be claimed; revoke the send with its owner code first.`);
    }
    if (nft.status !== NftStatus.NFT_STATUS_CREATED) throw new InvalidArgumentError(`NFT ${nft.guid} was never minted.`);
  };
  const bySendCode = (which: 'owner' | 'receiver', code: string, guid: string | undefined): StoredNft => {
    const s = [...nfts.values()].find((n) => n.send?.[which] === code.trim());
    if (!s || (guid && guid.trim().toLowerCase() !== s.nft.guid)) throw new NotAuthorizedError(`The ${which} code is not valid.`);
    if (s.send!.state === 'claimed') {
      throw new FailedPreconditionError(which === 'receiver' ? 'The receiver code was already used: the NFT was claimed.' : 'The NFT was already claimed; the send can no longer be revoked.');
    }
    if (s.send!.state === 'revoked') {
      throw new FailedPreconditionError(which === 'receiver' ? 'The send was revoked by its owner; the receiver code no longer works.' : 'The owner code was already used: the send was revoked.');
    }
    return s;
  };
  const legacy = (n: Nft) => ({
    guid: n.guid, network: n.network, nftTxHash: n.nftTxHash, nftId: n.nftId, nftIPFSHash: n.nftIpfsHash, nftImageIPFSHash: n.nftImageIpfsHash,
    nftJson: { name: n.nftJson!.name, description: n.nftJson!.description, image: n.nftJson!.image, attributes: n.nftJson!.attributes.map((a) => ({ trait_type: a.traitType, value: a.value })) },
    url: n.url, status: NftStatus[n.status].replace('NFT_STATUS_', '').toLowerCase(), transferCodes: { owner: '', receiver: '' },
  });

  const handlers = {
    async mintNft(req: MintNftRequest, ctx: CallContext) {
      const c = d.record('mintNft', req, ctx);
      const n = d.resolve(req.network);
      if (!req.name.trim()) throw new InvalidArgumentError('name is required.');
      if (req.image.includes('broken')) throw new FailedPreconditionError(`The image could not be fetched from ${req.image}: it must be an image of at most 10485760 bytes that a public address answers within 15000 ms. Nothing was minted.`);
      const imageCid = put(Buffer.from(`image of ${req.image}`), 'image/png');
      const attributes = req.attributes.map((a) => ({ trait_type: a.traitType, value: a.value, ...(a.displayType ? { display_type: a.displayType } : {}) }));
      const metadata = { name: req.name.trim(), description: req.description.trim(), image: `ipfs://${imageCid}`, attributes };
      const metadataCid = put(Buffer.from(JSON.stringify(metadata, null, 2) + '\n'), 'application/json');
      const guid = randomUUID();
      const { job, replayed } = d.create(
        c,
        { kind: JobKind.JOB_KIND_NFT_MINT, network: n.name, request: req.requestEcho, idempotencyKey: req.idempotencyKey, fingerprint: ['mint', n.name, metadataCid] },
        { nftGuid: guid },
      );
      if (replayed) return { jobId: job.id, job, replayed };
      const base = d.publicBaseUrl;
      nfts.set(guid, {
        account: c.accountId,
        createdAt: Date.now(),
        nft: {
          guid, network: n.name, nftTxHash: '', nftId: '', nftIpfsHash: metadataCid, nftImageIpfsHash: imageCid,
          nftJson: { name: metadata.name, description: metadata.description, image: metadata.image, attributes: req.attributes },
          url: { nft: `${base}/ipfs/${metadataCid}`, image: `${base}/ipfs/${imageCid}`, transaction: '' },
          status: NftStatus.NFT_STATUS_MINTING, transferCodes: { owner: '', receiver: '' }, timestamp: Date.now(),
          certificateOfTrust: '', certificateOfTrustJpg: '', certificateOfTrustUrl: '', certificatePdfCid: '', certificateJpgCid: '',
          contractAddress: '', ownerAddress: '', mintJobId: job.id,
        },
      });
      jobNft.set(job.id, { guid });
      return { jobId: job.id, job, replayed };
    },
    async listNfts(req: ListNftsRequest, ctx: CallContext) {
      const c = d.record('listNfts', req, ctx);
      const newestFirst = (a: StoredNft, b: StoredNft) => b.createdAt - a.createdAt || (a.nft.guid < b.nft.guid ? 1 : a.nft.guid > b.nft.guid ? -1 : 0);
      const mine = [...nfts.values()]
        .filter((s) => s.account === c.accountId && (!req.network || s.nft.network === req.network))
        .filter((s) => (req.from === undefined || s.createdAt >= req.from) && (req.to === undefined || s.createdAt <= req.to))
        .sort(newestFirst);
      if (req.pageSize === undefined) return { nfts: (req.from === undefined && req.to === undefined ? mine.slice(0, 20) : mine).map((s) => s.nft), nextPageToken: '' };
      // Paged as the service pages (NftStore.page): no caps, keyset after the token's NFT of the account.
      const size = pageSize(req.pageSize);
      const after = decodeTextPageToken(req.pageToken, GUID);
      const from = after && nfts.get(after.id);
      if (after && (!from || from.account !== c.accountId)) throw new InvalidArgumentError('page_token must be a next_page_token of this listing.');
      const rest = from ? mine.filter((s) => newestFirst(from, s) < 0) : mine;
      const page = pageOf(rest.slice(0, size + 1), size, after, (s) => s.nft.guid);
      return { nfts: page.items.map((s) => s.nft), nextPageToken: page.nextPageToken, totalCount: mine.length };
    },
    async getNft(req: GetNftRequest, ctx: CallContext) {
      d.recordAnonymous('getNft', req, ctx);
      const s = nfts.get((req.guid ?? '').trim().toLowerCase());
      if (!s || (ctx.caller && s.account !== ctx.caller.accountId)) throw new NotFoundError(`No NFT ${req.guid}.`);
      // Public reads leave an e-mail recipient out.
      const { transferredTo, ...rest } = s.nft;
      return { nft: ctx.caller || !transferredTo?.includes('@') ? s.nft : rest };
    },
    async transferNft(req: TransferNftRequest, ctx: CallContext) {
      const c = d.record('transferNft', req, ctx);
      const n = d.resolve(req.network);
      requireWallet(req.address);
      const s = owned(c, n.name, req.nftId);
      requireCreated(s);
      const { job, replayed } = d.create(
        c,
        { kind: JobKind.JOB_KIND_NFT_TRANSFER, network: n.name, request: req.requestEcho, idempotencyKey: req.idempotencyKey, fingerprint: ['transfer', s.nft.guid, req.address] },
        { nftGuid: s.nft.guid, nftId: s.nft.nftId },
      );
      if (!replayed) {
        touch(s, { status: NftStatus.NFT_STATUS_TRANSFERRING, transferredTo: req.address, transferJobId: job.id });
        jobNft.set(job.id, { guid: s.nft.guid, to: req.address });
      }
      return { jobId: job.id, job, replayed };
    },
    async sendNft(req: SendNftRequest, ctx: CallContext) {
      const c = d.record('sendNft', req, ctx);
      const n = d.resolve(req.network);
      const s = owned(c, n.name, req.nftId);
      requireCreated(s);
      const codes = { owner: randomBytes(32).toString('base64url'), receiver: randomBytes(32).toString('base64url') };
      s.send = { ...codes, state: 'open' };
      touch(s, { status: NftStatus.NFT_STATUS_EMAILED, transferredTo: req.email });
      return { nft: { ...s.nft, transferCodes: codes } };
    },
    async claimNft(req: ClaimNftRequest, ctx: CallContext) {
      d.recordAnonymous('claimNft', req, ctx);
      requireWallet(req.address);
      const s = bySendCode('receiver', req.receiverCode, req.guid);
      const owner: Caller = { accountId: s.account, role: 'user' };
      const { job } = d.create(
        owner,
        { kind: JobKind.JOB_KIND_NFT_CLAIM, network: s.nft.network, request: req.requestEcho, idempotencyKey: req.idempotencyKey, fingerprint: ['claim', s.nft.guid, req.address] },
        { nftGuid: s.nft.guid, nftId: s.nft.nftId },
      );
      s.send!.state = 'claimed';
      touch(s, { status: NftStatus.NFT_STATUS_TRANSFERRING, transferredTo: req.address, transferJobId: job.id });
      jobNft.set(job.id, { guid: s.nft.guid, to: req.address });
      return { jobId: job.id, job, replayed: false };
    },
    async revokeNftSend(req: RevokeNftSendRequest, ctx: CallContext) {
      d.recordAnonymous('revokeNftSend', req, ctx);
      const s = bySendCode('owner', req.ownerCode, req.guid);
      s.send!.state = 'revoked';
      const { transferredTo: _gone, ...rest } = s.nft;
      s.nft = { ...rest, status: NftStatus.NFT_STATUS_CREATED, timestamp: Date.now() };
      return { message: 'The send was revoked; the NFT is available again.', nft: s.nft };
    },
  };

  return {
    handlers,
    nfts,
    /** The NFT side of a completed job: the outcome fields it adds (undefined for other jobs). */
    complete(job: Job, receipt: TransactionReceipt, explorerUrl: string): Partial<Job> | undefined {
      const link = jobNft.get(job.id);
      if (!link) return undefined;
      const s = nfts.get(link.guid)!;
      const hash = receipt.hash;
      const from = job.kind === JobKind.JOB_KIND_NFT_MINT ? `0x${'0'.repeat(40)}` : s.nft.ownerAddress;
      if (job.kind === JobKind.JOB_KIND_NFT_MINT) {
        const tokenId = String(nextTokenId++);
        const [pdf, jpg] = [put(FAKE_PDF, 'application/pdf'), put(Buffer.concat([FAKE_JPG, Buffer.from(tokenId)]), 'image/jpeg')];
        const base = `${d.publicBaseUrl}/certificates/${s.nft.guid}`;
        touch(s, {
          status: NftStatus.NFT_STATUS_CREATED, nftId: tokenId, nftTxHash: hash, contractAddress: FAKE_NFT_CONTRACT, ownerAddress: d.resolve(job.network).signerAddress,
          url: { ...s.nft.url!, transaction: explorerUrl ? `${explorerUrl}/tx/${hash}` : `${d.publicBaseUrl}/explorer/${job.network}/tx/${hash}` },
          certificatePdfCid: pdf, certificateJpgCid: jpg, certificateOfTrust: `${base}.pdf`, certificateOfTrustJpg: `${base}.jpg`, certificateOfTrustUrl: base,
        });
      } else {
        touch(s, { status: NftStatus.NFT_STATUS_TRANSFERRED, ownerAddress: link.to! });
      }
      const transfer = {
        ...receipt.logs[0]!, address: FAKE_NFT_CONTRACT, data: '0x',
        topics: [TRANSFER_TOPIC, word(from), word(s.nft.ownerAddress), word(BigInt(s.nft.nftId).toString(16))],
      };
      return { nft: s.nft, nftId: s.nft.nftId, result: legacy(s.nft), receipt: { ...receipt, to: FAKE_NFT_CONTRACT, logs: [transfer] } };
    },
    /** ownerOf(tokenId) on the fake contract as the relay would answer it; undefined for other calls. */
    ownerOfWord(to: string, data: string): string | undefined {
      if (to.toLowerCase() !== FAKE_NFT_CONTRACT || !data.startsWith('0x6352211e')) return undefined;
      const tokenId = BigInt(`0x${data.slice(10)}`).toString();
      const s = [...nfts.values()].find((n) => n.nft.nftId === tokenId);
      return s ? word(s.nft.ownerAddress) : undefined;
    },
  };
}

/** A stored job's receipt as eth_getTransactionReceipt answers it (hex quantities). */
export function rpcReceipt(job: Job): Record<string, unknown> | null {
  const r = job.receipt;
  if (!r) return null;
  return {
    transactionHash: r.hash, blockHash: r.blockHash, blockNumber: hexOf(r.blockNumber), from: r.from, to: r.to ?? null,
    contractAddress: r.contractAddress ?? null, gasUsed: hexOf(r.gasUsed), effectiveGasPrice: hexOf(r.gasPrice), status: hexOf(r.status),
    cumulativeGasUsed: hexOf(r.cumulativeGasUsed), logsBloom: r.logsBloom, transactionIndex: hexOf(r.index),
    logs: r.logs.map((l) => ({ address: l.address, topics: l.topics, data: l.data, logIndex: hexOf(l.index), blockNumber: hexOf(l.blockNumber), transactionHash: l.transactionHash })),
  };
}

/** The chain service's wallet rule (nft-rules.ts validWalletAddress) as the gateway sends addresses: lower case. */
function requireWallet(address: string): void {
  if (!/^0x[0-9a-f]{40}$/.test(address)) {
    throw new InvalidArgumentError(`address must be a wallet address (0x + 40 hex digits, EIP-55 checksum when mixed case), got "${address}".`, { field: 'address' });
  }
  if (/^0x0{40}$/.test(address)) throw new InvalidArgumentError('address must not be the zero address.', { field: 'address' });
}

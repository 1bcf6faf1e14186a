import type { ChainServiceService } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { NETWORK_NAME, UUID } from '@green-impact/proto/rules';
import { DocumentKind, type Job } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { DomainError, FailedPreconditionError, InvalidArgumentError, NotFoundError } from '@green-impact/shared/errors';
import { requireCaller } from '@green-impact/shared/caller';
import type { UnaryHandlers } from '@green-impact/shared/grpc/server';
import type { Logger } from '@green-impact/shared/logger';
import type { Documents } from '../documents/documents.js';
import type { JobRow } from '../jobs/entities.js';
import { DOCUMENT_KINDS } from '../jobs/job-types.js';
import type { NetworkRegistry } from '../networks/network-registry.js';
import { anchoringPanel, withAnchoring } from './anchoring.js';
import type { Nfts } from '../nfts/nfts.js';
import { certificatePage, nftStatusName, type ChainOwner } from './certificate-page.js';
import { claimAcceptedPage, claimPage } from './claim-pages.js';
import { blockByNumber, ownerOf, relayCall, transactionKnown, transactionReceipt, type NodeRead } from './evm-reads.js';
import { blockPage, pendingTransactionPage, receiptPage } from './explorer-page.js';
import { NodeReadCache, type NodeReadSettings } from './node-read-cache.js';

type Handlers = UnaryHandlers<typeof ChainServiceService>;

export const HTML = 'text/html; charset=utf-8';
/** What was read from the chain (a receipt, a block, a holder): a minute. */
export const READ_NOW_CACHE = 'public, max-age=60';

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;
/** Decimal, no sign or leading zeros, below 10^15: a block height any chain has, and exact as a number. */
const BLOCK_NUMBER = /^(0|[1-9][0-9]{0,14})$/;

/**
 * The pages' chain reads: cached and joined (node-read-cache.ts), the rest through the network's relay on
 * the pages' quota. One per service, shared by every page that reads the chain.
 */
export function pageNodeReads(networks: NetworkRegistry, settings: NodeReadSettings): NodeRead {
  const cache = new NodeReadCache(settings);
  return (network, method, params) => {
    // Resolved first: an unknown network is the caller's mistake (INVALID_ARGUMENT), never a cached read.
    const { network: chain } = networks.resolve(network);
    return cache.read(network, method, params, () => relayCall(chain, network, method, params));
  };
}

/** RenderExplorerPage: a transaction's or a block's page, for networks without an explorer. */
export function explorerPageHandlers(read: NodeRead): Pick<Handlers, 'renderExplorerPage'> {
  return {
    async renderExplorerPage(req) {
      const { network, txHash, blockNumber } = req;
      const example = txHash ? 'tx/0x…' : 'block/12';
      if (!NETWORK_NAME.test(network)) throw new InvalidArgumentError(`The path must name a network, such as /explorer/sepolia/${example}.`, { field: 'network' });
      if ((txHash === '') === (blockNumber === '')) {
        throw new InvalidArgumentError('An explorer page is of a transaction (tx_hash) or of a block (block_number): give exactly one.');
      }
      if (txHash) {
        if (!TX_HASH.test(txHash)) throw new InvalidArgumentError('A transaction hash is 0x and 64 hex digits.', { field: 'tx_hash' });
        const receipt = await transactionReceipt(read, network, txHash);
        if (receipt) return rendered(receiptPage(network, receipt), READ_NOW_CACHE);
        if (!(await transactionKnown(read, network, txHash))) throw new NotFoundError(`Network ${network} knows no transaction ${txHash}.`);
        return rendered(pendingTransactionPage(network, txHash), 'no-cache');
      }
      if (!BLOCK_NUMBER.test(blockNumber)) throw new InvalidArgumentError('A block number is a whole number of at most 15 digits.', { field: 'block_number' });
      const block = await blockByNumber(read, network, BigInt(blockNumber));
      if (!block) throw new NotFoundError(`Network ${network} has no block ${blockNumber} yet.`);
      return rendered(blockPage(network, block), READ_NOW_CACHE);
    },
  };
}

/** NFT guids are UUIDs as the service issues them; anything else names no certificate. */
const GUID = UUID;

/** RenderCertificatePage: an NFT's public landing page, its holder read from the chain now. */
export function certificatePageHandlers(nfts: Nfts, read: NodeRead, log: Logger): Pick<Handlers, 'renderCertificatePage'> {
  return {
    async renderCertificatePage(req) {
      if (!GUID.test(req.guid)) throw new NotFoundError(`No certificate ${req.guid.slice(0, 64)}.`);
      // No caller: the public view (no e-mail recipient, no codes).
      const nft = await nfts.get(undefined, { guid: req.guid });
      let owner: ChainOwner | undefined;
      if (nft.nftId && nft.contractAddress) {
        try {
          owner = { address: await ownerOf(read, nft.network, nft.contractAddress, nft.nftId) };
        } catch (err) {
          // The page still shows what the service recorded, and says that the chain could not be read.
          log.warn({ err, network: nft.network }, 'ownerOf for a certificate page failed');
          owner = { unreadable: err instanceof DomainError && err.code !== 'INTERNAL' ? err.message : 'no answer' };
        }
      }
      return rendered(certificatePage(nft, owner), READ_NOW_CACHE);
    },
  };
}

/** Transfer codes are base64url; a value of another shape is not one of ours and is dropped. */
const CODE = /^[A-Za-z0-9_-]{1,128}$/;

/** RenderClaimPage: the claim form of an e-mailed NFT, again with a refusal, or the accepted claim's page. */
export function claimPageHandlers(nfts: Nfts): Pick<Handlers, 'renderClaimPage'> {
  const publicNft = (guid: string) => nfts.get(undefined, { guid });
  return {
    async renderClaimPage(req) {
      const guid = GUID.test(req.guid) ? req.guid : undefined;
      if (req.transferJobId) return rendered(claimAcceptedPage(req.transferJobId, req.address, guid), 'no-store');
      const form = { guid, code: CODE.test(req.receiverCode) ? req.receiverCode : undefined, address: req.address || undefined };
      if (!req.refusal) return rendered(claimPage(guid ? await publicNft(guid) : undefined, form), 'no-store');
      // After a refusal: the form again, with the NFT only while it still waits for its claim.
      const nft = guid ? await publicNft(guid).catch(() => undefined) : undefined;
      const waiting = nft && nftStatusName(nft.status) === 'emailed' ? nft : undefined;
      return rendered(claimPage(waiting, { ...form, error: req.refusal }), 'no-store');
    },
  };
}

/** The kinds of documents written as HTML pages. */
const HTML_KINDS: ReadonlySet<DocumentKind> = new Set(Object.entries(DOCUMENT_KINDS).filter(([name]) => name.endsWith('_html')).map(([, kind]) => kind));

/**
 * RenderDocumentPage: a written HTML document, verified against its anchor now (Documents.read, as
 * GetDocument), with its anchoring facts around it (anchoring.ts), or its bytes alone.
 */
export function documentPageHandlers(documents: Documents, view: (row: JobRow) => Job): Pick<Handlers, 'renderDocumentPage'> {
  return {
    async renderDocumentPage(req, ctx) {
      // With link_epoch and no caller: a signed link the gateway has checked (Documents.readByLink).
      const { jobRow, ...doc } = req.linkEpoch !== undefined && !ctx.caller
        ? await documents.readByLink(req.jobId, req.linkEpoch)
        : await documents.read(requireCaller(ctx.caller), req.jobId);
      const job = view(jobRow);
      if (!HTML_KINDS.has(doc.kind)) throw new NotFoundError(`Job ${job.id} has no HTML document: it holds a JSON document.`);
      if (!doc.verified && (doc.unverifiedReason === 'contract not trusted' || doc.unverifiedReason === 'writer not trusted')) {
        throw new FailedPreconditionError(
          `The document of job ${job.id} is not verified: ${doc.unverifiedReason} (its proof names ${doc.proof?.contract || 'a contract'} on network ${job.network}, not this deployment's trust anchor): it is not served.`,
        );
      }
      if (!doc.verified) {
        throw new FailedPreconditionError(
          `The document of job ${job.id} does not match its anchor on network ${job.network} (content sha256 ${doc.sha256 || 'unknown'}, anchored ${doc.anchoredSha256 || 'unknown'}): it is not served.`,
        );
      }
      const answer = { contentType: doc.contentType || HTML, cid: doc.cid, sha256: doc.sha256, jobId: job.id };
      if (req.raw) return { ...answer, content: Buffer.from(doc.content) };
      const panel = anchoringPanel({
        job, cid: doc.cid, sha256: doc.sha256, anchoredSha256: doc.anchoredSha256, checkedAt: new Date(), rawUrl: req.rawUrl,
        proof: doc.proof, chainReadAt: doc.chainReadAt || undefined, pdfUrl: req.pdfUrl || undefined,
      });
      return { ...answer, content: Buffer.from(withAnchoring(Buffer.from(doc.content).toString('utf8'), panel), 'utf8') };
    },
  };
}

/** A rendered page as the Render*Page methods answer it. */
export function rendered(page: string, cacheControl: string): { content: Buffer; contentType: string; cacheControl: string } {
  return { content: Buffer.from(page, 'utf8'), contentType: HTML, cacheControl };
}

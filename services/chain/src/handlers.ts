import type { ChainServiceService, Job } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { requireCaller } from '@green-impact/shared/caller';
import type { UnaryHandlers } from '@green-impact/shared/grpc/server';
import type { ContentAccess } from './content/content-access.js';
import type { Documents } from './documents/documents.js';
import type { JobRow } from './jobs/entities.js';
import { listJobs } from './jobs/job-list.js';
import type { JobStore } from './jobs/job-store.js';
import { toJob } from './jobs/job-view.js';
import type { KeyValueJobs, KeyValueOperation } from './key-value/key-value-jobs.js';
import type { NetworkRegistry } from './networks/network-registry.js';
import type { NftTransfers } from './nfts/nft-transfers.js';
import type { Nfts } from './nfts/nfts.js';
import type { DataSource } from 'typeorm';

export interface ChainHandlerDeps {
  ds: DataSource;
  jobs: JobStore;
  documents: Documents;
  keyValue: KeyValueJobs;
  networks: NetworkRegistry;
  content: ContentAccess;
  nfts: Nfts;
  nftTransfers: NftTransfers;
}

/**
 * The ChainService's unary methods: jobs, documents, key-value, NFTs, networks, content and the relay.
 * WatchJobs is a stream and is served by jobs/job-watch.ts.
 */
/** A stored job as the contract's Job, its transaction linked to its network's explorer. */
export function jobView(networks: NetworkRegistry): (row: JobRow) => Job {
  return (row) => toJob(row, (hash) => networks.byCanonicalName(row.chainNetwork)?.txUrl(hash));
}

export function chainHandlers(d: ChainHandlerDeps): Partial<UnaryHandlers<typeof ChainServiceService>> {
  const view = jobView(d.networks);
  const keyValue = (op: KeyValueOperation) =>
    async (req: { network: string; key: string; value?: string; idempotencyKey?: string | undefined; requestEcho?: Record<string, unknown> | undefined }, ctx: { caller: Parameters<typeof requireCaller>[0] }) => {
      const { job, replayed } = await d.keyValue.submit(requireCaller(ctx.caller), op, req);
      return { jobId: job.id, job: view(job), replayed };
    };

  return {
    async getJob(req, ctx) {
      return { job: view(await d.jobs.get(requireCaller(ctx.caller), req.jobId)) };
    },
    async listJobs(req, ctx) {
      const { jobs, ...page } = await listJobs(d.ds, requireCaller(ctx.caller), req);
      return { jobs: jobs.map(view), ...page };
    },

    async submitDocument(req, ctx) {
      const { job, documentId, replayed } = await d.documents.submit(requireCaller(ctx.caller), req);
      return { job: view(job), documentId, replayed };
    },
    // With link_epoch and no caller: a signed link the gateway has checked (Documents.readByLink).
    async getDocument(req, ctx) {
      const read = req.linkEpoch !== undefined && !ctx.caller
        ? d.documents.readByLink(req.jobId, req.linkEpoch)
        : d.documents.read(requireCaller(ctx.caller), req.jobId);
      const { jobRow, ...doc } = await read;
      return { job: view(jobRow), ...doc };
    },
    async listDocumentJobs(req, ctx) {
      return d.documents.list(requireCaller(ctx.caller), req);
    },
    async revokeDocumentLinks(req, ctx) {
      return d.documents.revokeLinks(requireCaller(ctx.caller), req.jobId);
    },

    insertString: keyValue('insertString'),
    selectString: keyValue('selectString'),
    insertBytes32: keyValue('insertBytes32'),
    selectBytes32: keyValue('selectBytes32'),

    async mintNft(req, ctx) {
      const { job, replayed } = await d.nfts.mint(requireCaller(ctx.caller), req);
      return { jobId: job.id, job: view(job), replayed };
    },
    async listNfts(req, ctx) {
      return d.nfts.list(requireCaller(ctx.caller), req);
    },
    // Without a caller: by guid only, for the gateway's public certificate pages (see Nfts.get).
    async getNft(req, ctx) {
      return { nft: await d.nfts.get(ctx.caller, req) };
    },
    async transferNft(req, ctx) {
      const { job, replayed } = await d.nftTransfers.transfer(requireCaller(ctx.caller), req);
      return { jobId: job.id, job: view(job), replayed };
    },
    async sendNft(req, ctx) {
      return { nft: await d.nftTransfers.send(requireCaller(ctx.caller), req) };
    },
    // Claim and revoke are authorized by their codes: the recipient of an e-mail has no account.
    async claimNft(req) {
      const { job, replayed } = await d.nftTransfers.claim(req);
      return { jobId: job.id, job: view(job), replayed };
    },
    async revokeNftSend(req) {
      return d.nftTransfers.revoke(req);
    },

    async listNetworks(_req, ctx) {
      requireCaller(ctx.caller);
      return {
        networks: d.networks.list().map(({ name, aliasOf, network: n }) => ({
          name,
          chainId: n.chainId,
          embedded: n.embedded,
          rpcUrl: n.embedded ? `/rpc/${name}` : n.rpcUrlShown,
          explorerUrl: n.explorerUrl ?? '',
          confirmations: n.tuning.confirmations,
          ...(aliasOf ? { aliasOf } : {}),
          signerAddress: n.signerAddress,
          nativeCurrencySymbol: n.nativeCurrencySymbol,
          keyValueStoreAddress: n.contracts.keyValueStore ?? '',
          documentRegistryAddress: n.contracts.documentRegistry ?? '',
          nftContractAddress: n.contracts.nft ?? '',
        })),
      };
    },
    // Public content to anyone, private documents to their account only (content-access.ts).
    async getContent(req, ctx) {
      const found = await d.content.get(req.cid, ctx.caller);
      return { content: found.content, contentType: found.contentType, cid: found.cid, public: found.public };
    },
    // Public by design: whom this deployment's proofs name (the gateway's GET /trust-anchor.json).
    async getTrustAnchor() {
      return { body: Buffer.from(`${JSON.stringify(d.networks.trustAnchor(), null, 2)}\n`) };
    },
    // Public by design (the gateway serves /rpc/<network> without an API key).
    async relayJsonRpc(req) {
      const { network } = d.networks.resolve(req.network);
      return { body: await network.relay(Buffer.from(req.body), req.forPages ? 'pages' : 'public') };
    },
  };
}

import { dirname, join } from 'node:path';
import type { DataSource } from 'typeorm';
import type { Logger } from '@green-impact/shared/logger';
import { CertificateRenderer } from '../certificates/certificates.js';
import type { ContentStore } from '../content/content-store.js';
import { IpfsPinner } from '../content/ipfs-pinner.js';
import type { JobStore } from '../jobs/job-store.js';
import { createMailer, DEFAULT_MAIL_FROM } from '../mail/mailer.js';
import type { NetworkRegistry } from '../networks/network-registry.js';
import { DEFAULT_IMAGE_FETCH } from './image-source.js';
import { NftCertificates } from './nft-certificates.js';
import { NftJobs } from './nft-jobs.js';
import { DEFAULT_PUBLIC_BASE_URL, type NftOptions } from './nft-options.js';
import { NftStore } from './nft-store.js';
import { NftTransfers } from './nft-transfers.js';
import type { NftViewContext } from './nft-view.js';
import { Nfts } from './nfts.js';
import { DEFAULT_CODE_TTL_MS } from './transfer-codes.js';

export interface NftModule {
  store: NftStore;
  /** The worker's planner of NFT jobs. */
  jobs: NftJobs;
  nfts: Nfts;
  transfers: NftTransfers;
  close(): Promise<void>;
}

/**
 * Wires the NFT parts of the chain service: the mailer (SMTP or outbox folder), the optional IPFS
 * pinner, the certificate renderer's thread (drawing on first view), and the hook that keeps NFTs in step with their jobs.
 */
export function createNftModule(d: {
  ds: DataSource;
  jobs: JobStore;
  networks: NetworkRegistry;
  content: ContentStore;
  contentDir: string;
  publicBaseUrl: string | undefined;
  options: NftOptions;
  log: Logger;
}): NftModule {
  const o = d.options;
  const publicBaseUrl = (d.publicBaseUrl ?? DEFAULT_PUBLIC_BASE_URL).replace(/\/+$/, '');
  const store = new NftStore(d.ds);
  const view: NftViewContext = {
    publicBaseUrl,
    // Networks without an explorer (the embedded ones) point at the gateway's explorer placeholder.
    txUrl: (row, hash) => d.networks.byCanonicalName(row.chainNetwork)?.txUrl(hash) ?? `${publicBaseUrl}/explorer/${row.network}/tx/${hash}`,
  };
  const pinner = o.ipfsApiUrl ? new IpfsPinner(o.ipfsApiUrl) : undefined;
  const renderer = new CertificateRenderer();
  const certificates = new NftCertificates({ ds: d.ds, content: d.content, renderer, networks: d.networks, publicBaseUrl, log: d.log, pinner });
  const nftJobs = new NftJobs(view, (guids) => store.loadMany(guids), d.log);
  d.jobs.onTransition((m, before, after) => nftJobs.onJobTransition(m, before, after));
  const mailer = createMailer({
    smtpUrl: o.smtpUrl,
    outboxDir: o.mailOutboxDir ?? join(dirname(d.contentDir), 'mail-outbox'),
    from: o.mailFrom ?? DEFAULT_MAIL_FROM,
    log: d.log,
  });
  d.log.info({ mail: mailer.description, ipfsPinning: pinner?.shownUrl ?? false, publicBaseUrl }, 'NFT settings');
  const image = { ...DEFAULT_IMAGE_FETCH, ...Object.fromEntries(Object.entries(o.image ?? {}).filter(([, v]) => v !== undefined)), publicBaseUrl };
  const deps = { ds: d.ds, jobs: d.jobs, store, networks: d.networks, content: d.content, view, image, pinner, log: d.log, certificates };
  return {
    store,
    jobs: nftJobs,
    nfts: new Nfts(deps),
    transfers: new NftTransfers({ ...deps, mailer, codeTtlMs: o.codeTtlMs ?? DEFAULT_CODE_TTL_MS }),
    async close() {
      mailer.close();
      await renderer.close();
    },
  };
}

import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { ChainServiceService } from '@green-impact/proto/greenimpact/chain/v1/chain';
import type { EventBus } from '@green-impact/shared/bus/event-bus';
import { openServiceDataSource, type MigrationMode } from '@green-impact/shared/db/data-source';
import type { ServiceSchema } from '@green-impact/shared/migrate-main';
import { implement, type GrpcServiceRegistration } from '@green-impact/shared/grpc/server';
import type { ListingLimits } from '@green-impact/shared/config';
import type { Logger } from '@green-impact/shared/logger';
import { ContentAccess } from './content/content-access.js';
import { FolderContentStore, type ContentStore } from './content/content-store.js';
import { DatabaseContentStore } from './content/database-content-store.js';
import { Documents } from './documents/documents.js';
import { chainHandlers, jobView } from './handlers.js';
import { certificatePageHandlers, claimPageHandlers, documentPageHandlers, explorerPageHandlers, pageNodeReads } from './pages/page-handlers.js';
import { DEFAULT_NODE_READS, type NodeReadSettings } from './pages/node-read-cache.js';
import { chainEntities } from './jobs/entities.js';
import { JobStore } from './jobs/job-store.js';
import { JobEventHub, watchJobsHandler } from './jobs/job-watch.js';
import { registerChainMetrics } from './jobs/job-metrics.js';
import { registerBalanceMetrics } from './networks/balance-metrics.js';
import { OutboxRelay } from './jobs/outbox.js';
import { KeyValueJobs } from './key-value/key-value-jobs.js';
import { InitChain1764028800000 } from './migrations/1764028800000-init-chain.js';
import { Nfts1764633600000 } from './migrations/1764633600000-nfts.js';
import { OutboxTraceContext1765238400000 } from './migrations/1765238400000-outbox-trace-context.js';
import { SignerLeases1765843200000 } from './migrations/1765843200000-signer-leases.js';
import { DocumentAccess1766534400000 } from './migrations/1766534400000-document-access.js';
import { ContentTable1766620800000 } from './migrations/1766620800000-content-table.js';
import { JobBatches1766707200000 } from './migrations/1766707200000-job-batches.js';
import { ActingPerson1767312000000 } from './migrations/1767312000000-acting-person.js';
import type { NetworkSpec } from './networks/network-spec.js';
import { replayEmbeddedHistory } from './networks/embedded-replay.js';
import { batchSettlement } from './worker/job-batches.js';
import { NetworkRegistry } from './networks/network-registry.js';
import type { RelayQuotaSettings } from './networks/relay-quota.js';
import { nftEntities } from './nfts/nft-entities.js';
import { createNftModule } from './nfts/nft-module.js';
import type { NftOptions } from './nfts/nft-options.js';
import type { NftStore } from './nfts/nft-store.js';
import { SCHEMA } from './schema.js';
import { JobWorker, type JobWorkerOptions } from './worker/job-worker.js';

export const CHAIN_SERVICE_NAME = 'greenimpact.chain.v1.ChainService';

/** The tables this service owns and the migrations that make them (also run alone by migrate.ts). */
export const chainSchema: ServiceSchema = {
  schema: SCHEMA,
  entities: [...chainEntities, ...nftEntities],
  migrations: [InitChain1764028800000, Nfts1764633600000, OutboxTraceContext1765238400000, SignerLeases1765843200000, DocumentAccess1766534400000, ContentTable1766620800000, JobBatches1766707200000, ActingPerson1767312000000],
};

export interface ChainServiceOptions {
  databaseUrl: string;
  /** Kafka or the in-process bus; owned (and closed) by the caller. */
  bus: EventBus;
  /** From CHAIN_NETWORKS, or embeddedNetworkSpecs() when none are configured. */
  networks: NetworkSpec[];
  /** Directory of the content-addressed store. */
  contentDir: string;
  /**
   * Where content lives: `folder` (contentDir, the embedded default) or `database` (chain.content; reads
   * of content missing there fall back to contentDir, where earlier versions stored it).
   */
  contentStore?: 'folder' | 'database';
  log: Logger;
  poolSize?: number;
  /** MIGRATIONS: apply pending migrations at start (default) or only check the schema's version. */
  migrate?: MigrationMode | undefined;
  /** Run the chain worker in this process (default true); false for API-only replicas. */
  worker?: boolean | JobWorkerOptions;
  /** How often the outbox relay looks for rows written by other replicas (default 1000 ms). */
  relayPollIntervalMs?: number;
  /**
   * Where clients reach the gateway (PUBLIC_BASE_URL): the base of NFT metadata, image and certificate
   * URLs, claim links and the explorer placeholder. Default http://127.0.0.1:8080.
   */
  publicBaseUrl?: string | undefined;
  nfts?: NftOptions;
  /** The public relay's own budget on each network (CHAIN_RELAY_*); DEFAULT_RELAY_QUOTA when not given. */
  relayQuota?: RelayQuotaSettings | undefined;
  /** MAX_LIST_ITEMS (document entries); its default when undefined. */
  limits?: ListingLimits | undefined;
  /** The cache of the public pages' chain reads (NODE_READ_CACHE_*); DEFAULT_NODE_READS when not given. */
  nodeReads?: NodeReadSettings | undefined;
}

export interface ChainService {
  registration: GrpcServiceRegistration;
  networks: NetworkRegistry;
  jobs: JobStore;
  relay: OutboxRelay;
  content: ContentStore;
  nfts: NftStore;
  dataSource: DataSource;
  /** The worker of this process, when it runs one. */
  worker: JobWorker | undefined;
  /** Starts a worker (again, after stopWorker: tests restart it), by default with the options the service was made with. */
  startWorker(options?: JobWorkerOptions): Promise<JobWorker>;
  stopWorker(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens the chain schema (running migrations), connects or starts the networks (deploying the contracts
 * on embedded ones), and builds the gRPC service with its outbox relay, job event hub and, unless turned
 * off, the chain worker.
 */
export async function createChainService(opts: ChainServiceOptions): Promise<ChainService> {
  const log = opts.log;
  const ds = await openServiceDataSource({
    url: opts.databaseUrl,
    ...chainSchema,
    ...(opts.poolSize ? { poolSize: opts.poolSize } : {}),
    ...(opts.migrate ? { migrate: opts.migrate } : {}),
    log,
  });
  const cleanup: (() => Promise<void> | void)[] = [() => ds.destroy()];
  const unwind = async () => {
    while (cleanup.length) await Promise.resolve(cleanup.pop()!()).catch((err: unknown) => log.error({ err }, 'error while closing'));
  };
  try {
    const folder = new FolderContentStore(opts.contentDir);
    const content: ContentStore = opts.contentStore === 'database' ? new DatabaseContentStore(ds, folder) : folder;
    await content.init();
    const networks = await NetworkRegistry.open(opts.networks, log, opts.relayQuota);
    cleanup.push(() => networks.close());
    for (const n of networks.networks()) if (n.embedded) await replayEmbeddedHistory(ds, n, log);

    const relay = new OutboxRelay(ds, opts.bus, log, { pollIntervalMs: opts.relayPollIntervalMs ?? 1_000 });
    const jobs = new JobStore(ds, () => relay.wake());
    jobs.onTransition(batchSettlement(jobs, networks));
    relay.start();
    cleanup.push(() => relay.stop());
    cleanup.push(registerChainMetrics(ds, log));
    cleanup.push(registerBalanceMetrics(networks, log));

    const nftModule = createNftModule({
      ds, jobs, networks, content, contentDir: opts.contentDir, publicBaseUrl: opts.publicBaseUrl, options: opts.nfts ?? {}, log,
    });
    cleanup.push(() => nftModule.close());

    const hub = new JobEventHub(log);
    await hub.start(opts.bus, randomUUID());
    cleanup.push(() => hub.stop());

    let worker: JobWorker | undefined;
    // Restarted without options, a worker keeps the ones the service was made with (CHAIN_NFT_BATCH and the like).
    const startWorker = async (options: JobWorkerOptions = typeof opts.worker === 'object' ? opts.worker : {}) => {
      if (worker) return worker;
      const w = new JobWorker(ds, jobs, networks, opts.bus, log, options, { nfts: nftModule.jobs });
      await w.start();
      worker = w;
      return w;
    };
    const stopWorker = async () => {
      const w = worker;
      worker = undefined;
      await w?.stop();
    };
    if (opts.worker !== false) await startWorker();
    cleanup.push(stopWorker);

    const documents = new Documents(ds, jobs, networks, content, opts.limits?.maxListItems);
    const access = new ContentAccess(ds, content);
    const keyValue = new KeyValueJobs(jobs, networks);
    // The public pages' chain reads, cached and on the relay's pages quota (pages/node-read-cache.ts).
    const pageReads = pageNodeReads(networks, opts.nodeReads ?? DEFAULT_NODE_READS);
    const implementation = implement(
      CHAIN_SERVICE_NAME,
      ChainServiceService,
      {
        ...chainHandlers({ ds, jobs, documents, keyValue, networks, content: access, nfts: nftModule.nfts, nftTransfers: nftModule.transfers }),
        ...explorerPageHandlers(pageReads),
        ...certificatePageHandlers(nftModule.nfts, pageReads, log.child({ component: 'pages' })),
        ...claimPageHandlers(nftModule.nfts),
        ...documentPageHandlers(documents, jobView(networks)),
      },
      log,
    );
    implementation['watchJobs'] = watchJobsHandler(
      hub,
      jobs,
      (row, hash) => networks.byCanonicalName(row.chainNetwork)?.txUrl(hash),
      log,
    ) as never;

    return {
      registration: { name: CHAIN_SERVICE_NAME, definition: ChainServiceService, implementation },
      networks,
      jobs,
      relay,
      content,
      nfts: nftModule.store,
      dataSource: ds,
      get worker() {
        return worker;
      },
      startWorker,
      stopWorker,
      close: unwind,
    };
  } catch (err) {
    await unwind();
    throw err;
  }
}

import type { DataSource } from 'typeorm';
import { PortfolioServiceService } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { openServiceDataSource, type MigrationMode } from '@green-impact/shared/db/data-source';
import type { ServiceSchema } from '@green-impact/shared/migrate-main';
import { implement, type GrpcServiceRegistration } from '@green-impact/shared/grpc/server';
import type { EventBus } from '@green-impact/shared/bus/event-bus';
import type { ListingLimits } from '@green-impact/shared/config';
import type { Logger } from '@green-impact/shared/logger';
import { createTaxonomyClient } from '@green-impact/shared/clients/taxonomy-client';
import { portfolioEntities } from './entities.js';
import { TaxonomyFrameworkSource } from './framework-source.js';
import { portfolioServiceHandlers, portfolioStreamHandlers } from './handlers.js';
import type { RecomputeRunnerOptions } from './jobs/recompute-runner.js';
import { StaleImpactFollower } from './jobs/stale-impacts.js';
import { InitPortfolio1763942400000 } from './migrations/1763942400000-init-portfolio.js';
import { ImpactRowSets1766102400000 } from './migrations/1766102400000-impact-row-sets.js';
import { ImpactRecomputeJobs1766275200000 } from './migrations/1766275200000-impact-recompute-jobs.js';
import { RecomputeActingPerson1767312000000 } from './migrations/1767312000000-recompute-acting-person.js';
import { ImpactsCascadeByStatement1767398400000 } from './migrations/1767398400000-impacts-cascade-by-statement.js';
import { FrameworkHolderBackfill1767484800000 } from './migrations/1767484800000-framework-holder-backfill.js';
import { SCHEMA } from './schema.js';
import { createStores, type PortfolioStores } from './stores.js';

export const PORTFOLIO_SERVICE_NAME = 'greenimpact.portfolio.v1.PortfolioService';

/** The tables this service owns and the migrations that make them (also run alone by migrate.ts). */
export const portfolioSchema: ServiceSchema = {
  schema: SCHEMA,
  entities: portfolioEntities,
  migrations: [InitPortfolio1763942400000, ImpactRowSets1766102400000, ImpactRecomputeJobs1766275200000, RecomputeActingPerson1767312000000, ImpactsCascadeByStatement1767398400000, FrameworkHolderBackfill1767484800000],
};

export interface PortfolioServiceOptions {
  databaseUrl: string;
  /** host:port of the taxonomy service (frameworks, FX rates). */
  taxonomyAddress: string;
  poolSize?: number;
  /** MIGRATIONS: apply pending migrations at start (default) or only check the schema's version. */
  migrate?: MigrationMode | undefined;
  log: Logger;
  /**
   * Where the taxonomy service announces its writes (taxonomy.changes): each one makes the service check its
   * stored impacts for changed framework figures and FX rates. None: impacts are not marked stale.
   */
  bus?: EventBus | undefined;
  /** Recompute job lease, polling and batch size (tests shorten them). */
  recompute?: RecomputeRunnerOptions | undefined;
  /** MAX_LIST_ITEMS and MAX_PUBLIC_ITEMS_PER_ACCOUNT; their defaults when undefined. */
  limits?: ListingLimits | undefined;
}

export interface PortfolioService {
  registration: GrpcServiceRegistration;
  stores: PortfolioStores;
  /** The service's data source (tests and tools inspect the schema through it). */
  dataSource: DataSource;
  /** Checks stored impacts against the taxonomy now (as an announcement would); absent without a bus. */
  staleFollower: StaleImpactFollower | undefined;
  /**
   * The first start's recording of every asset's framework with taxonomy (AssetStore.recordEveryHolder),
   * retried until it succeeds: how many it recorded, undefined when done before or stopped by close.
   */
  holderBackfill: Promise<number | undefined>;
  close(): Promise<void>;
}

const HOLDER_BACKFILL_RETRY_MS = 30_000;

/** Runs recordEveryHolder in the background until it succeeds (taxonomy may come up after this service) or `stop`. */
function backfillHolders(stores: PortfolioStores, log: Logger): { done: Promise<number | undefined>; stop(): Promise<void> } {
  const abort = new AbortController();
  let wake: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  const done = (async () => {
    for (;;) {
      try {
        return await stores.assets.recordEveryHolder(abort.signal);
      } catch (err) {
        if (abort.signal.aborted) return undefined;
        log.warn({ err }, "recording the assets' framework references failed; retrying");
        await new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, HOLDER_BACKFILL_RETRY_MS);
        });
        if (abort.signal.aborted) return undefined;
      }
    }
  })();
  return {
    done,
    async stop() {
      abort.abort();
      clearTimeout(timer);
      wake?.();
      await done;
    },
  };
}

/** Opens the portfolio schema (running migrations), connects to the taxonomy service and builds the gRPC service. */
export async function createPortfolioService(opts: PortfolioServiceOptions): Promise<PortfolioService> {
  const ds = await openServiceDataSource({
    url: opts.databaseUrl,
    ...portfolioSchema,
    ...(opts.poolSize ? { poolSize: opts.poolSize } : {}),
    ...(opts.migrate ? { migrate: opts.migrate } : {}),
    log: opts.log,
  });
  // Signed as portfolio, not as the gateway: background jobs read taxonomy long after the gateway's token
  // for the request expired, and taxonomy lets portfolio read only (RELAY_GRANTS).
  const taxonomy = createTaxonomyClient(opts.taxonomyAddress, { issuer: 'portfolio' });
  const stores = createStores(ds, new TaxonomyFrameworkSource(taxonomy), opts.log, opts.recompute, opts.limits);
  let staleFollower: StaleImpactFollower | undefined;
  const holderBackfill = backfillHolders(stores, opts.log.child({ component: 'framework-holders' }));
  try {
    stores.recomputeRunner.start();
    if (opts.bus) {
      staleFollower = new StaleImpactFollower(stores.staleImpacts, opts.log.child({ component: 'stale-impacts' }));
      await staleFollower.follow(opts.bus);
    }
  } catch (err) {
    await holderBackfill.stop();
    await stores.recomputeRunner.close();
    taxonomy.close();
    await ds.destroy();
    throw err;
  }
  return {
    registration: {
      name: PORTFOLIO_SERVICE_NAME,
      definition: PortfolioServiceService,
      implementation: implement(PORTFOLIO_SERVICE_NAME, PortfolioServiceService, portfolioServiceHandlers(stores), opts.log, portfolioStreamHandlers(stores)),
    },
    stores,
    dataSource: ds,
    staleFollower,
    holderBackfill: holderBackfill.done,
    async close() {
      await holderBackfill.stop();
      await staleFollower?.close();
      await stores.recomputeRunner.close();
      taxonomy.close();
      await ds.destroy();
    },
  };
}

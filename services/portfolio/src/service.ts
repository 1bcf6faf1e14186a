import type { DataSource } from 'typeorm';
import { PortfolioServiceService } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { openServiceDataSource } from '@green-impact/shared/db/data-source';
import type { ServiceSchema } from '@green-impact/shared/migrate-main';
import { implement, type GrpcServiceRegistration } from '@green-impact/shared/grpc/server';
import type { Logger } from '@green-impact/shared/logger';
import { createTaxonomyClient } from '@green-impact/taxonomy/taxonomy-client';
import { portfolioEntities } from './entities.js';
import { TaxonomyFrameworkSource } from './framework-source.js';
import { portfolioServiceHandlers } from './handlers.js';
import { InitPortfolio1763942400000 } from './migrations/1763942400000-init-portfolio.js';
import { ImpactRowSets1766102400000 } from './migrations/1766102400000-impact-row-sets.js';
import { SCHEMA } from './schema.js';
import { createStores, type PortfolioStores } from './stores.js';

export const PORTFOLIO_SERVICE_NAME = 'greenimpact.portfolio.v1.PortfolioService';

/** The tables this service owns and the migrations that make them (also run alone by migrate.ts). */
export const portfolioSchema: ServiceSchema = {
  schema: SCHEMA,
  entities: portfolioEntities,
  migrations: [InitPortfolio1763942400000, ImpactRowSets1766102400000],
};

export interface PortfolioServiceOptions {
  databaseUrl: string;
  /** host:port of the taxonomy service (frameworks, FX rates). */
  taxonomyAddress: string;
  poolSize?: number;
  log: Logger;
}

export interface PortfolioService {
  registration: GrpcServiceRegistration;
  stores: PortfolioStores;
  /** The service's data source (tests and tools inspect the schema through it). */
  dataSource: DataSource;
  close(): Promise<void>;
}

/** Opens the portfolio schema (running migrations), connects to the taxonomy service and builds the gRPC service. */
export async function createPortfolioService(opts: PortfolioServiceOptions): Promise<PortfolioService> {
  const ds = await openServiceDataSource({
    url: opts.databaseUrl,
    ...portfolioSchema,
    ...(opts.poolSize ? { poolSize: opts.poolSize } : {}),
    log: opts.log,
  });
  const taxonomy = createTaxonomyClient(opts.taxonomyAddress);
  const stores = createStores(ds, new TaxonomyFrameworkSource(taxonomy), opts.log);
  return {
    registration: {
      name: PORTFOLIO_SERVICE_NAME,
      definition: PortfolioServiceService,
      implementation: implement(PORTFOLIO_SERVICE_NAME, PortfolioServiceService, portfolioServiceHandlers(stores), opts.log),
    },
    stores,
    dataSource: ds,
    async close() {
      taxonomy.close();
      await ds.destroy();
    },
  };
}

import type { DataSource } from 'typeorm';
import { TaxonomyServiceService } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import { openServiceDataSource, type MigrationMode } from '@green-impact/shared/db/data-source';
import type { ServiceSchema } from '@green-impact/shared/migrate-main';
import { implement, type GrpcServiceRegistration } from '@green-impact/shared/grpc/server';
import type { ListingLimits } from '@green-impact/shared/config';
import type { Logger } from '@green-impact/shared/logger';
import { currencyEntities } from './currencies/entities.js';
import { frameworkEntities } from './frameworks/entities.js';
import type { EventBus } from '@green-impact/shared/bus/event-bus';
import { announcingChanges } from './change-events.js';
import { taxonomyServiceHandlers } from './handlers.js';
import { InitTaxonomy1763856000000 } from './migrations/1763856000000-init-taxonomy.js';
import { SeedReferenceData1763856000001 } from './migrations/1763856000001-seed-reference-data.js';
import { FrameworksProjects1763856000002 } from './migrations/1763856000002-frameworks-projects.js';
import { ProjectFinancing1763856000003 } from './migrations/1763856000003-project-financing.js';
import { IndicatorValueMetadata1763856000004 } from './migrations/1763856000004-indicator-value-metadata.js';
import { SignedUnits1763856000005 } from './migrations/1763856000005-signed-units.js';
import { BondReportFields1763856000006 } from './migrations/1763856000006-bond-report-fields.js';
import { TaxonomyLayer1763856000007 } from './migrations/1763856000007-taxonomy-layer.js';
import { FrameworkHolders1763856000008 } from './migrations/1763856000008-framework-holders.js';
import { projectEntities } from './projects/entities.js';
import { referenceEntities } from './reference/entities.js';
import { SCHEMA } from './schema.js';
import { createStores, type TaxonomyStores } from './stores.js';
import { taxonomyItemEntities } from './taxonomy/entities.js';

export const TAXONOMY_SERVICE_NAME = 'greenimpact.taxonomy.v1.TaxonomyService';

/** The tables this service owns and the migrations that make them (also run alone by migrate.ts). */
export const taxonomySchema: ServiceSchema = {
  schema: SCHEMA,
  entities: [...referenceEntities, ...taxonomyItemEntities, ...currencyEntities, ...frameworkEntities, ...projectEntities],
  migrations: [InitTaxonomy1763856000000, SeedReferenceData1763856000001, FrameworksProjects1763856000002, ProjectFinancing1763856000003, IndicatorValueMetadata1763856000004, SignedUnits1763856000005, BondReportFields1763856000006, TaxonomyLayer1763856000007, FrameworkHolders1763856000008],
};

export interface TaxonomyServiceOptions {
  databaseUrl: string;
  poolSize?: number;
  /** MIGRATIONS: apply pending migrations at start (default) or only check the schema's version. */
  migrate?: MigrationMode | undefined;
  /** Where committed writes are announced (taxonomy.changes) for the gateways' caches; none: they expire by TTL. */
  bus?: EventBus | undefined;
  /** MAX_LIST_ITEMS and MAX_PUBLIC_ITEMS_PER_ACCOUNT; their defaults when undefined. */
  limits?: ListingLimits | undefined;
  log: Logger;
}

export interface TaxonomyService {
  registration: GrpcServiceRegistration;
  stores: TaxonomyStores;
  /** The service's data source (tests and tools inspect the schema through it). */
  dataSource: DataSource;
  close(): Promise<void>;
}

/** Opens the taxonomy schema (running migrations, which seed the reference data) and builds the gRPC service. */
export async function createTaxonomyService(opts: TaxonomyServiceOptions): Promise<TaxonomyService> {
  const ds = await openServiceDataSource({
    url: opts.databaseUrl,
    ...taxonomySchema,
    ...(opts.poolSize ? { poolSize: opts.poolSize } : {}),
    ...(opts.migrate ? { migrate: opts.migrate } : {}),
    log: opts.log,
  });
  try {
    const stores = await createStores(ds, opts.limits);
    return {
      registration: {
        name: TAXONOMY_SERVICE_NAME,
        definition: TaxonomyServiceService,
        implementation: implement(
          TAXONOMY_SERVICE_NAME,
          TaxonomyServiceService,
          announcingChanges(taxonomyServiceHandlers(stores), opts.bus, opts.log),
          opts.log,
        ),
      },
      stores,
      dataSource: ds,
      close: () => ds.destroy(),
    };
  } catch (err) {
    await ds.destroy();
    throw err;
  }
}

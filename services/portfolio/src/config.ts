import { listingLimits, serviceDatabase, type EnvReader, type ListingLimits, type ServiceDatabaseSettings } from '@green-impact/shared/config';
import { RECOMPUTE_BATCH } from './impacts/impact-service.js';

export interface PortfolioConfig extends ServiceDatabaseSettings {
  /** host:port of the taxonomy service it reads frameworks and FX rates from (TAXONOMY_GRPC_ADDR). */
  taxonomyAddress: string;
  /** The impact recomputation jobs' lease, poll interval (RECOMPUTE_JOB_*) and positions per batch (RECOMPUTE_BATCH). */
  recompute: { leaseMs: number; pollMs: number; batchSize: number };
  /** MAX_LIST_ITEMS and MAX_PUBLIC_ITEMS_PER_ACCOUNT. */
  limits: ListingLimits;
}

/** The portfolio service's environment (its bus: KAFKA_*, read by create-bus.ts), checked before anything connects. */
export function loadPortfolioConfig(env: EnvReader): PortfolioConfig {
  return {
    ...serviceDatabase(env),
    taxonomyAddress: env.string('TAXONOMY_GRPC_ADDR'),
    recompute: {
      leaseMs: env.int('RECOMPUTE_JOB_LEASE_MS', 30_000, { min: 1_000, max: 3_600_000 }),
      pollMs: env.int('RECOMPUTE_JOB_POLL_MS', 5_000, { min: 100, max: 600_000 }),
      batchSize: env.int('RECOMPUTE_BATCH', RECOMPUTE_BATCH, { min: 1, max: 10_000 }),
    },
    limits: listingLimits(env),
  };
}

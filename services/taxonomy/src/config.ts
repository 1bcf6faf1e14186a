import { listingLimits, serviceDatabase, type EnvReader, type ListingLimits, type ServiceDatabaseSettings } from '@green-impact/shared/config';

export interface TaxonomyConfig extends ServiceDatabaseSettings {
  /** MAX_LIST_ITEMS and MAX_PUBLIC_ITEMS_PER_ACCOUNT. */
  limits: ListingLimits;
}

/** The taxonomy service's environment (its bus: KAFKA_*, read by create-bus.ts), checked before anything connects. */
export function loadTaxonomyConfig(env: EnvReader): TaxonomyConfig {
  return { ...serviceDatabase(env), limits: listingLimits(env) };
}

import { listingLimits, serviceDatabase, type EnvReader, type ListingLimits, type ServiceDatabaseSettings } from '@green-impact/shared/config';
import { strongSecret } from '@green-impact/shared/secret-strength';

export interface IdentityConfig extends ServiceDatabaseSettings {
  /** The first operator's key, used once when no account exists; a weak one is refused (secret-strength.ts). */
  bootstrapApiKey: string | undefined;
  /** MAX_LIST_ITEMS (users, investors of a user). */
  limits: ListingLimits;
}

/** identity's environment, checked before anything connects. */
export function loadIdentityConfig(env: EnvReader): IdentityConfig {
  return {
    ...serviceDatabase(env),
    bootstrapApiKey: strongSecret('BOOTSTRAP_API_KEY', env.optionalString('BOOTSTRAP_API_KEY')),
    limits: listingLimits(env),
  };
}

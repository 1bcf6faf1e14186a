import { listingLimits, type EnvReader, type ListingLimits } from '@green-impact/shared/config';
import { strongSecret } from '@green-impact/shared/secret-strength';

export interface IdentityConfig {
  databaseUrl: string;
  /** The first operator's key, used once when no account exists; a weak one is refused (secret-strength.ts). */
  bootstrapApiKey: string | undefined;
  poolSize: number;
  /** MAX_LIST_ITEMS (users, investors of a user). */
  limits: ListingLimits;
}

/** identity's environment, checked before anything connects. */
export function loadIdentityConfig(env: EnvReader): IdentityConfig {
  return {
    databaseUrl: env.string('DATABASE_URL'),
    bootstrapApiKey: strongSecret('BOOTSTRAP_API_KEY', env.optionalString('BOOTSTRAP_API_KEY')),
    poolSize: env.int('DATABASE_POOL_SIZE', 10, { min: 1, max: 200 }),
    limits: listingLimits(env),
  };
}

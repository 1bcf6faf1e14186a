import { listingLimits, serviceDatabase, type EnvReader, type ListingLimits, type ServiceDatabaseSettings } from '@green-impact/shared/config';
import { strongSecret } from '@green-impact/shared/secret-strength';

export interface IdentityConfig extends ServiceDatabaseSettings {
  /** The first operator's key, used once when no account exists; a weak one is refused (secret-strength.ts). */
  bootstrapApiKey: string | undefined;
  /** MAX_LIST_ITEMS (users, investors of a user). */
  limits: ListingLimits;
  /** MAX_API_KEYS_PER_ACCOUNT: the active keys an account may hold. */
  maxApiKeysPerAccount: number;
}

/**
 * MAX_API_KEYS_PER_ACCOUNT (default 20): every key is a bucket of its own in the gateways' rate limits,
 * so an account holding unbounded keys would hold unbounded request rates. Also read by `npm start`.
 */
export function maxApiKeysPerAccount(env: EnvReader): number {
  return env.int('MAX_API_KEYS_PER_ACCOUNT', 20, { min: 1, max: 10_000 });
}

/** identity's environment, checked before anything connects. */
export function loadIdentityConfig(env: EnvReader): IdentityConfig {
  return {
    ...serviceDatabase(env),
    bootstrapApiKey: strongSecret('BOOTSTRAP_API_KEY', env.optionalString('BOOTSTRAP_API_KEY')),
    limits: listingLimits(env),
    maxApiKeysPerAccount: maxApiKeysPerAccount(env),
  };
}

import { IdentityServiceService } from '@green-impact/proto/greenimpact/identity/v1/identity';
import { openServiceDataSource, type MigrationMode } from '@green-impact/shared/db/data-source';
import type { ServiceSchema } from '@green-impact/shared/migrate-main';
import { implement, type GrpcServiceRegistration } from '@green-impact/shared/grpc/server';
import type { ListingLimits } from '@green-impact/shared/config';
import type { Logger } from '@green-impact/shared/logger';
import type { EventBus } from '@green-impact/shared/bus/event-bus';
import { IDENTITY_EVENTS_TOPIC, identityEventMessage, type IdentityEvent } from '@green-impact/shared/bus/identity-events';
import { AccountStore, type IdentityEventSink } from './accounts.js';
import { identityHandlers } from './handlers.js';
import { UserStore } from './users.js';
import { identityEntities, SCHEMA } from './entities.js';
import { InitIdentity1763769600000 } from './migrations/1763769600000-init-identity.js';

export const IDENTITY_SERVICE_NAME = 'greenimpact.identity.v1.IdentityService';

/** The tables this service owns and the migrations that make them (also run alone by migrate.ts). */
export const identitySchema: ServiceSchema = {
  schema: SCHEMA,
  entities: identityEntities,
  migrations: [InitIdentity1763769600000],
};

export interface IdentityServiceOptions {
  databaseUrl: string;
  bootstrapApiKey?: string | undefined;
  poolSize?: number;
  /** MIGRATIONS: apply pending migrations at start (default) or only check the schema's version. */
  migrate?: MigrationMode | undefined;
  /** Where key revocations are announced to the gateways' authentication caches; none: they expire by TTL only. */
  bus?: EventBus | undefined;
  /** MAX_LIST_ITEMS (getUsers); its default when undefined. */
  limits?: ListingLimits | undefined;
  /** MAX_API_KEYS_PER_ACCOUNT; 20 when undefined. */
  maxApiKeysPerAccount?: number | undefined;
  log: Logger;
}

export interface IdentityService {
  registration: GrpcServiceRegistration;
  accounts: AccountStore;
  close(): Promise<void>;
}

/** Opens the identity schema (running migrations), bootstraps the first operator, and builds the gRPC service. */
export async function createIdentityService(opts: IdentityServiceOptions): Promise<IdentityService> {
  const ds = await openServiceDataSource({
    url: opts.databaseUrl,
    ...identitySchema,
    ...(opts.poolSize ? { poolSize: opts.poolSize } : {}),
    ...(opts.migrate ? { migrate: opts.migrate } : {}),
    log: opts.log,
  });
  const accounts = new AccountStore(ds, eventSink(opts.bus, opts.log), opts.maxApiKeysPerAccount);
  const users = new UserStore(ds, opts.limits?.maxListItems);
  if (opts.bootstrapApiKey) {
    const created = await accounts.bootstrap(opts.bootstrapApiKey);
    if (created) opts.log.info({ accountId: created.id }, 'bootstrap operator account created from BOOTSTRAP_API_KEY');
  }
  return {
    registration: {
      name: IDENTITY_SERVICE_NAME,
      definition: IdentityServiceService,
      implementation: implement(IDENTITY_SERVICE_NAME, IdentityServiceService, identityHandlers(accounts, users), opts.log),
    },
    accounts,
    close: () => ds.destroy(),
  };
}

/**
 * Publishes after the change committed. A failed publish does not undo or fail the change: the gateways'
 * cache TTL (AUTH_CACHE_TTL_MS) bounds how long a replica that missed the event may still accept the key.
 */
function eventSink(bus: EventBus | undefined, log: Logger): IdentityEventSink {
  if (!bus) return async () => undefined;
  return async (event: IdentityEvent) => {
    try {
      await bus.publish(IDENTITY_EVENTS_TOPIC, [identityEventMessage(event)]);
    } catch (err) {
      log.warn({ err, type: event.type, accountId: event.accountId }, 'identity event not published; gateway caches expire it by TTL');
    }
  };
}

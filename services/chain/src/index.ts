import { resolve } from 'node:path';
import { protoFiles } from '@green-impact/proto/paths';
import { createEventBus, eventBusSettingsFromEnv } from '@green-impact/shared/bus/create-bus';
import { listingLimits } from '@green-impact/shared/config';
import { ownsBus, runServiceProcess } from '@green-impact/shared/service-main';
import { loadNetworkSpecs, loadNftSettings, loadRelayQuota } from './config.js';
import { createChainService } from './service.js';

await runServiceProcess({
  name: 'chain',
  protoFile: protoFiles.chain,
  defaultPort: 50054,
  create: async (env, log, environment) => {
    const databaseUrl = env.string('DATABASE_URL');
    const poolSize = env.int('DATABASE_POOL_SIZE', 10, { min: 1, max: 200 });
    const networks = loadNetworkSpecs(environment);
    const contentDir = resolve(env.string('CONTENT_DIR', './data/content'));
    // database: every replica reads what any wrote, no shared volume; folder: CONTENT_DIR alone.
    const contentStore = env.oneOf('CONTENT_STORE', ['database', 'folder'] as const, 'database');
    const worker = env.bool('CHAIN_WORKER', true)
      ? {
          sender: {
            batchSize: env.int('CHAIN_SEND_BATCH', 64, { min: 1, max: 1000 }),
            signerLeaseMs: env.int('CHAIN_SIGNER_LEASE_MS', 15_000, { min: 1_000, max: 600_000 }),
            jobLeaseMs: env.int('CHAIN_JOB_LEASE_MS', 30_000, { min: 1_000, max: 3_600_000 }),
          },
        }
      : false;
    const { publicBaseUrl, nfts } = loadNftSettings(env);
    const limits = listingLimits(env);
    const bus = createEventBus({ ...eventBusSettingsFromEnv(env), clientId: 'chain', logger: log });
    return ownsBus(bus, () => createChainService({ databaseUrl, poolSize, bus, networks, contentDir, contentStore, worker, log, publicBaseUrl, nfts, relayQuota: loadRelayQuota(env), limits }));
  },
});

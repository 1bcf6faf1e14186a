import { resolve } from 'node:path';
import { protoFiles } from '@green-impact/proto/paths';
import { createEventBus, eventBusSettingsFromEnv } from '@green-impact/shared/bus/create-bus';
import { ownsBus, runServiceProcess } from '@green-impact/shared/service-main';
import { loadNetworkSpecs, loadNftSettings } from './config.js';
import { createChainService } from './service.js';

await runServiceProcess({
  name: 'chain',
  protoFile: protoFiles.chain,
  defaultPort: 50054,
  create: async (env, log) => {
    const databaseUrl = env.string('DATABASE_URL');
    const poolSize = env.int('DATABASE_POOL_SIZE', 10, { min: 1, max: 200 });
    const networks = loadNetworkSpecs();
    const contentDir = resolve(env.string('CONTENT_DIR', './data/content'));
    const worker = env.bool('CHAIN_WORKER', true);
    const { publicBaseUrl, nfts } = loadNftSettings(env);
    const bus = createEventBus({ ...eventBusSettingsFromEnv(env), clientId: 'chain', logger: log });
    return ownsBus(bus, () => createChainService({ databaseUrl, poolSize, bus, networks, contentDir, worker, log, publicBaseUrl, nfts }));
  },
});

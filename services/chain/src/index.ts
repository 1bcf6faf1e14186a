import { protoFiles } from '@green-impact/proto/paths';
import { createEventBus, eventBusSettingsFromEnv } from '@green-impact/shared/bus/create-bus';
import { ownsBus, runServiceProcess } from '@green-impact/shared/service-main';
import { loadChainConfig } from './config.js';
import { createChainService } from './service.js';

await runServiceProcess({
  name: 'chain',
  protoFile: protoFiles.chain,
  defaultPort: 50054,
  create: async (env, log, environment) => {
    const config = loadChainConfig(env, environment);
    const bus = createEventBus({ ...eventBusSettingsFromEnv(env), clientId: 'chain', logger: log });
    return ownsBus(bus, () => createChainService({ ...config, bus, log }));
  },
});

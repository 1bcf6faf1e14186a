import { protoFiles } from '@green-impact/proto/paths';
import { announcementBusFromEnv } from '@green-impact/shared/bus/create-bus';
import { ownsBus, runServiceProcess } from '@green-impact/shared/service-main';
import { loadIdentityConfig } from './config.js';
import { createIdentityService } from './service.js';

await runServiceProcess({
  name: 'identity',
  protoFile: protoFiles.identity,
  defaultPort: 50051,
  create: async (env, log) => {
    const { databaseUrl, migrate, bootstrapApiKey, poolSize, limits, maxApiKeysPerAccount } = loadIdentityConfig(env);
    const bus = announcementBusFromEnv(env, 'identity', log);
    return ownsBus(bus, () => createIdentityService({ databaseUrl, bootstrapApiKey, poolSize, migrate, bus, limits, maxApiKeysPerAccount, log }));
  },
});

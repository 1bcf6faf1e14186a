import { protoFiles } from '@green-impact/proto/paths';
import { announcementBusFromEnv } from '@green-impact/shared/bus/create-bus';
import { listingLimits } from '@green-impact/shared/config';
import { ownsBus, runServiceProcess } from '@green-impact/shared/service-main';
import { createIdentityService } from './service.js';

await runServiceProcess({
  name: 'identity',
  protoFile: protoFiles.identity,
  defaultPort: 50051,
  create: async (env, log) => {
    const databaseUrl = env.string('DATABASE_URL');
    const bootstrapApiKey = env.optionalString('BOOTSTRAP_API_KEY');
    const poolSize = env.int('DATABASE_POOL_SIZE', 10, { min: 1, max: 200 });
    const limits = listingLimits(env);
    const bus = announcementBusFromEnv(env, 'identity', log);
    return ownsBus(bus, () => createIdentityService({ databaseUrl, bootstrapApiKey, poolSize, bus, limits, log }));
  },
});

import { protoFiles } from '@green-impact/proto/paths';
import { announcementBusFromEnv } from '@green-impact/shared/bus/create-bus';
import { listingLimits } from '@green-impact/shared/config';
import { ownsBus, runServiceProcess } from '@green-impact/shared/service-main';
import { createTaxonomyService } from './service.js';

await runServiceProcess({
  name: 'taxonomy',
  protoFile: protoFiles.taxonomy,
  defaultPort: 50052,
  create: async (env, log) => {
    const databaseUrl = env.string('DATABASE_URL');
    const poolSize = env.int('DATABASE_POOL_SIZE', 10, { min: 1, max: 200 });
    const limits = listingLimits(env);
    const bus = announcementBusFromEnv(env, 'taxonomy', log);
    return ownsBus(bus, () => createTaxonomyService({ databaseUrl, poolSize, bus, limits, log }));
  },
});

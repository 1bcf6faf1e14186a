import { protoFiles } from '@green-impact/proto/paths';
import { announcementBusFromEnv } from '@green-impact/shared/bus/create-bus';
import { ownsBus, runServiceProcess } from '@green-impact/shared/service-main';
import { loadTaxonomyConfig } from './config.js';
import { createTaxonomyService } from './service.js';

await runServiceProcess({
  name: 'taxonomy',
  protoFile: protoFiles.taxonomy,
  defaultPort: 50052,
  create: async (env, log) => {
    const { databaseUrl, migrate, poolSize, limits } = loadTaxonomyConfig(env);
    const bus = announcementBusFromEnv(env, 'taxonomy', log);
    return ownsBus(bus, () => createTaxonomyService({ databaseUrl, poolSize, migrate, bus, limits, log }));
  },
});

import { protoFiles } from '@green-impact/proto/paths';
import { runServiceProcess } from '@green-impact/shared/service-main';
import { createTaxonomyService } from './service.js';

await runServiceProcess({
  name: 'taxonomy',
  protoFile: protoFiles.taxonomy,
  defaultPort: 50052,
  create: (env, log) =>
    createTaxonomyService({
      databaseUrl: env.string('DATABASE_URL'),
      poolSize: env.int('DATABASE_POOL_SIZE', 10, { min: 1, max: 200 }),
      log,
    }),
});

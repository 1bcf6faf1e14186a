import { protoFiles } from '@green-impact/proto/paths';
import { runServiceProcess } from '@green-impact/shared/service-main';
import { createPortfolioService } from './service.js';

await runServiceProcess({
  name: 'portfolio',
  protoFile: protoFiles.portfolio,
  defaultPort: 50053,
  create: (env, log) =>
    createPortfolioService({
      databaseUrl: env.string('DATABASE_URL'),
      taxonomyAddress: env.string('TAXONOMY_GRPC_ADDR'),
      poolSize: env.int('DATABASE_POOL_SIZE', 10, { min: 1, max: 200 }),
      log,
    }),
});

import { protoFiles } from '@green-impact/proto/paths';
import { runServiceProcess } from '@green-impact/shared/service-main';
import { createIdentityService } from './service.js';

await runServiceProcess({
  name: 'identity',
  protoFile: protoFiles.identity,
  defaultPort: 50051,
  create: (env, log) =>
    createIdentityService({
      databaseUrl: env.string('DATABASE_URL'),
      bootstrapApiKey: env.optionalString('BOOTSTRAP_API_KEY'),
      poolSize: env.int('DATABASE_POOL_SIZE', 10, { min: 1, max: 200 }),
      log,
    }),
});

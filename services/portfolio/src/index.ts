import { protoFiles } from '@green-impact/proto/paths';
import { announcementBusFromEnv } from '@green-impact/shared/bus/create-bus';
import { listingLimits } from '@green-impact/shared/config';
import { ownsBus, runServiceProcess } from '@green-impact/shared/service-main';
import { createPortfolioService } from './service.js';

await runServiceProcess({
  name: 'portfolio',
  protoFile: protoFiles.portfolio,
  defaultPort: 50053,
  callsServices: true,
  create: async (env, log) => {
    const databaseUrl = env.string('DATABASE_URL');
    const taxonomyAddress = env.string('TAXONOMY_GRPC_ADDR');
    const poolSize = env.int('DATABASE_POOL_SIZE', 10, { min: 1, max: 200 });
    const recompute = {
      leaseMs: env.int('RECOMPUTE_JOB_LEASE_MS', 30_000, { min: 1_000, max: 3_600_000 }),
      pollMs: env.int('RECOMPUTE_JOB_POLL_MS', 5_000, { min: 100, max: 600_000 }),
    };
    const limits = listingLimits(env);
    // taxonomy.changes over Kafka; without KAFKA_BROKERS this process hears no taxonomy writes.
    const bus = announcementBusFromEnv(env, 'portfolio', log);
    return ownsBus(bus, () => createPortfolioService({ databaseUrl, taxonomyAddress, poolSize, bus, recompute, limits, log }));
  },
});

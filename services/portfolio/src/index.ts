import { protoFiles } from '@green-impact/proto/paths';
import { announcementBusFromEnv } from '@green-impact/shared/bus/create-bus';
import { ownsBus, runServiceProcess } from '@green-impact/shared/service-main';
import { loadPortfolioConfig } from './config.js';
import { createPortfolioService } from './service.js';

await runServiceProcess({
  name: 'portfolio',
  protoFile: protoFiles.portfolio,
  defaultPort: 50053,
  callsServices: true,
  create: async (env, log) => {
    const { databaseUrl, migrate, taxonomyAddress, poolSize, recompute, limits } = loadPortfolioConfig(env);
    // taxonomy.changes over Kafka; without KAFKA_BROKERS this process hears no taxonomy writes.
    const bus = announcementBusFromEnv(env, 'portfolio', log);
    return ownsBus(bus, () => createPortfolioService({ databaseUrl, taxonomyAddress, poolSize, migrate, bus, recompute, limits, log }));
  },
});

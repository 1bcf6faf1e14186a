import { protoFiles } from '@green-impact/proto/paths';
import { createEventBus, eventBusSettingsFromEnv } from '@green-impact/shared/bus/create-bus';
import { runServiceProcess } from '@green-impact/shared/service-main';
import { createIdentityService } from './service.js';

await runServiceProcess({
  name: 'identity',
  protoFile: protoFiles.identity,
  defaultPort: 50051,
  create: async (env, log) => {
    const databaseUrl = env.string('DATABASE_URL');
    const bootstrapApiKey = env.optionalString('BOOTSTRAP_API_KEY');
    const poolSize = env.int('DATABASE_POOL_SIZE', 10, { min: 1, max: 200 });
    const settings = eventBusSettingsFromEnv(env);
    // Without Kafka an in-process bus would reach nobody in another process: announce nothing.
    const bus = settings.kafkaBrokers?.length ? createEventBus({ ...settings, clientId: 'identity', logger: log }) : undefined;
    try {
      const service = await createIdentityService({ databaseUrl, bootstrapApiKey, poolSize, bus, log });
      return {
        registration: service.registration,
        close: async () => {
          await service.close();
          await bus?.close();
        },
      };
    } catch (err) {
      await bus?.close();
      throw err;
    }
  },
});

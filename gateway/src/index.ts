import { announcementBusFromEnv } from '@green-impact/shared/bus/create-bus';
import { ConfigError, envReader, loadLogLevel, processEnvironment } from '@green-impact/shared/config';
import { loadCallerTrust } from '@green-impact/shared/callers/caller-trust-config';
import { useCallerTrust } from '@green-impact/shared/callers/caller-trust';
import { GATEWAY_ISSUER } from '@green-impact/shared/callers/caller-verifier';
import { reportListening } from '@green-impact/shared/listening';
import { createLogger } from '@green-impact/shared/logger';
import { initTracing } from '@green-impact/shared/tracing/tracing';
import { loadGatewayConfig } from './config.js';
import { createGateway } from './gateway.js';

// Standalone launcher: read config (the environment once, config.ts), start, stop cleanly on SIGTERM/SIGINT.
// Never exits mid-flight.
const environment = processEnvironment();
// At info until LOG_LEVEL is read (a level it does not name is a configuration error, answered below).
let log = createLogger('gateway', { level: 'info' });
try {
  log = createLogger('gateway', { level: loadLogLevel(environment) });
  initTracing('gateway', { env: environment }); // only when OTEL_EXPORTER_OTLP_ENDPOINT / OTEL_TRACES_EXPORTER say so
  const config = loadGatewayConfig(environment);
  const env = envReader(environment);
  // Every backend call carries the caller signed with CALLER_SIGNING_KEY; services accept nothing else.
  useCallerTrust(loadCallerTrust(env, { signsAs: GATEWAY_ISSUER, verifies: false }));
  // Kafka carries identity's key revocations to every replica's authentication cache; without it the
  // cache's TTL is the only bound (an in-process bus would reach no other process).
  const bus = announcementBusFromEnv(env, 'gateway', log);
  const gateway = createGateway({ config, log, bus });
  const stop = (signal: string) => {
    log.info({ signal }, 'stopping');
    gateway
      .close()
      .then(() => bus?.close())
      .then(() => log.info('stopped'), (err: unknown) => ((process.exitCode = 1), log.error({ err }, 'stop failed')));
  };
  process.once('SIGTERM', stop).once('SIGINT', stop);
  const { port } = await gateway.listen().catch(async (err: unknown) => (await gateway.close(), await bus?.close(), Promise.reject(err)));
  log.info({ host: config.host, port }, 'gateway listening');
  reportListening({ http: port });
} catch (err) {
  if (err instanceof ConfigError) {
    // Always shown, whatever LOG_LEVEL says: nothing started, and the operator must see why.
    process.stderr.write(`gateway: configuration error: ${err.message}\n`);
    process.exit(78);
  }
  log.fatal({ err: err instanceof Error ? { name: err.name, message: err.message } : err }, 'gateway failed to start');
  process.exitCode = 1;
}

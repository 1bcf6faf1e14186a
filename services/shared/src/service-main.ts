import { protoRoot } from '@green-impact/proto/paths';
import type { EventBus } from './bus/event-bus.js';
import { SchemaVersionError } from './db/data-source.js';
import { envReader, ConfigError, loadLogLevel, processEnvironment, type Env, type EnvReader } from './config.js';
import { createLogger, type Logger } from './logger.js';
import { startGrpcServer, type GrpcServiceRegistration } from './grpc/server.js';
import { reportListening } from './listening.js';
import { startMetricsServer, type MetricsServer } from './metrics-server.js';
import { initTracing, shutdownTracing } from './tracing/tracing.js';
import { loadGrpcServerSettings } from './grpc/server-settings.js';
import { loadCallerTrust } from './callers/caller-trust-config.js';
import { useCallerTrust } from './callers/caller-trust.js';

export interface RunnableService {
  registration: GrpcServiceRegistration;
  close(): Promise<void>;
}

/** A service that owns `bus`: the bus closes after the service (which drains its consumers first), or when the service fails to start. */
export async function ownsBus(bus: EventBus | undefined, create: () => Promise<RunnableService>): Promise<RunnableService> {
  try {
    const service = await create();
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
}

/**
 * Runs one service as its own process (the distributed topology): validates config before anything
 * starts, serves gRPC with health (and reflection outside production) to callers the gateway signed
 * (CALLER_TRUSTED_KEYS), and Prometheus metrics on METRICS_PORT (default: the gRPC
 * port + 1000, or a free port when GRPC_PORT is 0; 0 turns it off), reports the ports it bound (log lines,
 * and reportListening to a parent that asked over IPC), traces when OpenTelemetry is configured (tracing/tracing.ts), and on
 * SIGTERM/SIGINT stops accepting, lets in-flight calls finish (up to SHUTDOWN_GRACE_MS), then closes its
 * resources (the service drains its consumers and workers, commits offsets, closes its pool), then the
 * metrics listener, then flushes traces. Never exits mid-flight.
 */
export async function runServiceProcess(opts: {
  name: string;
  protoFile: string;
  defaultPort: number;
  /** The service calls other services for its callers, signing them as itself (CALLER_SIGNING_KEY). */
  callsServices?: boolean;
  /** `env` reads the process's environment (validated); `environment` is that environment itself, for a loader that takes it whole. */
  create: (env: EnvReader, log: Logger, environment: Env) => Promise<RunnableService>;
}): Promise<void> {
  const environment = processEnvironment();
  let log: Logger;
  try {
    log = createLogger(opts.name, { level: loadLogLevel(environment) });
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${opts.name}: configuration error: ${err.message}\n`);
    process.exitCode = 78; // EX_CONFIG
    return;
  }
  let service: RunnableService;
  let port: number;
  let host: string;
  let reflection: boolean;
  /** undefined: no metrics listener. */
  let metricsPort: number | undefined;
  let graceMs: number;
  try {
    const env = envReader(environment);
    ({ port, host, reflection } = loadGrpcServerSettings(env, opts.defaultPort));
    // Before anything connects: this process's clients sign with it, its server verifies with it.
    useCallerTrust(loadCallerTrust(env, { signsAs: opts.callsServices ? opts.name : undefined, verifies: true }));
    metricsPort = env.optionalString('METRICS_PORT') === undefined ? defaultMetricsPort(port) : env.port('METRICS_PORT') || undefined;
    graceMs = env.int('SHUTDOWN_GRACE_MS', 10_000, { min: 0, max: 600_000 });
    initTracing(opts.name, { env: environment });
    service = await opts.create(env, log, environment);
  } catch (err) {
    if (err instanceof ConfigError) {
      // Always shown, whatever LOG_LEVEL says: nothing started, and the operator must see why.
      process.stderr.write(`${opts.name}: configuration error: ${err.message}\n`);
      process.exitCode = 78; // EX_CONFIG
      return;
    }
    if (err instanceof SchemaVersionError) {
      // Not a crash: the schema is not this version's (MIGRATIONS=check). Kubernetes restarts the pod,
      // which starts once the migrations Job has run (older) or not at all (newer), saying why each time.
      process.stderr.write(`${opts.name}: ${err.message}\n`);
      process.exitCode = 75; // EX_TEMPFAIL
      return;
    }
    throw err;
  }
  const server = await startGrpcServer({
    services: [service.registration],
    host,
    port,
    protoRoot,
    protoFiles: [opts.protoFile],
    log,
    reflection,
  });
  let metrics: MetricsServer | undefined;
  if (metricsPort !== undefined) {
    try {
      metrics = await startMetricsServer({ host, port: metricsPort, log });
    } catch (err) {
      log.fatal({ err, port: metricsPort }, 'metrics listener could not start (set METRICS_PORT, 0 turns it off)');
      await server.shutdown(0);
      await service.close();
      process.exitCode = 1;
      return;
    }
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    try {
      await server.shutdown(graceMs);
      await service.close();
      await metrics?.close();
      await shutdownTracing();
      log.info('stopped');
    } catch (err) {
      process.exitCode = 1;
      log.error({ err }, 'shutdown failed');
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
  reportListening({ grpc: server.port, ...(metrics ? { metrics: metrics.port } : {}) });
}

/** The gRPC port + 1000 (50051 → 51051); a free one too (0) when the gRPC port is a free one. */
function defaultMetricsPort(grpcPort: number): number {
  if (grpcPort === 0) return 0;
  if (grpcPort + 1000 > 65535) throw new ConfigError(`METRICS_PORT must be set: GRPC_PORT ${grpcPort} + 1000 is no port.`);
  return grpcPort + 1000;
}

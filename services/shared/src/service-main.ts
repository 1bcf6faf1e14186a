import { protoRoot } from '@green-impact/proto/paths';
import { envReader, ConfigError, type EnvReader } from './config.js';
import { createLogger, type Logger } from './logger.js';
import { startGrpcServer, type GrpcServiceRegistration } from './grpc/server.js';

export interface RunnableService {
  registration: GrpcServiceRegistration;
  close(): Promise<void>;
}

/**
 * Runs one service as its own process (the distributed topology): validates config before anything
 * starts, serves gRPC with health and reflection, and on SIGTERM/SIGINT stops accepting, lets
 * in-flight calls finish, then closes its resources. Never exits mid-flight.
 */
export async function runServiceProcess(opts: {
  name: string;
  protoFile: string;
  defaultPort: number;
  create: (env: EnvReader, log: Logger) => Promise<RunnableService>;
}): Promise<void> {
  const log = createLogger(opts.name);
  let service: RunnableService;
  let port: number;
  let host: string;
  try {
    const env = envReader();
    port = env.port('GRPC_PORT', opts.defaultPort);
    host = env.string('GRPC_HOST', '0.0.0.0');
    service = await opts.create(env, log);
  } catch (err) {
    if (err instanceof ConfigError) {
      // Always shown, whatever LOG_LEVEL says: nothing started, and the operator must see why.
      process.stderr.write(`${opts.name}: configuration error: ${err.message}\n`);
      process.exitCode = 78; // EX_CONFIG
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
  });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    await server.shutdown();
    await service.close();
    log.info('stopped');
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

// Starting the whole system for a benchmark: in this process (as `npm start` runs it) or in a child
// process, so a load generator in this process does not share the system's event loop.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dist = (path) => new URL(`../../${path}`, import.meta.url).href;

/** Imports a built module of the monorepo, with a clear message when the build has not run. */
export async function importDist(path) {
  if (!existsSync(fileURLToPath(dist(path)))) {
    throw new Error(`${path} is missing: run \`npm run build\` first.`);
  }
  return import(dist(path));
}

/** The PostgreSQL server the benchmarks make their scratch databases on (a URL of one of its databases). */
export const POSTGRES_SERVER_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A fresh PostgreSQL database on the server at `serverUrl` (default: the tests' server), dropped by stop(). */
export async function scratchPostgres(serverUrl = POSTGRES_SERVER_URL) {
  const { createScratchPostgresDatabase, postgresAvailable } = await importDist('testing/dist/shared/databases.js');
  const unreachable = await postgresAvailable(serverUrl);
  if (unreachable) return { unreachable };
  return createScratchPostgresDatabase(serverUrl);
}

/**
 * The system in this process; in-memory PGlite unless `databaseUrl` is given. The load comes from one key
 * and one address, so the rate limits are off unless the environment sets them (RATE_LIMIT_…, REDIS_URL):
 * a benchmark measures what the system can do, not what the limits let through. `rateLimits: true` keeps
 * their defaults, for a run that measures the limits themselves (made-up-keys.mjs).
 */
export async function startInProcess({ databaseUrl, bootstrapApiKey, rateLimits = false }) {
  process.env.LOG_LEVEL ??= 'error';
  const { startSystem } = await importDist('embedded/dist/system.js');
  const { createLogger } = await importDist('services/shared/dist/logger.js');
  const { loadGatewayLimits } = await importDist('gateway/dist/config.js');
  const off = rateLimits ? {} : { RATE_LIMIT_PER_KEY: '0', RATE_LIMIT_PER_ADDRESS: '0', RATE_LIMIT_UNAUTH_PER_SECOND: '0' };
  const gatewayLimits = loadGatewayLimits({ ...off, ...process.env });
  // Production settings, so production needs a document-link secret (DOCUMENT_LINK_SECRET): one per run.
  const gatewayDocumentLinks = { DOCUMENT_LINK_SECRET: process.env.DOCUMENT_LINK_SECRET ?? randomBytes(32).toString('base64') };
  return startSystem({ port: 0, host: '127.0.0.1', databaseUrl, bootstrapApiKey, log: createLogger('bench'), nodeEnv: 'production', gatewayLimits, gatewayDocumentLinks });
}

/** The system in a child process: answers {gatewayUrl, grpc, stop()} once it listens. */
export async function startChildProcess({ databaseUrl, bootstrapApiKey }) {
  // The child's services trust this process's caller key: the bench's gRPC reads come from here.
  const { callerKeysForChildren } = await importDist('testing/dist/shared/caller-keys.js');
  const child = spawn(process.execPath, [fileURLToPath(new URL('./system-child.mjs', import.meta.url))], {
    env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'error', BENCH_DATABASE_URL: databaseUrl ?? '', BENCH_BOOTSTRAP_KEY: bootstrapApiKey, BENCH_CALLER_SIGNING_KEY: callerKeysForChildren().CALLER_SIGNING_KEY },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const lines = createInterface({ input: child.stdout });
  const ready = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the system process exited with ${code} before it was ready`)));
    lines.on('line', (line) => {
      if (line.startsWith('{"ready"')) resolve(JSON.parse(line).ready);
    });
  });
  return {
    ...ready,
    pid: child.pid,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

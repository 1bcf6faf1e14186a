#!/usr/bin/env node
// The multi-process topology on one machine: each service and the gateway as its own process, as they
// run on Kubernetes, against DATABASE_URL (PostgreSQL) and KAFKA_BROKERS (every child inherits this
// environment: KAFKA_*, OTEL_*, LOG_LEVEL, …). Ctrl-C / SIGTERM stops the gateway first (it stops
// accepting and drains its in-flight requests), then the services, each of which drains and stops on
// its own. Each service serves /metrics on its gRPC port + 1000 unless <NAME>_METRICS_PORT says otherwise.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
if (!process.env.DATABASE_URL) {
  console.error('start:distributed needs DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres).');
  process.exit(78);
}
const host = '127.0.0.1';
const ports = {
  identity: Number(process.env.IDENTITY_GRPC_PORT ?? 50051),
  taxonomy: Number(process.env.TAXONOMY_GRPC_PORT ?? 50052),
  portfolio: Number(process.env.PORTFOLIO_GRPC_PORT ?? 50053),
  chain: Number(process.env.CHAIN_GRPC_PORT ?? 50054),
};
const processes = [
  { name: 'identity', entry: 'services/identity/dist/index.js', env: { GRPC_PORT: String(ports.identity), GRPC_HOST: host } },
  { name: 'taxonomy', entry: 'services/taxonomy/dist/index.js', env: { GRPC_PORT: String(ports.taxonomy), GRPC_HOST: host } },
  {
    name: 'portfolio',
    entry: 'services/portfolio/dist/index.js',
    env: { GRPC_PORT: String(ports.portfolio), GRPC_HOST: host, TAXONOMY_GRPC_ADDR: `${host}:${ports.taxonomy}` },
  },
  {
    name: 'chain',
    entry: 'services/chain/dist/index.js',
    env: { GRPC_PORT: String(ports.chain), GRPC_HOST: host, CONTENT_DIR: process.env.CONTENT_DIR ?? 'data/content' },
  },
  {
    name: 'gateway',
    entry: 'gateway/dist/index.js',
    env: {
      PORT: process.env.PORT ?? '8080',
      IDENTITY_GRPC_ADDR: `${host}:${ports.identity}`,
      TAXONOMY_GRPC_ADDR: `${host}:${ports.taxonomy}`,
      PORTFOLIO_GRPC_ADDR: `${host}:${ports.portfolio}`,
      CHAIN_GRPC_ADDR: `${host}:${ports.chain}`,
    },
  },
];

// One METRICS_PORT for every child would collide: each service gets its own (or its default).
const { METRICS_PORT: _shared, ...inherited } = process.env;
for (const p of processes) {
  const own = process.env[`${p.name.toUpperCase()}_METRICS_PORT`];
  if (own !== undefined && p.name !== 'gateway') p.env.METRICS_PORT = own;
}

const children = processes.map(({ name, entry, env }) => {
  const child = spawn(process.execPath, [entry], { cwd: root, env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.serviceName = name;
  const prefix = (stream, out) => {
    let buf = '';
    stream.on('data', (chunk) => {
      buf += chunk;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        out.write(`[${name}] ${buf.slice(0, i)}\n`);
        buf = buf.slice(i + 1);
      }
    });
  };
  prefix(child.stdout, process.stdout);
  prefix(child.stderr, process.stderr);
  child.on('exit', (code, signal) => {
    console.log(`[${name}] exited (${signal ?? code})`);
    // A process that did not stop cleanly (exit code, signal) makes the whole run fail.
    if (code !== 0) stoppedCleanly = false;
    if (!stopping) stop('child exit');
    if (children.every((c) => c.exitCode !== null || c.signalCode !== null)) process.exitCode = stoppedCleanly ? 0 : 1;
  });
  return child;
});

let stopping = false;
let stoppedCleanly = true;
const running = (c) => c.exitCode === null && c.signalCode === null;
function stop(reason) {
  if (reason === 'child exit') stoppedCleanly = false;
  if (stopping) return;
  stopping = true;
  console.log(`stopping all (${reason})`);
  // The gateway first, so that the requests it drains can still reach the services; then the services.
  const gateway = children.find((c) => c.serviceName === 'gateway');
  const stopServices = () => {
    for (const c of children) if (c !== gateway && running(c)) c.kill('SIGTERM');
  };
  if (!gateway || !running(gateway)) return stopServices();
  gateway.once('exit', stopServices);
  gateway.kill('SIGTERM');
  // A gateway that does not stop within its grace period (+ margin) must not keep the services up.
  setTimeout(stopServices, Number(process.env.SHUTDOWN_GRACE_MS ?? 10_000) + 5_000).unref();
}
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));

#!/usr/bin/env node
// The multi-process topology on one machine: each service and the gateway as its own process, as they
// run on Kubernetes, against DATABASE_URL (PostgreSQL) and KAFKA_BROKERS. Ctrl-C / SIGTERM is passed to
// every child, which drains and stops on its own.
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

const children = processes.map(({ name, entry, env }) => {
  const child = spawn(process.execPath, [entry], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
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
    if (!stopping) stop('child exit');
    if (children.every((c) => c.exitCode !== null || c.signalCode !== null)) process.exitCode = stoppedCleanly ? 0 : 1;
  });
  return child;
});

let stopping = false;
let stoppedCleanly = true;
function stop(reason) {
  if (reason === 'child exit') stoppedCleanly = false;
  if (stopping) return;
  stopping = true;
  console.log(`stopping all (${reason})`);
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
}
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));

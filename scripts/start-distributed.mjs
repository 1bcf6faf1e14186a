#!/usr/bin/env node
// The multi-process topology on one machine: each service and the gateway as its own process, as they
// run on Kubernetes, against DATABASE_URL (PostgreSQL) and KAFKA_BROKERS (every child inherits this
// environment: KAFKA_*, OTEL_*, LOG_LEVEL, …). Ctrl-C / SIGTERM stops the gateway first (it stops
// accepting and drains its in-flight requests), then the services, each of which drains and stops on
// its own. Each service serves /metrics on its gRPC port + 1000 unless <NAME>_METRICS_PORT says otherwise.
// Any port may be 0 (a free one): each process starts once those it calls listen, with their real ports, and
// when all listen one line "topology listening {json}" names every port (also sent to a parent that started
// this script with an IPC channel, as { topology }). Each run makes the gateway's and portfolio's caller keys
// and hands the services their public halves (topology.mjs); CALLER_SIGNING_KEY, when set, is the gateway's.
import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ConfigError, envReader, processEnvironment } from '../services/shared/dist/config.js';
import { inheritedEnv, listeningPorts, topologyProcesses } from './topology.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// The environment, read once (services/shared/src/config.ts): what the children inherit, and this script's own settings.
const environment = processEnvironment();
let shutdownGraceMs;
try {
  const read = envReader(environment);
  if (read.optionalString('DATABASE_URL') === undefined) {
    throw new ConfigError('start:distributed needs DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres).');
  }
  // The gateway's own bound (gateway/src/config.ts): how long the gateway may drain before the services stop.
  shutdownGraceMs = read.int('SHUTDOWN_GRACE_MS', 10_000, { min: 0 });
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(err.message);
  process.exit(78);
}
const processes = topologyProcesses(environment);
const inherited = inheritedEnv(environment);

let stopping = false;
let stoppedCleanly = true;
const running = (c) => c.exitCode === null && c.signalCode === null;
const children = [];
// OpenTelemetry's instrumentations hook module loading before the service's modules load (when OTEL_*
// asks for tracing; otherwise the module does nothing): see services/shared/src/tracing/register.ts.
const tracingRegister = pathToFileURL(`${root}services/shared/dist/tracing/register.js`).href;
const launch = ({ name, entry }, env) => {
  const child = spawn(process.execPath, ['--import', tracingRegister, entry], { cwd: root, env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
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
  children.push(child);
  return child;
};

// Each process once the ones it calls listen; those that need nothing at once.
const listening = {};
const started = new Map();
for (const p of processes) {
  started.set(
    p.name,
    Promise.all(p.needs.map((n) => started.get(n))).then(async () => {
      if (stopping) throw new Error('stopping');
      listening[p.name] = await listeningPorts(launch(p, p.env(listening)), p.name);
    }),
  );
}
Promise.all(started.values()).then(
  () => {
    console.log(`topology listening ${JSON.stringify(listening)}`);
    process.send?.({ topology: listening });
  },
  // A process that exited early stopped everything already (its exit handler); one that never reported
  // its ports is as good as dead.
  (err) => {
    if (stopping) return;
    console.error(`start:distributed: ${err.message}`);
    stop('child exit');
  },
);

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
  setTimeout(stopServices, shutdownGraceMs + 5_000).unref();
}
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));

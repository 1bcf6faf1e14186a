import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { everyBackendServing } from './http-probe.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

export type ProcessName = 'identity' | 'taxonomy' | 'portfolio' | 'chain' | 'gateway';

/** The ports one process reported once it listened: { grpc, metrics } for a service, { http } for the gateway. */
export type ListeningPorts = Record<string, number>;

interface ProcessSpec {
  name: ProcessName;
  entry: string;
  needs: ProcessName[];
  env(listening: Partial<Record<ProcessName, ListeningPorts>>): Record<string, string>;
}

/** scripts/topology.mjs: the same table start-distributed.mjs runs. */
interface TopologyModule {
  topologyProcesses(env: NodeJS.ProcessEnv): ProcessSpec[];
  samePortsEnv(name: ProcessName, ports: ListeningPorts): Record<string, string>;
  inheritedEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
  listeningPorts(child: ChildProcess, name: string, timeoutMs?: number): Promise<ListeningPorts>;
}
const topology = (await import(pathToFileURL(join(root, 'scripts/topology.mjs')).href)) as TopologyModule;

/**
 * The topology's processes started one by one by the test itself (start-distributed.mjs stops everything
 * when one child dies; here a test kills one and starts it again while the others keep running).
 */
export interface ProcessSet {
  /** The gateway's base URL. */
  url: string;
  /** Everything the processes printed so far, each line prefixed with [name]. */
  output(): string;
  pid(name: ProcessName): number | undefined;
  /** The ports `name` listens on, as it reported them (the same after a restart). */
  ports(name: ProcessName): ListeningPorts;
  /** Exits seen so far, in order: what a test asserts when nothing may have restarted on its own. */
  exits(): { name: ProcessName; code: number | null; signal: NodeJS.Signals | null }[];
  /** Sends `signal` (default SIGKILL) and waits until the process is gone. */
  kill(name: ProcessName, signal?: NodeJS.Signals): Promise<void>;
  /**
   * Starts the process again with the same environment (database, …) on the ports it had, since the others
   * keep its address; resolves once it listens.
   */
  restart(name: ProcessName): Promise<void>;
  /** SIGTERM to the gateway, then to the services; resolves with the exits of this stop. */
  stop(): Promise<{ name: ProcessName; code: number | null; signal: NodeJS.Signals | null }[]>;
}

/**
 * Starts `names` in the topology's order (each once those it calls listen, given their real ports; any port
 * in `env` may be 0, see topologyEnv) and waits until the gateway's /readyz is 200. Backends left out are
 * not configured in the gateway.
 */
export async function startProcesses(env: NodeJS.ProcessEnv, names: ProcessName[], readyTimeoutMs = 45_000): Promise<ProcessSet> {
  const specs = topology.topologyProcesses(env).filter((p) => names.includes(p.name));
  const inherited = topology.inheritedEnv(env);
  const children = new Map<ProcessName, ChildProcess>();
  const listening: Partial<Record<ProcessName, ListeningPorts>> = {};
  /** The environment each process was started with, for a restart. */
  const envs = new Map<ProcessName, Record<string, string>>();
  const exits: { name: ProcessName; code: number | null; signal: NodeJS.Signals | null }[] = [];
  let output = '';
  let stopping = false;

  const launch = (spec: ProcessSpec, own: Record<string, string>) => {
    const child = spawn(process.execPath, [spec.entry], { cwd: root, env: { ...inherited, ...own }, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    for (const stream of [child.stdout!, child.stderr!]) {
      let buf = '';
      stream.setEncoding('utf8').on('data', (chunk: string) => {
        buf += chunk;
        for (let i; (i = buf.indexOf('\n')) >= 0; buf = buf.slice(i + 1)) output += `[${spec.name}] ${buf.slice(0, i)}\n`;
      });
    }
    child.once('exit', (code, signal) => {
      exits.push({ name: spec.name, code, signal });
      output += `[${spec.name}] exited (${signal ?? code})\n`;
    });
    children.set(spec.name, child);
    return topology.listeningPorts(child, spec.name, readyTimeoutMs).then((ports) => (listening[spec.name] = ports));
  };
  const running = (c: ChildProcess | undefined): c is ChildProcess => !!c && c.exitCode === null && c.signalCode === null;
  const gone = (c: ChildProcess) => new Promise<void>((resolve) => (running(c) ? c.once('exit', () => resolve()) : resolve()));

  const set: ProcessSet = {
    url: '',
    output: () => output,
    pid: (name) => children.get(name)?.pid,
    ports(name) {
      const ports = listening[name];
      if (!ports) throw new Error(`${name} did not report its ports`);
      return ports;
    },
    exits: () => [...exits],
    async kill(name, signal = 'SIGKILL') {
      const child = children.get(name);
      if (!running(child)) return;
      child.kill(signal);
      await gone(child);
    },
    async restart(name) {
      const child = children.get(name);
      if (running(child)) throw new Error(`${name} is still running`);
      // Its old ports: its callers know only this address (as a restarted pod keeps its Service's). The
      // one port here that is released and bound again; only a concurrent bind to port 0 that the kernel
      // gives exactly this port in between could take it.
      await launch(specs.find((s) => s.name === name)!, { ...envs.get(name), ...topology.samePortsEnv(name, set.ports(name)) });
    },
    async stop() {
      stopping = true;
      const before = exits.length;
      const gw = children.get('gateway');
      if (running(gw)) {
        gw.kill('SIGTERM');
        await gone(gw);
      }
      const rest = [...children.values()].filter(running);
      for (const c of rest) c.kill('SIGTERM');
      await Promise.all(rest.map(gone));
      return exits.slice(before);
    },
  };

  // A test runner that dies (a timeout, Ctrl-C) must not leave services running on its ports.
  process.once('exit', () => [...children.values()].filter(running).forEach((c) => c.kill('SIGKILL')));
  const started = new Map<ProcessName, Promise<unknown>>();
  for (const spec of specs) {
    const needs = spec.needs.filter((n) => names.includes(n));
    started.set(
      spec.name,
      Promise.all(needs.map((n) => started.get(n))).then(async () => {
        if (stopping) throw new Error(`${spec.name} not started: stopping`);
        const own = await outsideEphemeralRange(spec.env(listening));
        envs.set(spec.name, own);
        return launch(spec, own);
      }),
    );
  }
  try {
    await Promise.all(started.values());
  } catch (err) {
    await set.stop();
    throw new Error(`${(err as Error).message}:\n${output.slice(-4000)}`);
  }
  if (listening.gateway) set.url = `http://127.0.0.1:${listening.gateway['http']}`;
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    const dead = exits.find((e) => e.code !== 0 || e.signal);
    if (dead) {
      await set.stop();
      throw new Error(`${dead.name} exited with ${dead.signal ?? dead.code} while starting:\n${output.slice(-4000)}`);
    }
    try {
      if (await everyBackendServing(set.url)) return set;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await set.stop();
      throw new Error(`not ready within ${readyTimeoutMs} ms:\n${output.slice(-4000)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Ports below the kernel's ephemeral range (32768–60999 here) for the ports a process would pick itself (0):
 * a process restarted on its old ports (restart()) must find them free, and a port of the ephemeral range,
 * once released, is soon the local port of some outgoing connection (to PostgreSQL, between services), after
 * which binding it fails with EADDRINUSE. No connect() takes a port below that range. A gRPC port leaves
 * room for its default metrics port, 1000 above it, in the same band.
 */
async function outsideEphemeralRange(own: Record<string, string>): Promise<Record<string, string>> {
  const out = { ...own };
  for (const key of ['GRPC_PORT', 'PORT']) if (out[key] === '0') out[key] = String(await freePort(20_000, 30_000));
  // Unset, a service on port 0 picks its metrics port itself (METRICS_PORT=0 would turn metrics off).
  if (own['GRPC_PORT'] === '0' && own['METRICS_PORT'] === undefined) out['METRICS_PORT'] = String(await freePort(21_000, 31_000));
  return out;
}

/** A port in [from, to) that nothing listens on now: a random one, probed by binding it. */
async function freePort(from: number, to: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = from + Math.floor(Math.random() * (to - from));
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer().once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port in ${from}–${to}`);
}

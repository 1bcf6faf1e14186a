import { execFile, type ChildProcess } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { everyBackendServing } from './http-probe.js';
import { createNetwork, type Host, type Network } from './netns.js';
import type { ListeningPorts, ProcessName } from './processes.js';
import { NODE_SIGNER_KEY } from './rpc-node.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));
const GRPC_PORT = 50051;
const HTTP_PORT = 8080;
const PG_PORT = 5432;
const NODE_PORT = 8545;
const NODE_CHAIN_ID = 31337;

interface TopologyModule {
  topologyProcesses(env: NodeJS.ProcessEnv): { name: ProcessName; entry: string; env(listening: Record<string, ListeningPorts>): Record<string, string> }[];
  inheritedEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
  listeningPorts(child: ChildProcess, name: string, timeoutMs?: number): Promise<ListeningPorts>;
}
const topology = (await import(pathToFileURL(join(root, 'scripts/topology.mjs')).href)) as TopologyModule;

export type ServiceHost = Exclude<ProcessName, 'taxonomy'>;

/** The distributed topology, each part on a test host of its own (netns.ts). */
export interface FaultTopology {
  net: Network;
  /** postgres, kafka, evm (the JSON-RPC node), identity, portfolio and portfolio2 (its two replicas), chain, gateway. */
  host(name: 'postgres' | 'kafka' | 'evm' | 'portfolio2' | ServiceHost): Host;
  /** The gateway's URL as the test client reaches it (a door outside the fault domain). */
  url: string;
  output(): string;
  /** Runs `query` with psql on the PostgreSQL host (an observer's read, beside the services) and returns its rows, unaligned. */
  sql(query: string): Promise<string>;
  /**
   * Every message on chain.job-events from the beginning ({ jobId, status }), read by a consumer of its own
   * on the Kafka host (kafkajs, as the services) until none came for 3 s.
   */
  jobEvents(): Promise<{ jobId: string; status: string }[]>;
  /** Exits of processes so far: a fault must not crash any. */
  exits(): { name: string; code: number | null; signal: NodeJS.Signals | null }[];
  /** SIGTERM to the gateway, then the services, then PostgreSQL; removes the hosts. Idempotent. */
  stop(): Promise<{ name: string; code: number | null; signal: NodeJS.Signals | null }[]>;
}

/**
 * Starts PostgreSQL (a private server of its own, initdb'd for this run: the machine's server cannot be moved
 * into a namespace), Kafka's mock cluster, a JSON-RPC node (the chain service's sepolia), and identity,
 * portfolio (two replicas, behind one name on the gateway's host), chain and the gateway (scripts/topology.mjs:
 * their environment and caller keys), each in its own namespace, reaching one another by the hosts'
 * addresses. `extra` is added to every process's environment.
 */
export async function startFaultTopology(extra: Record<string, string>): Promise<FaultTopology> {
  const net = await createNetwork();
  const hosts = new Map<string, Host>();
  const children: { name: string; child: ChildProcess }[] = [];
  const exits: { name: string; code: number | null; signal: NodeJS.Signals | null }[] = [];
  let output = '';
  const dirs: string[] = [];
  const track = (name: string, child: ChildProcess) => {
    for (const stream of [child.stdout, child.stderr]) {
      let buf = '';
      stream?.setEncoding('utf8').on('data', (chunk: string) => {
        buf += chunk;
        for (let i; (i = buf.indexOf('\n')) >= 0; buf = buf.slice(i + 1)) output = (output + `[${name}] ${buf.slice(0, i)}\n`).slice(-200_000);
      });
    }
    child.once('exit', (code, signal) => exits.push({ name, code, signal }));
    children.push({ name, child });
    return child;
  };
  const running = (c: ChildProcess) => c.exitCode === null && c.signalCode === null;
  const gone = (c: ChildProcess) => new Promise<void>((r) => (running(c) ? c.once('exit', () => r()) : r()));
  let stopped: ReturnType<FaultTopology['stop']> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      const before = exits.length;
      for (const group of [['gateway'], ['identity', 'portfolio', 'portfolio2', 'chain'], ['postgres', 'kafka', 'evm']]) {
        const mine = children.filter((c) => group.includes(c.name) && running(c.child));
        for (const c of mine) c.child.kill('SIGTERM');
        await Promise.all(mine.map((c) => gone(c.child)));
      }
      await net.remove();
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
      return exits.slice(before);
    })());

  try {
    for (const name of ['postgres', 'kafka', 'evm', 'identity', 'portfolio', 'portfolio2', 'chain', 'gateway']) hosts.set(name, await net.addHost(name));
    const pg = hosts.get('postgres')!;
    const pgDir = mkdtempSync(join(tmpdir(), `${net.prefix}-pg-`));
    const contentDir = mkdtempSync(join(tmpdir(), `${net.prefix}-content-`));
    dirs.push(pgDir, contentDir);
    // The ports each host serves to the others (the latency proxies' places where the kernel has no netem).
    await Promise.all([
      net.serve(pg, [PG_PORT]),
      net.serve(hosts.get('evm')!, [NODE_PORT]),
      ...(['identity', 'portfolio', 'portfolio2', 'chain'] as const).map((n) => net.serve(hosts.get(n)!, [GRPC_PORT])),
    ]);
    const kafka = hosts.get('kafka')!;
    const [, brokers, node] = await Promise.all([
      startPostgres(net, pg, pgDir, track),
      startKafka(net, kafka, track).then(async (b) => (await net.serve(kafka, b.map((a) => Number(a.split(':').pop()))), b)),
      startNode(net, hosts.get('evm')!, track),
    ]);
    // The chain service's sepolia is the node on its own host (no embedded EVM): a link that can be cut.
    const sepolia = { name: 'sepolia', chainId: NODE_CHAIN_ID, rpcUrl: node.url, confirmations: 1, pollIntervalMs: 200, rpcTimeoutMs: 1_500, contracts: node.contracts };

    const env = {
      ...process.env,
      DATABASE_URL: `postgres://postgres@${pg.ip}:${PG_PORT}/postgres`,
      CONTENT_DIR: contentDir,
      KAFKA_BROKERS: brokers.join(','),
      // librdkafka's mock: quick rebalances and fetches (testing/src/shared/kafka-mock.ts).
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      KAFKA_HEARTBEAT_INTERVAL_MS: '500',
      KAFKA_MAX_WAIT_MS: '100',
      CHAIN_NETWORKS: JSON.stringify([sepolia]),
      CHAIN_SIGNER_KEY_SEPOLIA: NODE_SIGNER_KEY,
      ...extra,
    };
    const inherited = topology.inheritedEnv(env);
    const listening = Object.fromEntries(['identity', 'portfolio', 'chain', 'taxonomy'].map((n) => [n, { grpc: GRPC_PORT }]));
    const specs = topology.topologyProcesses(env);
    const launch = async (name: ServiceHost, on: string = name) => {
      const spec = specs.find((s) => s.name === name)!;
      const own: Record<string, string> = { ...spec.env(listening), GRPC_HOST: '0.0.0.0', GRPC_PORT: String(GRPC_PORT), METRICS_PORT: String(GRPC_PORT + 1000) };
      if (name === 'gateway') {
        Object.assign(own, { PORT: String(HTTP_PORT) });
        for (const b of ['identity', 'chain']) own[`${b.toUpperCase()}_GRPC_ADDR`] = `${hosts.get(b)!.ip}:${GRPC_PORT}`;
        // Portfolio scales: one name with both replicas' addresses, as a headless Service resolves, which
        // the gateway's round-robin channel balances over.
        own['PORTFOLIO_GRPC_ADDR'] = `portfolio.faults:${GRPC_PORT}`;
        delete own['TAXONOMY_GRPC_ADDR'];
      }
      const child = track(on, net.spawn(hosts.get(on)!, process.execPath, [spec.entry], { cwd: root, env: { ...inherited, ...own }, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] }));
      await topology.listeningPorts(child, on, 60_000);
    };
    net.names(hosts.get('gateway')!, { 'portfolio.faults': [hosts.get('portfolio')!.ip, hosts.get('portfolio2')!.ip] });
    // The second replica once the first migrated (they would take turns on the migration lock anyway).
    await Promise.all([launch('identity'), launch('portfolio').then(() => launch('portfolio', 'portfolio2')), launch('chain')]);
    await launch('gateway');
    const url = `http://127.0.0.1:${await net.door(hosts.get('gateway')!, HTTP_PORT)}`;
    const deadline = Date.now() + 45_000;
    while (!(await everyBackendServing(url).catch(() => false))) {
      if (Date.now() > deadline) throw new Error('the topology was not ready within 45 s');
      await new Promise((r) => setTimeout(r, 250));
    }
    return {
      net,
      url,
      host: (name) => hosts.get(name)!,
      output: () => output,
      sql: (query) => net.exec(pg, join(postgresBin(), 'psql'), ['-h', pg.ip, '-p', String(PG_PORT), '-U', 'postgres', '-At', '-c', query]),
      exits: () => [...exits],
      jobEvents: () => readJobEvents(net, hosts.get('kafka')!, brokers),
      stop,
    };
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message}\n${output.slice(-4000)}`);
  }
}

/** A JSON-RPC node (Hardhat's EVM, the contracts deployed: testing/src/chain/rpc-node-main.ts) on `host`. */
async function startNode(net: Network, host: Host, track: (name: string, child: ChildProcess) => ChildProcess): Promise<{ url: string; contracts: unknown }> {
  const env = { ...process.env, RPC_NODE_CHAIN_ID: String(NODE_CHAIN_ID), RPC_NODE_SIGNER_KEY: NODE_SIGNER_KEY, RPC_NODE_HOST: host.ip, RPC_NODE_PORT: String(NODE_PORT) };
  const child = track('evm', net.spawn(host, process.execPath, [join(root, 'testing/dist/chain/rpc-node-main.js')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] }));
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`the node did not serve within 60 s: ${seen.slice(-2000)}`)), 60_000);
    child.stdout!.on('data', (c: Buffer) => {
      seen += c.toString();
      const line = seen.split('\n').find((l) => l.startsWith('{'));
      if (line && seen.includes('\n')) {
        clearTimeout(timer);
        resolve(JSON.parse(line) as { url: string; contracts: unknown });
      }
    });
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`the node exited (${code}): ${seen.slice(-2000)}`))));
  });
}

/**
 * librdkafka's mock cluster and its wire proxy (testing/src/shared/kafka-mock.ts) in a process of their own on
 * `host`, the proxy listening on and advertising the host's address; resolves with the brokers.
 */
async function startKafka(net: Network, host: Host, track: (name: string, child: ChildProcess) => ChildProcess): Promise<string[]> {
  const mock = pathToFileURL(join(root, 'testing/dist/shared/kafka-mock.js')).href;
  const script = [
    `const { startKafkaMock } = await import(${JSON.stringify(mock)});`,
    `const kafka = await startKafkaMock({ partitions: 3, host: ${JSON.stringify(host.ip)} });`,
    'process.send({ brokers: kafka.brokers });',
    'const stop = () => kafka.stop().then(() => process.exit(0), () => process.exit(1));',
    "process.on('SIGTERM', stop);",
    "process.on('disconnect', stop);",
  ].join('\n');
  const child = track('kafka', net.spawn(host, process.execPath, ['--input-type=module', '-e', script], { cwd: root, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] }));
  return new Promise<string[]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the Kafka mock did not start within 30 s')), 30_000);
    child.once('message', (m: { brokers: string[] }) => (clearTimeout(timer), resolve(m.brokers)));
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`the Kafka mock exited (${code})`))));
  });
}

async function readJobEvents(net: Network, host: Host, brokers: string[]): Promise<{ jobId: string; status: string }[]> {
  const script = [
    "const { Kafka, logLevel } = await import('kafkajs');",
    `const kafka = new Kafka({ clientId: 'fault-checker', brokers: ${JSON.stringify(brokers)}, logLevel: logLevel.NOTHING });`,
    `const consumer = kafka.consumer({ groupId: 'fault-checker-' + Date.now(), sessionTimeout: 6000, heartbeatInterval: 500, maxWaitTimeInMs: 100 });`,
    'const seen = []; let last = Date.now();',
    "await consumer.connect(); await consumer.subscribe({ topic: 'chain.job-events', fromBeginning: true });",
    'await consumer.run({ eachMessage: async ({ message }) => { const e = JSON.parse(message.value.toString()); seen.push({ jobId: e.jobId, status: e.status }); last = Date.now(); } });',
    'const started = Date.now();',
    'while (Date.now() - last < 3000 || Date.now() - started < 8000) await new Promise((r) => setTimeout(r, 200));',
    'await consumer.disconnect();',
    'process.stdout.write(JSON.stringify(seen));',
  ].join('\n');
  const child = net.spawn(host, process.execPath, ['--input-type=module', '-e', script], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`the job-events reader exited (${code}): ${err.slice(-2000)}`);
  return JSON.parse(out) as { jobId: string; status: string }[];
}

/** initdb (trust, for the run's subnet only) and the server, as the postgres user, listening on the host's address. */
async function startPostgres(net: Network, host: Host, dir: string, track: (name: string, child: ChildProcess) => ChildProcess): Promise<void> {
  const bin = postgresBin();
  const data = join(dir, 'data');
  chownSync(dir, ...postgresIds());
  await run('runuser', ['-u', 'postgres', '--', join(bin, 'initdb'), '-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8'], { cwd: dir });
  appendFileSync(join(data, 'pg_hba.conf'), `host all all ${host.ip.replace(/\.\d+$/, '.0')}/24 trust\n`);
  const child = track(
    'postgres',
    net.spawn(
      host,
      'runuser',
      ['-u', 'postgres', '--', join(bin, 'postgres'), '-D', data, '-p', String(PG_PORT), '-c', `listen_addresses=${host.ip}`, '-c', `unix_socket_directories=${dir}`, '-c', 'fsync=off', '-c', 'max_connections=200'],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
    ),
  );
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`PostgreSQL did not start within 30 s: ${seen.slice(-2000)}`)), 30_000);
    const onData = (c: Buffer) => {
      seen += c.toString();
      if (seen.includes('ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stderr!.on('data', onData);
    child.stdout!.on('data', onData);
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`PostgreSQL exited (${code}): ${seen.slice(-2000)}`))));
  });
}

/** Why this machine cannot run a PostgreSQL server of the test's own (no server binaries, no postgres user), or false. */
export function postgresServerSkipReason(): string | false {
  let reason: string | false = false;
  try {
    postgresBin();
    postgresIds();
  } catch (err) {
    reason = (err as Error).message;
  }
  if (reason && process.env['CI']) throw new Error(`${reason} (CI must run the fault tests)`);
  return reason;
}

/** The newest installed server's bin directory (Debian: /usr/lib/postgresql/<major>/bin). */
export function postgresBin(): string {
  const majors = (existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql') : []).filter((d) => /^\d+$/.test(d)).sort((a, b) => Number(b) - Number(a));
  if (!majors.length) throw new Error('no PostgreSQL server under /usr/lib/postgresql');
  return `/usr/lib/postgresql/${majors[0]}/bin`;
}

function postgresIds(): [number, number] {
  const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('no postgres user (Debian\'s postgresql package makes it)');
  const [, , uid, gid] = line.split(':');
  return [Number(uid), Number(gid)];
}

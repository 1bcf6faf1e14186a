import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { everyBackendServing } from './http-probe.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

export type ServiceName = 'identity' | 'taxonomy' | 'portfolio' | 'chain';

export interface TopologyPorts {
  gateway: number;
  identity: number;
  taxonomy: number;
  portfolio: number;
  chain: number;
  /** /metrics of each service process. */
  metrics: Record<ServiceName, number>;
}

/**
 * The ports to start a topology on: every one 0, a free one the process binds and reports (Topology.ports,
 * ProcessSet.ports). A port picked here, released and bound later by a child could meanwhile be taken by a
 * test file running beside this one.
 */
export async function topologyPorts(): Promise<TopologyPorts> {
  return { gateway: 0, identity: 0, taxonomy: 0, portfolio: 0, chain: 0, metrics: { identity: 0, taxonomy: 0, portfolio: 0, chain: 0 } };
}

/** What scripts/start-distributed.mjs reports once every process listens: each one's ports, as it reported them. */
export type ListeningTopology = { gateway: { http: number } } & Record<ServiceName, { grpc: number; metrics?: number }>;

/** The ports a topology's processes listen on, from what they reported. */
export function portsOf(listening: ListeningTopology): TopologyPorts {
  const services = ['identity', 'taxonomy', 'portfolio', 'chain'] as const;
  return {
    gateway: listening.gateway.http,
    ...(Object.fromEntries(services.map((s) => [s, listening[s].grpc])) as Record<ServiceName, number>),
    metrics: Object.fromEntries(services.map((s) => [s, listening[s].metrics ?? 0])) as Record<ServiceName, number>,
  };
}

/** `scripts/start-distributed.mjs` as a child: five processes behind one parent. */
export interface Topology {
  url: string;
  /** The ports every process bound. */
  ports: TopologyPorts;
  child: ChildProcess;
  /** Everything the processes printed so far (prefixed [name] per line). */
  output(): string;
  /** Resolves with the parent's exit code once every process exited. */
  exited: Promise<number | null>;
  /** SIGTERM to the parent (which stops the gateway, then the services) and waits for the exit. */
  stop(): Promise<number | null>;
}

/**
 * The environment a topology's processes run with: ports, database, content store, the caller's extras.
 * A metrics port of 0 is left unset: METRICS_PORT=0 turns metrics off, while a service on a free gRPC port
 * serves them on a free port of its own by default.
 */
export function topologyEnv(ports: TopologyPorts, extra: Record<string, string>): NodeJS.ProcessEnv {
  const metrics = (name: ServiceName) => (ports.metrics[name] ? { [`${name.toUpperCase()}_METRICS_PORT`]: String(ports.metrics[name]) } : {});
  return {
    ...process.env,
    PORT: String(ports.gateway),
    IDENTITY_GRPC_PORT: String(ports.identity),
    TAXONOMY_GRPC_PORT: String(ports.taxonomy),
    PORTFOLIO_GRPC_PORT: String(ports.portfolio),
    CHAIN_GRPC_PORT: String(ports.chain),
    ...metrics('identity'),
    ...metrics('taxonomy'),
    ...metrics('portfolio'),
    ...metrics('chain'),
    ...extra,
  };
}

/**
 * Starts scripts/start-distributed.mjs with `env`, learns the ports its processes bound (it reports them
 * over IPC once all listen) and polls the gateway's /readyz until every backend serves.
 */
export async function startTopology(env: NodeJS.ProcessEnv, readyTimeoutMs = 45_000): Promise<Topology> {
  const child = spawn(process.execPath, [join(root, 'scripts/start-distributed.mjs')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (output += c));
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (output += c));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return exited;
  };
  const deadline = Date.now() + readyTimeoutMs;
  const listening = await new Promise<ListeningTopology>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the topology did not listen within ${readyTimeoutMs} ms`)), readyTimeoutMs);
    child.on('message', (m: { topology?: ListeningTopology }) => m.topology && (clearTimeout(timer), resolve(m.topology)));
    void exited.then((code) => (clearTimeout(timer), reject(new Error(`start-distributed exited with ${code}`))));
  }).catch(async (err: Error) => {
    await stop();
    throw new Error(`${err.message}:\n${output}`);
  });
  const ports = portsOf(listening);
  const url = `http://127.0.0.1:${ports.gateway}`;
  const topology: Topology = { url, ports, child, output: () => output, exited, stop };
  for (;;) {
    if (child.exitCode !== null) throw new Error(`start-distributed exited with ${child.exitCode}:\n${output}`);
    try {
      if (await everyBackendServing(url)) return topology;
    } catch {
      // not answering yet
    }
    if (Date.now() > deadline) {
      await topology.stop();
      throw new Error(`the topology was not ready within ${readyTimeoutMs} ms:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A span as an OTLP/HTTP JSON export carries it, with the exporting process's service.name. */
export interface CollectedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  /** OTLP: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
}

export interface OtlpCollector {
  endpoint: string;
  spans: CollectedSpan[];
  close(): Promise<void>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
type OtlpAttributes = { key: string; value: OtlpValue }[] | undefined;

const attrs = (list: OtlpAttributes): Record<string, string | number | boolean> =>
  Object.fromEntries(
    (list ?? []).map(({ key, value }) => [key, value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : undefined) ?? value.doubleValue ?? value.boolValue ?? '']),
  );

/** A minimal OpenTelemetry collector: accepts OTLP/HTTP JSON trace exports and keeps the spans. */
export async function startOtlpCollector(): Promise<OtlpCollector> {
  const spans: CollectedSpan[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (c: string) => (body += c));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const data = JSON.parse(body) as {
          resourceSpans?: { resource?: { attributes?: OtlpAttributes }; scopeSpans?: { spans?: any[] }[] }[];
        };
        for (const rs of data.resourceSpans ?? []) {
          const service = String(attrs(rs.resource?.attributes)['service.name'] ?? '');
          for (const ss of rs.scopeSpans ?? []) {
            for (const s of ss.spans ?? []) {
              spans.push({
                service,
                traceId: s.traceId,
                spanId: s.spanId,
                parentSpanId: s.parentSpanId || undefined,
                name: s.name,
                kind: s.kind,
                attributes: attrs(s.attributes),
              });
            }
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

import { execFile, spawn, type ChildProcessByStdio } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { startKafkaWireProxy, type KafkaWireProxy } from './kafka-wire-proxy.js';

/**
 * A real Kafka wire-protocol broker for tests (ARCHITECTURE §5): librdkafka's mock cluster, started by
 * the small launcher in infra/kafka-mock. No JVM, no Docker; CI installs librdkafka-dev.
 *
 * Clients reach it through a wire proxy (kafka-wire-proxy.ts, on unless `proxy: false`) that corrects
 * where the mock answers differently from Kafka: it advertises controller id 0, which is no broker, so
 * kafkajs' idempotent producer (production's setting) cannot start straight against it; and it refuses a
 * follower's SyncGroup that arrives after its leader's, so a slow member of a consumer group (a replica
 * still starting) crashes and rejoins, again and again.
 *
 * Other known limits of the librdkafka 2.0.2 mock, as seen from kafkajs:
 * - no CreateTopics: topics must be named here (the project's topics always exist);
 * - it checks producer ids and sequences only for transactional producers: a retried idempotent send
 *   is appended again (see the idempotence test in event-bus.contract.test.ts);
 * - an empty fetch always waits its full maxWait, and a group's first join waits ~3 s and each later
 *   rebalance ~(session timeout - 1 s): keep consumer timings short in tests.
 */
export interface KafkaMock {
  /** What clients connect to: the brokers' proxies, or the brokers with `proxy: false`. */
  brokers: string[];
  /** The wire proxy in front of the brokers, unless `proxy: false`. */
  proxy?: KafkaWireProxy;
  /**
   * Takes a broker down (fault tests): its connections are closed and new ones refused, until brokerUp.
   * Broker ids start at 1 (the first of `brokers`); -1, the default, is every broker. The cluster keeps
   * its topics, messages, committed offsets and groups, as a restarted Kafka broker keeps its log.
   */
  brokerDown(brokerId?: number): Promise<void>;
  /** Lets a broker taken down accept connections again (-1, the default: every broker). */
  brokerUp(brokerId?: number): Promise<void>;
  /** Stops the cluster; idempotent. The launcher also exits by itself if this process dies. */
  stop(): Promise<void>;
}

export interface KafkaMockOptions {
  /** Partitions per topic (default 3, like production's topics). */
  partitions?: number;
  /** Brokers in the cluster (default 1). */
  brokers?: number;
  /** Topics to create besides chain.jobs and chain.job-events; "name" or "name:partitions". */
  topics?: string[];
  startTimeoutMs?: number;
  /**
   * Serves the brokers through the wire proxy (kafka-wire-proxy.ts; default true). With it, a broker
   * taken down shows as a connection the proxy accepts and closes at once; `false` connects clients
   * straight to the mock, where a broker taken down refuses connections.
   */
  proxy?: boolean;
  /** The address the wire proxy listens on and advertises (default 127.0.0.1; needs the proxy). */
  host?: string;
}

export class KafkaMockUnavailableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'KafkaMockUnavailableError';
  }
}

type MockProcess = ChildProcessByStdio<Writable, Readable, Readable>;

export async function startKafkaMock(options: KafkaMockOptions = {}): Promise<KafkaMock> {
  const bin = await buildKafkaMock();
  const args = ['--partitions', String(options.partitions ?? 3), '--brokers', String(options.brokers ?? 1)];
  const child: MockProcess = spawn(bin, [...args, ...(options.topics ?? [])], { stdio: ['pipe', 'pipe', 'pipe'] });
  // Ending stdin of a launcher that already exited raises EPIPE; its exit is handled elsewhere.
  child.stdin.on('error', () => undefined);
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  let brokers: string[];
  try {
    brokers = await readBootstrap(child, options.startTimeoutMs ?? 10_000, () => stderr);
  } catch (err) {
    child.kill('SIGKILL');
    await exited;
    throw err;
  }

  let proxy: KafkaWireProxy | undefined;
  if (options.proxy ?? true) {
    try {
      proxy = await startKafkaWireProxy(brokers, options.host);
    } catch (err) {
      child.kill('SIGKILL');
      await exited;
      throw err;
    }
  }

  // Nothing here may keep the test process alive; if it exits without stop(), stdin closes and the
  // launcher exits on its own.
  child.unref();
  for (const stream of [child.stdin, child.stdout, child.stderr]) (stream as unknown as { unref?: () => void }).unref?.();

  const command = commandChannel(child, () => stderr);
  let stopping: Promise<void> | undefined;
  return {
    brokers: proxy?.brokers ?? brokers,
    ...(proxy ? { proxy } : {}),
    brokerDown: (brokerId = -1) => command(`down ${brokerId}`),
    brokerUp: (brokerId = -1) => command(`up ${brokerId}`),
    stop: () => {
      stopping ??= (async () => {
        // The proxy's protocol errors are reported after the broker is gone.
        const proxyStopped = proxy?.stop() ?? Promise.resolve();
        proxyStopped.catch(() => undefined);
        await stopBroker();
        await proxyStopped;
      })();
      return stopping;
    },
  };

  async function stopBroker(): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.ref();
    child.stdin.end();
    const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.kill('SIGTERM');
    await exited;
    clearTimeout(kill);
    child.stdout.destroy();
    child.stderr.destroy();
  }
}

/**
 * Sends launcher commands (one line each on stdin) and awaits their answers (one line each on stdout,
 * in order): "OK <command>" resolves, "ERR <command> <reason>" rejects.
 */
function commandChannel(child: MockProcess, stderr: () => string): (line: string) => Promise<void> {
  const pending: { line: string; resolve: () => void; reject: (err: Error) => void; timer: NodeJS.Timeout }[] = [];
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
    for (let nl = out.indexOf('\n'); nl >= 0; nl = out.indexOf('\n')) {
      const answer = out.slice(0, nl).trim();
      out = out.slice(nl + 1);
      const next = pending.shift();
      if (!next) continue;
      clearTimeout(next.timer);
      if (answer.startsWith('OK ')) next.resolve();
      else next.reject(new Error(`Kafka mock refused "${next.line}": ${answer}`));
    }
  });
  child.once('exit', (code) => {
    for (const p of pending.splice(0)) {
      clearTimeout(p.timer);
      p.reject(new KafkaMockUnavailableError(`Kafka mock broker exited (code ${code}) before answering "${p.line}": ${stderr().trim()}`));
    }
  });
  return (line) =>
    new Promise<void>((resolve, reject) => {
      if (child.exitCode !== null || child.signalCode !== null) {
        reject(new KafkaMockUnavailableError(`Kafka mock broker is not running (cannot send "${line}")`));
        return;
      }
      // A late answer still belongs to this command (answers come in order): the entry stays queued.
      const entry = { line, resolve, reject, timer: setTimeout(() => {
        entry.resolve = entry.reject = () => undefined;
        reject(new Error(`Kafka mock did not answer "${line}" within 5000 ms`));
      }, 5_000) };
      pending.push(entry);
      child.stdin.write(`${line}\n`);
    });
}

/** Builds infra/kafka-mock/kafka-mock when it is missing or older than its source; returns its path. */
export async function buildKafkaMock(): Promise<string> {
  const dir = join(findRepoRoot(), 'infra', 'kafka-mock');
  const bin = join(dir, 'kafka-mock');
  if (existsSync(bin) && statSync(bin).mtimeMs >= statSync(join(dir, 'kafka-mock.c')).mtimeMs) return bin;
  await new Promise<void>((resolve, reject) => {
    execFile('make', ['-C', dir], { timeout: 120_000 }, (err, _stdout, stderr) => {
      if (!err) return resolve();
      reject(
        new KafkaMockUnavailableError(
          `Cannot build the Kafka mock broker (make -C ${dir}): ${String(stderr).trim() || err.message}\n` +
            'It needs a C compiler, make, pkg-config and librdkafka-dev (apt-get install build-essential pkg-config librdkafka-dev).',
          { cause: err },
        ),
      );
    });
  });
  return bin;
}

/** The repository root: the nearest ancestor of this file that holds infra/kafka-mock. */
export function findRepoRoot(from: string = fileURLToPath(import.meta.url)): string {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'infra', 'kafka-mock', 'Makefile'))) return dir;
    if (dirname(dir) === dir) throw new KafkaMockUnavailableError(`No infra/kafka-mock above ${from}`);
  }
}

function readBootstrap(child: MockProcess, timeoutMs: number, stderr: () => string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    let out = '';
    const finish = (err: Error | null, brokers?: string[]) => {
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.off('exit', onExit);
      child.off('error', onError);
      if (err) reject(err);
      else resolve(brokers!);
    };
    const onData = (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = /^BOOTSTRAP (\S+)$/m.exec(out);
      if (match) finish(null, match[1]!.split(','));
    };
    const onExit = (code: number | null) =>
      finish(new KafkaMockUnavailableError(`Kafka mock broker exited (code ${code}) before it was ready: ${stderr().trim()}`));
    const onError = (err: Error) => finish(new KafkaMockUnavailableError(`Cannot start the Kafka mock broker: ${err.message}`, { cause: err }));
    const timer = setTimeout(
      () => finish(new KafkaMockUnavailableError(`Kafka mock broker printed no BOOTSTRAP line within ${timeoutMs} ms: ${stderr().trim()}`)),
      timeoutMs,
    );
    child.stdout.on('data', onData);
    child.once('exit', onExit);
    child.once('error', onError);
  });
}

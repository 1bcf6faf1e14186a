import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { callerKeysForChildren } from '@green-impact/testing/shared/caller-keys';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** A chain service process of its own (services/chain/dist/index.js), its gRPC port picked by the OS. */
export interface ChainReplica {
  /** host:port its gRPC server bound. */
  address: string;
  /** The worker id it holds leases under (its 'chain worker started' log line). */
  workerId: string;
  pid: number;
  output(): string;
  /** SIGKILL: no shutdown hook runs, leases stay until they expire. */
  kill(): Promise<void>;
  /** SIGTERM and the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts a chain replica with `env` (DATABASE_URL, CHAIN_NETWORKS, …) on GRPC_PORT=0 and resolves once
 * its log names the address it bound and its worker's id.
 */
export async function startChainReplica(env: Record<string, string>, timeoutMs = 45_000): Promise<ChainReplica> {
  const child: ChildProcess = spawn(process.execPath, [join(root, 'services/chain/dist/index.js')], {
    cwd: root,
    // Trusts this process's gateway key: the test calls the replica directly.
    env: { ...process.env, GRPC_PORT: '0', GRPC_HOST: '127.0.0.1', LOG_LEVEL: 'info', NODE_ENV: 'test', CALLER_TRUSTED_KEYS: callerKeysForChildren().CALLER_TRUSTED_KEYS, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  process.once('exit', () => child.kill('SIGKILL')); // never outlive the test runner
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let address: string | undefined;
  let workerId: string | undefined;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`chain replica not started within ${timeoutMs} ms:\n${output.slice(-4000)}`)), timeoutMs);
    let partial = '';
    const scan = (chunk: string) => {
      output += chunk;
      const lines = (partial + chunk).split('\n');
      partial = lines.pop()!;
      for (const line of lines) {
        if (!line.startsWith('{')) continue;
        try {
          const entry = JSON.parse(line) as { msg?: string; address?: string; workerId?: string };
          if (entry.msg === 'gRPC server listening') address = entry.address;
          if (entry.msg === 'chain worker started') workerId = entry.workerId;
        } catch {
          // not a log entry of ours
        }
      }
      if (address && workerId) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.setEncoding('utf8').on('data', scan);
    child.stderr!.setEncoding('utf8').on('data', (c: string) => (output += c));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`chain replica exited with ${code} while starting:\n${output.slice(-4000)}`));
    });
  });
  return {
    address: address!.replace(/^0\.0\.0\.0:/, '127.0.0.1:'),
    workerId: workerId!,
    pid: child.pid!,
    output: () => output,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

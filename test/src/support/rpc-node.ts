import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Hardhat's first development account: public and worthless, funded on the test node. */
export const NODE_SIGNER_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

export interface RpcNodeProcess {
  url: string;
  port: number;
  chainId: number;
  contracts: { keyValueStore: string; documentRegistry: string; documentRoots: string; nft: string };
  stop(): Promise<void>;
}

/**
 * A JSON-RPC node (Hardhat's EVM served over HTTP, the service's contracts deployed) as its own process:
 * testing/dist/chain/rpc-node-main.js. Resolves once it serves. `deploy: false`: an empty chain, as a fresh
 * real network is (its `contracts` then name nothing).
 */
export async function startRpcNodeProcess(chainId: number, opts: { deploy?: boolean } = {}): Promise<RpcNodeProcess> {
  const { info, stop } = await startJsonLineProcess('testing/dist/chain/rpc-node-main.js', {
    RPC_NODE_CHAIN_ID: String(chainId),
    RPC_NODE_SIGNER_KEY: NODE_SIGNER_KEY,
    RPC_NODE_DEPLOY: opts.deploy === false ? '0' : '1',
  });
  const node = info as Omit<RpcNodeProcess, 'stop' | 'port'>;
  return { ...node, port: Number(new URL(node.url).port), stop };
}

export interface RemoteSignerProcess {
  url: string;
  address: string;
  /** How many transactions it signed so far. */
  signed(): Promise<number>;
  stop(): Promise<void>;
}

/** A remote signer holding `key` (Web3Signer's eth_signTransaction), its own process: testing/dist/chain/remote-signer-main.js. */
export async function startRemoteSignerProcess(key: string): Promise<RemoteSignerProcess> {
  const { info, stop } = await startJsonLineProcess('testing/dist/chain/remote-signer-main.js', { REMOTE_SIGNER_KEY: key });
  const signer = info as { url: string; address: string };
  return {
    ...signer,
    signed: async () => ((await (await fetch(`${signer.url}/signed`)).json()) as { signed: number }).signed,
    stop,
  };
}

/** A node script of this repository that prints one JSON line once it serves and stops on SIGTERM. */
async function startJsonLineProcess(entry: string, env: Record<string, string>): Promise<{ info: unknown; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [join(root, entry)], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  process.once('exit', () => child.kill('SIGKILL')); // never outlive the test runner
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const first = await new Promise<string>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (c: string) => {
      output += c;
      const line = output.split('\n').find((l) => l.startsWith('{'));
      if (line && output.includes('\n')) resolve(line);
    });
    child.stderr!.setEncoding('utf8').on('data', (c: string) => (output += c));
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${code}:\n${output}`)));
  });
  return {
    info: JSON.parse(first),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

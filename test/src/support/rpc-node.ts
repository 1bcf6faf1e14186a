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
 * testing/dist/chain/rpc-node-main.js. Resolves once it serves.
 */
export async function startRpcNodeProcess(chainId: number): Promise<RpcNodeProcess> {
  const child = spawn(process.execPath, [join(root, 'testing/dist/chain/rpc-node-main.js')], {
    cwd: root,
    env: { ...process.env, RPC_NODE_CHAIN_ID: String(chainId), RPC_NODE_SIGNER_KEY: NODE_SIGNER_KEY },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
    child.once('exit', (code) => reject(new Error(`the RPC node exited with ${code}:\n${output}`)));
  });
  const info = JSON.parse(first) as Omit<RpcNodeProcess, 'stop' | 'port'>;
  return {
    ...info,
    port: Number(new URL(info.url).port),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

import { startRpcNode } from './rpc-node.js';

// A JSON-RPC node as its own process, for tests that take it away from a running chain service:
// RPC_NODE_CHAIN_ID, RPC_NODE_SIGNER_KEY (funded, deploys the contracts unless RPC_NODE_DEPLOY=0), RPC_NODE_PORT (0: any),
// RPC_NODE_HOST (default 127.0.0.1; the network fault tests give their test host's address).
// Prints one JSON line {url, chainId, contracts} once it serves; stops on SIGTERM.
const node = await startRpcNode({
  chainId: Number(process.env['RPC_NODE_CHAIN_ID'] ?? 31337),
  signerKey: process.env['RPC_NODE_SIGNER_KEY'] ?? '',
  port: Number(process.env['RPC_NODE_PORT'] ?? 0),
  deploy: process.env['RPC_NODE_DEPLOY'] !== '0',
  host: process.env['RPC_NODE_HOST'] ?? '127.0.0.1',
});
process.stdout.write(`${JSON.stringify({ url: node.url, chainId: node.chainId, contracts: node.contracts })}\n`);
process.once('SIGTERM', () => void node.close());

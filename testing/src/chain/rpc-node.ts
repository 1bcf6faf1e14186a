import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { deployEmbeddedContracts } from '@green-impact/chain/contracts/deploy-contracts';
import type { ChainNetwork, ContractAddresses } from '@green-impact/chain/networks/chain-network';
import { startEmbeddedNetwork } from '@green-impact/chain/networks/chain-network';
import { callEip1193 } from '@green-impact/chain/networks/eip1193-provider';
import { relayJsonRpc, type RpcCall } from '@green-impact/chain/networks/json-rpc-relay';
import { DEFAULT_TUNING } from '@green-impact/chain/networks/network-spec';

/** A local EVM served as a JSON-RPC node over HTTP, as a real network's RPC endpoint is. */
export interface RpcNode {
  url: string;
  chainId: number;
  /** The chain in this process (the tests' view of what was mined). */
  network: ChainNetwork;
  /** Deployed by the node's signer at start, as an operator deploys them once on a real network. */
  contracts: ContractAddresses;
  close(): Promise<void>;
}

/**
 * Starts Hardhat's EVM (EDR, automine) with `signerKey` funded, deploys the service's contracts with it
 * and serves every JSON-RPC method (single calls and batches) on `host` (127.0.0.1):`port`. For tests that put a
 * chain service in front of a node they can take away (CHAIN_NETWORKS with this node's URL).
 */
export async function startRpcNode(opts: { chainId: number; signerKey: string; port?: number; host?: string; deploy?: boolean }): Promise<RpcNode> {
  const network = await startEmbeddedNetwork({
    kind: 'embedded', name: 'rpc-node', chainId: opts.chainId, nativeCurrencySymbol: 'ETH', signerKey: opts.signerKey, ...DEFAULT_TUNING,
  });
  // deploy: false leaves the chain empty, as a fresh real network is (for the deployment command's tests).
  if (opts.deploy !== false) await deployEmbeddedContracts(network);
  const call: RpcCall = async (method, params) => {
    const { id: _id, ...answer } = await callEip1193(network.edr!, 0, method, params);
    return answer;
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void relayJsonRpc(Buffer.concat(chunks), call, 'any').then((answer) => res.writeHead(200, { 'content-type': 'application/json' }).end(answer));
    });
  });
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, host, resolve));
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    chainId: opts.chainId,
    network,
    contracts: { ...network.contracts },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
        network.close();
      }),
  };
}

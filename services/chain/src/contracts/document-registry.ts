import { Interface } from 'ethers';
import type { ChainNetwork } from '../networks/chain-network.js';
import { contractArtifact } from './artifacts.js';

export interface Anchor {
  sha256: string;
  cid: string;
  writer: string;
  anchoredAt: number;
  blockNumber: number;
}

let iface: Interface | undefined;

/**
 * The anchor of a document as the registry holds it now; undefined when there is none. `rpc`: how to ask
 * the node (documents/chain-facts.ts keeps the answers); the network's provider by default.
 */
export async function readAnchor(network: ChainNetwork, anchorId: string, rpc?: (method: string, params: unknown[]) => Promise<unknown>): Promise<Anchor | undefined> {
  const address = network.contracts.documentRegistry;
  if (!address) return undefined;
  iface ??= new Interface(contractArtifact('DocumentRegistry').abi);
  const call = { to: address, data: iface.encodeFunctionData('getAnchor', [anchorId]) };
  const raw = rpc ? ((await rpc('eth_call', [call, 'latest'])) as string) : await network.provider.call(call);
  const [found, sha256, cid, writer, anchoredAt, blockNumber] = iface.decodeFunctionResult('getAnchor', raw) as unknown as [
    boolean, string, string, string, bigint, bigint,
  ];
  if (!found) return undefined;
  return { sha256: sha256.slice(2).toLowerCase(), cid, writer, anchoredAt: Number(anchoredAt), blockNumber: Number(blockNumber) };
}

/** The registry id of a job's anchor: the job UUID's 16 bytes, right-padded to 32. */
export function anchorIdOf(jobId: string): string {
  return `0x${jobId.replace(/-/g, '').toLowerCase().padEnd(64, '0')}`;
}

import { UnavailableError } from '@green-impact/shared/errors';
import type { ChainNetwork } from '../networks/chain-network.js';

/**
 * The few chain reads the public pages make, through the network's read-only relay on the pages' own
 * quota (CHAIN_RELAY_PAGES_*, relay-quota.ts), never the workers' provider: ERC-721 `ownerOf`, a
 * transaction's receipt, a block. The ABI of those calls is small enough to write out here (pure
 * functions below).
 */

/** keccak256("ownerOf(uint256)")[0..4]. */
export const OWNER_OF_SELECTOR = '0x6352211e';
/** keccak256("Transfer(address,address,uint256)"): ERC-20 and ERC-721 transfers. */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

/** Calldata of `ownerOf(tokenId)`: the selector and the id as one 32-byte word. */
export function ownerOfCalldata(tokenId: string): string {
  if (!/^\d{1,78}$/.test(tokenId)) throw new RangeError(`not a token id: ${tokenId}`);
  return OWNER_OF_SELECTOR + BigInt(tokenId).toString(16).padStart(64, '0');
}

/** The address in a 32-byte ABI word (`0x` + 64 hex digits, 12 zero bytes first), lower case; undefined otherwise. */
export function addressOfWord(word: unknown): string | undefined {
  if (typeof word !== 'string' || !/^0x0{24}[0-9a-fA-F]{40}$/.test(word)) return undefined;
  return `0x${word.slice(26).toLowerCase()}`;
}

/** A JSON-RPC quantity (`0x1a`) as a decimal string; undefined when it is not one. */
export function quantity(hex: unknown): string | undefined {
  return typeof hex === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(hex) ? BigInt(hex).toString() : undefined;
}

/** A transaction receipt as eth_getTransactionReceipt answers it (the fields the explorer page shows). */
export interface RpcReceipt {
  transactionHash: string;
  blockHash?: string;
  blockNumber?: string;
  from?: string;
  to?: string | null;
  contractAddress?: string | null;
  gasUsed?: string;
  effectiveGasPrice?: string;
  status?: string;
  logs?: { address?: string; topics?: string[]; data?: string; logIndex?: string }[];
}

interface RpcAnswer {
  result?: unknown;
  error?: { code?: number; message?: string };
}

/** One JSON-RPC call through the relay; a JSON-RPC error (the node's or the relay's) is UNAVAILABLE with its text. */
export async function relayCall(chain: ChainNetwork, network: string, method: string, params: unknown[]): Promise<unknown> {
  const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
  // The pages' own quota: a flood of anonymous /rpc cannot break them for everyone.
  const answer = await chain.relay(body, 'pages');
  let parsed: RpcAnswer;
  try {
    parsed = JSON.parse(answer.toString('utf8')) as RpcAnswer;
  } catch {
    throw new UnavailableError(`Network ${network} answered ${method} with something that is not JSON.`);
  }
  if (parsed.error) throw new UnavailableError(`Network ${network} could not answer ${method}: ${String(parsed.error.message ?? parsed.error.code).slice(0, 200)}.`);
  return parsed.result ?? null;
}

/** One read-only call on a network: relayCall, or its answer cached (node-read-cache.ts). */
export type NodeRead = (network: string, method: string, params: unknown[]) => Promise<unknown>;

/** The holder of an ERC-721 token now, lower case. */
export async function ownerOf(read: NodeRead, network: string, contract: string, tokenId: string): Promise<string> {
  const word = await read(network, 'eth_call', [{ to: contract, data: ownerOfCalldata(tokenId) }, 'latest']);
  const owner = addressOfWord(word);
  if (!owner) throw new UnavailableError(`Network ${network} answered ownerOf(${tokenId}) with ${String(word).slice(0, 80)}.`);
  return owner;
}

/** The receipt of a transaction; null when the network knows none (unknown, or not mined yet). */
export async function transactionReceipt(read: NodeRead, network: string, hash: string): Promise<RpcReceipt | null> {
  return (await read(network, 'eth_getTransactionReceipt', [hash])) as RpcReceipt | null;
}

/** Whether the network knows the transaction at all (it may be waiting to be mined). */
export async function transactionKnown(read: NodeRead, network: string, hash: string): Promise<boolean> {
  return (await read(network, 'eth_getTransactionByHash', [hash])) !== null;
}

/** A block as eth_getBlockByNumber answers it without full transactions (the fields the explorer page shows). */
export interface RpcBlock {
  number?: string;
  hash?: string;
  parentHash?: string;
  timestamp?: string;
  miner?: string;
  gasUsed?: string;
  gasLimit?: string;
  baseFeePerGas?: string;
  transactions?: string[];
}

/** A mined block by number; null when the network has none (yet). */
export async function blockByNumber(read: NodeRead, network: string, blockNumber: bigint): Promise<RpcBlock | null> {
  return (await read(network, 'eth_getBlockByNumber', [`0x${blockNumber.toString(16)}`, false])) as RpcBlock | null;
}

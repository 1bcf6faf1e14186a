import type { JsonRpcError, JsonRpcResult } from 'ethers';

/** Read methods a wallet or script needs to verify what was written; nothing that signs or sends. */
export const RELAYED_METHODS: ReadonlySet<string> = new Set([
  'eth_chainId', 'net_version', 'web3_clientVersion', 'eth_syncing',
  'eth_blockNumber', 'eth_getBlockByNumber', 'eth_getBlockByHash',
  'eth_getBlockTransactionCountByNumber', 'eth_getBlockTransactionCountByHash',
  'eth_getTransactionByHash', 'eth_getTransactionByBlockNumberAndIndex', 'eth_getTransactionByBlockHashAndIndex',
  'eth_getTransactionReceipt', 'eth_getTransactionCount',
  'eth_call', 'eth_estimateGas', 'eth_getLogs', 'eth_getCode', 'eth_getStorageAt', 'eth_getBalance',
  'eth_gasPrice', 'eth_feeHistory', 'eth_maxPriorityFeePerGas',
]);

const MAX_BATCH = 100;

interface RpcRequest {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

type RpcResponse = { jsonrpc: '2.0'; id: unknown } & ({ result: unknown } | { error: JsonRpcError['error'] });

/** Sends one allowed call to the network and answers a JSON-RPC result or error. */
export type RpcCall = (method: string, params: unknown) => Promise<Omit<JsonRpcResult, 'id'> | Omit<JsonRpcError, 'id'>>;

/**
 * Relays a JSON-RPC 2.0 request or batch (UTF-8 JSON). Only `allowed` methods (RELAYED_METHODS) reach the
 * network; anything else, and malformed requests, get a JSON-RPC error in the body (never a gRPC error):
 * the caller is a JSON-RPC client and expects JSON-RPC answers. A test node serving its own chain allows
 * every method.
 */
export async function relayJsonRpc(body: Buffer, call: RpcCall, allowed: ReadonlySet<string> | 'any' = RELAYED_METHODS): Promise<Buffer> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return encode(failure(null, -32700, 'Parse error'));
  }
  if (Array.isArray(parsed)) {
    if (parsed.length === 0) return encode(failure(null, -32600, 'Invalid Request: empty batch'));
    if (parsed.length > MAX_BATCH) return encode(failure(null, -32600, `Invalid Request: at most ${MAX_BATCH} calls per batch`));
    const answers: RpcResponse[] = [];
    for (const r of parsed) answers.push(await relayOne(r as RpcRequest, call, allowed));
    return encode(answers);
  }
  return encode(await relayOne(parsed as RpcRequest, call, allowed));
}

async function relayOne(req: RpcRequest, call: RpcCall, allowed: ReadonlySet<string> | 'any'): Promise<RpcResponse> {
  const id = typeof req?.id === 'string' || typeof req?.id === 'number' ? req.id : null;
  if (typeof req !== 'object' || req === null || typeof req.method !== 'string') {
    return failure(id, -32600, 'Invalid Request');
  }
  if (allowed !== 'any' && !allowed.has(req.method)) {
    return failure(id, -32601, `Method ${req.method} is not relayed (read methods only)`);
  }
  const answer = await call(req.method, req.params ?? []);
  return { jsonrpc: '2.0', id, ...answer };
}

function failure(id: unknown, code: number, message: string): RpcResponse {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

function encode(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value), 'utf8');
}

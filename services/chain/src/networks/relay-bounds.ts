import { toQuantity } from 'ethers';
import type { RpcCall } from './json-rpc-relay.js';
import { countRelayRefusal, LIMIT_EXCEEDED, RelayQuota, type RelayQuotaSettings, type RelaySource } from './relay-quota.js';

/** CHAIN_RELAY_MAX_GAS: a third of a 30M block, the most an honest verification read needs many times over. */
export const DEFAULT_RELAY_MAX_GAS = 10_000_000;
/** CHAIN_RELAY_CALL_TIMEOUT_MS. */
export const DEFAULT_RELAY_CALL_TIMEOUT_MS = 5_000;

/** The methods that run EVM code on the node: their gas and time are what a caller spends of it. */
const EXECUTING: ReadonlySet<string> = new Set(['eth_call', 'eth_estimateGas']);

/** JSON-RPC "invalid params". */
const INVALID_PARAMS = -32602;

/**
 * The relay's calls of one network, one per source, each with its own quota (RelayQuota), and eth_call /
 * eth_estimateGas bounded: asking for more gas than CHAIN_RELAY_MAX_GAS is refused, a call without gas
 * gets that much (the node's default is its block gas limit, or unbounded), and an answer slower than
 * CHAIN_RELAY_CALL_TIMEOUT_MS is answered "limit exceeded" at once, while the call keeps its place in the
 * quota's calls in flight until the node is done with it (the node still spends it).
 */
export function relayCalls(network: string, call: RpcCall, settings: RelayQuotaSettings): Record<RelaySource, RpcCall> {
  const bounds = { maxGas: settings.maxGas ?? DEFAULT_RELAY_MAX_GAS, timeoutMs: settings.callTimeoutMs ?? DEFAULT_RELAY_CALL_TIMEOUT_MS };
  const of = (source: RelaySource) => bounded(network, source, new RelayQuota(network, source === 'pages' ? (settings.pages ?? settings) : settings, undefined, source).guard(call), bounds);
  return { public: of('public'), pages: of('pages') };
}

function bounded(network: string, source: RelaySource, call: RpcCall, bounds: { maxGas: number; timeoutMs: number }): RpcCall {
  return async (method, params) => {
    if (!EXECUTING.has(method)) return call(method, params);
    const capped = withGasCap(params, bounds.maxGas);
    if ('error' in capped) {
      countRelayRefusal(network, source, 'gas');
      return capped;
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<Awaited<ReturnType<RpcCall>>>((resolve) => {
      timer = setTimeout(() => {
        countRelayRefusal(network, source, 'time');
        resolve({ error: { code: LIMIT_EXCEEDED, message: `${method} took longer than the relay allows on network ${network} (${bounds.timeoutMs} ms)` } });
      }, bounds.timeoutMs);
    });
    try {
      return await Promise.race([call(method, capped.params), late]);
    } finally {
      clearTimeout(timer);
    }
  };
}

/** The call's params with its gas capped; a refusal when it asks for more. Malformed params go to the node as they are: it refuses them itself. */
function withGasCap(params: unknown, maxGas: number): { params: unknown } | { error: { code: number; message: string } } {
  if (!Array.isArray(params) || typeof params[0] !== 'object' || params[0] === null) return { params };
  const tx = params[0] as Record<string, unknown>;
  if (tx['gas'] === undefined || tx['gas'] === null) return { params: [{ ...tx, gas: toQuantity(maxGas) }, ...params.slice(1)] };
  let gas: bigint;
  try {
    gas = BigInt(tx['gas'] as string);
  } catch {
    return { params };
  }
  if (gas > BigInt(maxGas)) return { error: { code: INVALID_PARAMS, message: `gas must be at most ${maxGas} (${toQuantity(maxGas)}) through this relay` } };
  return { params };
}

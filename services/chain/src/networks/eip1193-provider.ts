import { tracedJsonRpc } from './rpc-spans.js';
import { FetchRequest, JsonRpcApiProvider, JsonRpcProvider, Network, type JsonRpcApiProviderOptions, type JsonRpcError, type JsonRpcPayload, type JsonRpcResult } from 'ethers';

/** The request function of an EIP-1193 provider (Hardhat's in-process EDR network is one). */
export interface Eip1193 {
  request(args: { method: string; params?: unknown[] | object }): Promise<unknown>;
}

/**
 * An ethers provider over an in-process EIP-1193 provider. Caching is off (`cacheTimeout: -1`): on an
 * instant-mining chain a cached block number or nonce is stale at once.
 */
export class Eip1193JsonRpcProvider extends JsonRpcApiProvider {
  constructor(
    private readonly inner: Eip1193,
    name: string,
    chainId: number,
  ) {
    const network = new Network(name, chainId);
    super(network, { staticNetwork: network, cacheTimeout: -1, batchMaxCount: 1 });
  }

  override async _send(payload: JsonRpcPayload | JsonRpcPayload[]): Promise<(JsonRpcResult | JsonRpcError)[]> {
    return tracedJsonRpc(this._network.name, undefined, payload, async () => {
      const requests = Array.isArray(payload) ? payload : [payload];
      const out: (JsonRpcResult | JsonRpcError)[] = [];
      for (const p of requests) out.push(await callEip1193(this.inner, p.id, p.method, p.params));
      return out;
    });
  }
}

/** One JSON-RPC call against an EIP-1193 provider, answered as a JSON-RPC response object. */
export async function callEip1193(
  inner: Eip1193,
  id: number,
  method: string,
  params: unknown,
): Promise<JsonRpcResult | JsonRpcError> {
  try {
    const result = await inner.request({ method, params: (params ?? []) as unknown[] });
    return { id, result };
  } catch (err) {
    const e = err as { code?: unknown; message?: unknown; data?: unknown };
    return {
      id,
      error: {
        code: typeof e.code === 'number' ? e.code : -32603,
        message: typeof e.message === 'string' ? e.message : 'Internal error',
        ...(e.data !== undefined ? { data: e.data } : {}),
      },
    };
  }
}

/** ethers' JSON-RPC provider over HTTP, each request or batch in a CLIENT span (rpc-spans.ts). */
export class TracedJsonRpcProvider extends JsonRpcProvider {
  private readonly server: string;

  constructor(request: FetchRequest, network: Network, options: JsonRpcApiProviderOptions) {
    super(request, network, options);
    this.server = new URL(request.url).host;
  }

  override async _send(payload: JsonRpcPayload | JsonRpcPayload[]): Promise<JsonRpcResult[]> {
    // ethers types the answers as results only, though a node's error answers come back the same way.
    return (await tracedJsonRpc(this._network.name, this.server, payload, () => super._send(payload))) as JsonRpcResult[];
  }
}

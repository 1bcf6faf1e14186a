import { JsonRpcApiProvider, Network, type JsonRpcError, type JsonRpcPayload, type JsonRpcResult } from 'ethers';

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
    const requests = Array.isArray(payload) ? payload : [payload];
    const out: (JsonRpcResult | JsonRpcError)[] = [];
    for (const p of requests) out.push(await callEip1193(this.inner, p.id, p.method, p.params));
    return out;
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

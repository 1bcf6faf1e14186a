import { FetchRequest, Network, Wallet, type JsonRpcApiProvider, type Signer } from 'ethers';
import { callEip1193, Eip1193JsonRpcProvider, TracedJsonRpcProvider, type Eip1193 } from './eip1193-provider.js';
import { relayJsonRpc, type RpcCall } from './json-rpc-relay.js';
import type { EmbeddedNetworkSpec, NetworkTuning, RemoteNetworkSpec } from './network-spec.js';
import { DEFAULT_RELAY_QUOTA, type RelayQuotaSettings, type RelaySource } from './relay-quota.js';
import { relayCalls } from './relay-bounds.js';
import { startEmbeddedChain } from './embedded-chain.js';
import { RemoteSigner } from './remote-signer.js';

export interface ContractAddresses {
  keyValueStore?: string | undefined;
  documentRegistry?: string | undefined;
  /** DocumentRoots: Merkle roots of document batches. Without it documents are anchored one per transaction. */
  documentRoots?: string | undefined;
  nft?: string | undefined;
}

/** A connected network: provider, signer, contract addresses and tuning. */
export interface ChainNetwork {
  readonly name: string;
  readonly chainId: number;
  readonly embedded: boolean;
  /** Whose nonces these are: `chain:<chain id>`, or `embedded:<name>` (history replayed at each start). */
  readonly instanceId: string;
  /** Shown in ListNetworks: the RPC origin (never its path or query, which may hold an API key). */
  readonly rpcUrlShown: string;
  readonly explorerUrl: string | undefined;
  readonly nativeCurrencySymbol: string;
  readonly tuning: NetworkTuning;
  readonly provider: JsonRpcApiProvider;
  /** Signs the network's transactions: a key in this process (Wallet) or a remote signer (remote-signer.ts). */
  readonly wallet: Signer;
  readonly signerAddress: string;
  readonly contracts: ContractAddresses;
  /** Embedded networks only: the in-process EVM (tests drive mining through it). */
  readonly edr?: Eip1193 | undefined;
  /** The public read-only relay, within its own quota (relay-quota.ts): the provider above is not counted in it. */
  relay(body: Buffer, source?: RelaySource): Promise<Buffer>;
  txUrl(hash: string): string | undefined;
  close(): void;
}

class ConnectedNetwork implements ChainNetwork {
  readonly signerAddress: string;
  readonly wallet: Signer;
  readonly instanceId: string;

  constructor(
    readonly name: string,
    readonly chainId: number,
    readonly embedded: boolean,
    readonly rpcUrlShown: string,
    readonly explorerUrl: string | undefined,
    readonly nativeCurrencySymbol: string,
    readonly tuning: NetworkTuning,
    readonly provider: JsonRpcApiProvider,
    signer: { key: string } | { remote: RemoteSigner },
    readonly contracts: ContractAddresses,
    /** The relay's way to the node, behind its quota: never the workers' provider. */
    private readonly relayCalls: Record<RelaySource, RpcCall>,
    readonly edr?: Eip1193,
  ) {
    if ('key' in signer) {
      const wallet = new Wallet(signer.key, provider);
      this.wallet = wallet;
      this.signerAddress = wallet.address;
    } else {
      this.wallet = signer.remote.connect(provider);
      this.signerAddress = signer.remote.spec.address;
    }
    this.instanceId = embedded ? `embedded:${name}` : `chain:${chainId}`;
  }

  relay(body: Buffer, source: RelaySource = 'public'): Promise<Buffer> {
    return relayJsonRpc(body, this.relayCalls[source]);
  }

  txUrl(hash: string): string | undefined {
    return this.explorerUrl ? `${this.explorerUrl.replace(/\/+$/, '')}/tx/${hash}` : undefined;
  }

  close(): void {
    this.provider.destroy();
  }
}

export function connectRemoteNetwork(spec: RemoteNetworkSpec, relayQuota: RelayQuotaSettings = DEFAULT_RELAY_QUOTA): ChainNetwork {
  const network = new Network(spec.name, spec.chainId);
  const request = new FetchRequest(spec.rpcUrl);
  request.timeout = spec.rpcTimeoutMs;
  // No read cache: ethers answers a repeated call from a 250 ms cache by default, so a receipt or nonce
  // read right after a send could be stale (the tracker then took a mined job for a lost one).
  const provider = new TracedJsonRpcProvider(request, network, { staticNetwork: network, cacheTimeout: -1 });
  let nextId = 1;
  const rpcCall: RpcCall = async (method, params) => {
    try {
      const res = await fetch(spec.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
        signal: AbortSignal.timeout(spec.rpcTimeoutMs),
      });
      const answer = (await res.json()) as { result?: unknown; error?: { code: number; message: string; data?: unknown } };
      return answer.error ? { error: answer.error } : { result: answer.result ?? null };
    } catch {
      return { error: { code: -32603, message: `Network ${spec.name} did not answer` } };
    }
  };
  return new ConnectedNetwork(
    spec.name, spec.chainId, false, new URL(spec.rpcUrl).origin, spec.explorerUrl, spec.nativeCurrencySymbol,
    spec, provider, remoteSignerOrKey(spec), { ...spec.contracts }, relayCalls(spec.name, rpcCall, relayQuota),
  );
}

function remoteSignerOrKey(spec: RemoteNetworkSpec): { key: string } | { remote: RemoteSigner } {
  if (spec.remoteSigner) return { remote: new RemoteSigner(spec.remoteSigner, spec.chainId) };
  if (!spec.signerKey) throw new Error(`Network ${spec.name} has neither a signer key nor a remote signer`);
  return { key: spec.signerKey };
}

/** Starts the in-process EVM; contracts are deployed afterwards (see deploy-contracts.ts). */
export async function startEmbeddedNetwork(spec: EmbeddedNetworkSpec, relayQuota: RelayQuotaSettings = DEFAULT_RELAY_QUOTA): Promise<ChainNetwork> {
  const edr = await startEmbeddedChain({ chainId: spec.chainId, signerKey: spec.signerKey });
  const provider = new Eip1193JsonRpcProvider(edr, spec.name, spec.chainId);
  const rpcCall: RpcCall = async (method, params) => {
    const { id: _id, ...answer } = await callEip1193(edr, 0, method, params);
    return answer;
  };
  return new ConnectedNetwork(
    spec.name, spec.chainId, true, `/rpc/${spec.name}`, undefined, spec.nativeCurrencySymbol,
    spec, provider, { key: spec.signerKey }, {}, relayCalls(spec.name, rpcCall, relayQuota), edr,
  );
}

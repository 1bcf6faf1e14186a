import type { RemoteSignerSpec } from './remote-signer.js';

/**
 * What the service knows about a network before connecting to it: either a real EVM network reached
 * over JSON-RPC (configured by name, addresses of already deployed contracts) or an embedded local EVM
 * (Hardhat's EDR in this process, contracts deployed at start). Aliases (e.g. `mumbai`) stand for
 * another configured network and share its chain, signer and nonces.
 */
export interface NetworkTuning {
  /** Confirmations awaited before a job is COMPLETED (1 = included in a block). */
  confirmations: number;
  /** How often receipts are polled. */
  pollIntervalMs: number;
  /** A transaction without a receipt this long after it was sent is resubmitted with a gas bump. */
  stuckAfterMs: number;
  /** At most this many gas bumps per job; then the job waits without further bumps. */
  maxGasBumps: number;
  /** Each bump raises the fees by this many percent (nodes require at least 10). */
  gasBumpPercent: number;
  /** insertString values larger than this (UTF-8 bytes) are refused (spec §8: "set by the network"). */
  maxStringValueBytes: number;
  /** The spec's networkFee: charged on top of the network cost of each transaction, in the native coin. */
  networkFee: number;
}

export interface RemoteNetworkSpec extends NetworkTuning {
  kind: 'remote';
  name: string;
  chainId: number;
  rpcUrl: string;
  explorerUrl?: string | undefined;
  nativeCurrencySymbol: string;
  /** 0x-prefixed 32-byte hex; from a secret, never logged. Unset when a remote signer holds the key. */
  signerKey?: string | undefined;
  /** The signer's key held by a remote signer (`eth_signTransaction`) instead of this process. */
  remoteSigner?: RemoteSignerSpec | undefined;
  contracts: { keyValueStore?: string | undefined; documentRegistry?: string | undefined; documentRoots?: string | undefined; nft?: string | undefined };
  /**
   * How long any one JSON-RPC request may take. A node that takes connections but never answers would
   * otherwise hold the signer's queue and the receipt tracker for ethers' default of 5 minutes.
   */
  rpcTimeoutMs: number;
}

export const DEFAULT_RPC_TIMEOUT_MS = 15_000;

export interface EmbeddedNetworkSpec extends NetworkTuning {
  kind: 'embedded';
  name: string;
  chainId: number;
  nativeCurrencySymbol: string;
  signerKey: string;
}

export interface AliasSpec {
  kind: 'alias';
  name: string;
  aliasOf: string;
}

export type NetworkSpec = RemoteNetworkSpec | EmbeddedNetworkSpec | AliasSpec;

export const DEFAULT_TUNING: NetworkTuning = {
  confirmations: 1,
  pollIntervalMs: 2_000,
  stuckAfterMs: 120_000,
  maxGasBumps: 5,
  gasBumpPercent: 20,
  maxStringValueBytes: 4_096,
  networkFee: 0,
};

/**
 * Hardhat's well-known first development account. The embedded chains are local and start empty, so
 * their signer holds nothing of value; a fixed key keeps contract addresses the same on every start.
 */
export const EMBEDDED_SIGNER_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

/**
 * The embedded default: local EVM networks under the names legacy clients use. Local chain ids (not
 * Sepolia's or Amoy's) so nothing signed here is valid on a public network.
 */
export function embeddedNetworkSpecs(overrides: Partial<NetworkTuning> = {}): NetworkSpec[] {
  const tuning: NetworkTuning = { ...DEFAULT_TUNING, pollIntervalMs: 200, stuckAfterMs: 15_000, ...overrides };
  return [
    { kind: 'embedded', name: 'sepolia', chainId: 31337, nativeCurrencySymbol: 'ETH', signerKey: EMBEDDED_SIGNER_KEY, ...tuning },
    { kind: 'embedded', name: 'amoy', chainId: 31338, nativeCurrencySymbol: 'POL', signerKey: EMBEDDED_SIGNER_KEY, ...tuning },
    { kind: 'alias', name: 'mumbai', aliasOf: 'amoy' },
  ];
}

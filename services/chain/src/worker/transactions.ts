import { formatEther, isError, keccak256, type TransactionReceipt } from 'ethers';
import type { TransactionReceipt as ReceiptView } from '@green-impact/proto/greenimpact/chain/v1/chain';
import type { ChainNetwork } from '../networks/chain-network.js';
import type { SentTransaction } from '../jobs/job-types.js';

export interface Fees {
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
  gasPrice?: bigint;
}

/** The network's current fee suggestion: EIP-1559 where the network has a base fee, else legacy. */
export async function currentFees(network: ChainNetwork): Promise<Fees> {
  const data = await network.provider.getFeeData();
  if (data.maxFeePerGas !== null && data.maxPriorityFeePerGas !== null) {
    return { maxFeePerGas: data.maxFeePerGas, maxPriorityFeePerGas: data.maxPriorityFeePerGas };
  }
  if (data.gasPrice === null) throw new Error(`Network ${network.name} suggests no gas price`);
  return { gasPrice: data.gasPrice };
}

/**
 * Fees for a replacement: each fee raised by `percent` over the stuck transaction (nodes refuse a
 * replacement below +10 %), and never below what the network suggests now.
 */
export function bumpedFees(previous: SentTransaction, now: Fees, percent: number): Fees {
  const bump = (old: string | undefined, suggested: bigint | undefined): bigint => {
    const raised = old === undefined ? 0n : (BigInt(old) * BigInt(100 + percent) + 99n) / 100n + 1n;
    return suggested !== undefined && suggested > raised ? suggested : raised;
  };
  if (previous.gasPrice !== undefined) return { gasPrice: bump(previous.gasPrice, now.gasPrice ?? now.maxFeePerGas) };
  const maxPriorityFeePerGas = bump(previous.maxPriorityFeePerGas, now.maxPriorityFeePerGas);
  let maxFeePerGas = bump(previous.maxFeePerGas, now.maxFeePerGas);
  if (maxFeePerGas < maxPriorityFeePerGas) maxFeePerGas = maxPriorityFeePerGas;
  return { maxFeePerGas, maxPriorityFeePerGas };
}

/** Signs locally (the key never leaves the process); the hash is known before anything is sent. */
export async function signTransaction(
  network: ChainNetwork,
  tx: { to: string; data: string; nonce: number; gasLimit: bigint; fees: Fees },
): Promise<SentTransaction> {
  const common = { chainId: network.chainId, to: tx.to, data: tx.data, nonce: tx.nonce, gasLimit: tx.gasLimit, value: 0n };
  const raw =
    tx.fees.gasPrice !== undefined
      ? await network.wallet.signTransaction({ ...common, type: 0, gasPrice: tx.fees.gasPrice })
      : await network.wallet.signTransaction({
          ...common,
          type: 2,
          maxFeePerGas: tx.fees.maxFeePerGas!,
          maxPriorityFeePerGas: tx.fees.maxPriorityFeePerGas!,
        });
  return {
    hash: keccak256(raw),
    raw,
    nonce: tx.nonce,
    gasLimit: tx.gasLimit.toString(),
    ...(tx.fees.maxFeePerGas !== undefined ? { maxFeePerGas: tx.fees.maxFeePerGas.toString() } : {}),
    ...(tx.fees.maxPriorityFeePerGas !== undefined ? { maxPriorityFeePerGas: tx.fees.maxPriorityFeePerGas.toString() } : {}),
    ...(tx.fees.gasPrice !== undefined ? { gasPrice: tx.fees.gasPrice.toString() } : {}),
    sentAt: new Date().toISOString(),
  };
}

/**
 * A transfer of nothing to the signer itself at `nonce`: takes a nonce no job will use any more (its job
 * was refused), so the signer's later transactions, already in the node's pool, can be mined.
 */
export async function fillNonce(network: ChainNetwork, nonce: number): Promise<BroadcastOutcome> {
  const filler = await signTransaction(network, { to: network.signerAddress, data: '0x', nonce, gasLimit: 21_000n, fees: await currentFees(network) });
  return broadcast(network, filler.raw);
}

export type BroadcastOutcome =
  | { kind: 'sent' }
  /** The nonce is already used on chain (by this job's earlier attempt, or by someone else). */
  | { kind: 'nonce-used'; message: string }
  /** The node will never take this transaction as it is (e.g. the signer cannot pay). */
  | { kind: 'rejected'; message: string }
  /** The node did not answer or failed for a reason that may pass; the tracker broadcasts again. */
  | { kind: 'unknown'; message: string };

export async function broadcast(network: ChainNetwork, raw: string): Promise<BroadcastOutcome> {
  try {
    await network.provider.broadcastTransaction(raw);
    return { kind: 'sent' };
  } catch (err) {
    const message = errorText(err);
    if (/already known|known transaction|already imported/i.test(message)) return { kind: 'sent' };
    if (isError(err, 'NONCE_EXPIRED') || /nonce too low|nonce has already been used|nonce.*too low/i.test(message)) {
      return { kind: 'nonce-used', message };
    }
    if (isError(err, 'INSUFFICIENT_FUNDS') || /insufficient funds|enough funds|exceeds block gas limit|intrinsic gas too low|invalid sender|chain ?id/i.test(message)) {
      return { kind: 'rejected', message };
    }
    return { kind: 'unknown', message };
  }
}

export function errorText(err: unknown): string {
  // The node's own words: ethers keeps them in info.error, or in error when it could not classify them
  // ("could not coalesce error").
  const e = err as { shortMessage?: unknown; message?: unknown; info?: { error?: { message?: unknown } }; error?: { message?: unknown } };
  const inner = e?.info?.error?.message ?? e?.error?.message;
  if (typeof inner === 'string') return inner;
  if (typeof e?.shortMessage === 'string') return e.shortMessage;
  return typeof e?.message === 'string' ? e.message : String(err);
}

/** The receipt in the contract's shape (ethers v6 field names; the gateway renames `type` to `_type`). */
export function receiptView(r: TransactionReceipt): ReceiptView {
  return {
    type: 'TransactionReceipt',
    blockHash: r.blockHash,
    blockNumber: r.blockNumber,
    ...(r.contractAddress ? { contractAddress: r.contractAddress } : {}),
    cumulativeGasUsed: r.cumulativeGasUsed.toString(),
    from: r.from,
    gasPrice: r.gasPrice.toString(),
    gasUsed: r.gasUsed.toString(),
    hash: r.hash,
    index: r.index,
    logs: r.logs.map((l) => ({
      type: 'log',
      address: l.address,
      blockHash: l.blockHash,
      blockNumber: l.blockNumber,
      data: l.data,
      index: l.index,
      topics: [...l.topics],
      transactionHash: l.transactionHash,
      transactionIndex: l.transactionIndex,
    })),
    logsBloom: r.logsBloom,
    status: r.status ?? 0,
    ...(r.to ? { to: r.to } : {}),
  };
}

/** Network cost of a mined transaction in the native coin (gas used × effective gas price). */
export function networkCost(r: TransactionReceipt): number {
  return Number(formatEther(r.gasUsed * r.gasPrice));
}

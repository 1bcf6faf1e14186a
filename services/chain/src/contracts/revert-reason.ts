import { Interface, isError } from 'ethers';
import { contractArtifact } from './artifacts.js';

let interfaces: Interface[] | undefined;

function serviceInterfaces(): Interface[] {
  interfaces ??= (['KeyValueStore', 'DocumentRegistry', 'GreenImpactNft'] as const).map((n) => new Interface(contractArtifact(n).abi));
  return interfaces;
}

/** Revert data (0x…) carried by an ethers error or a JSON-RPC error, when there is any. */
export function revertData(err: unknown): string | undefined {
  const seen = new Set<unknown>();
  const walk = (e: unknown): string | undefined => {
    if (!e || typeof e !== 'object' || seen.has(e)) return undefined;
    seen.add(e);
    const o = e as Record<string, unknown>;
    if (typeof o['data'] === 'string' && /^0x[0-9a-f]*$/i.test(o['data']) && o['data'].length >= 10) return o['data'];
    for (const k of ['data', 'error', 'info', 'cause']) {
      const found = walk(o[k]);
      if (found) return found;
    }
    return undefined;
  };
  return walk(err);
}

/** A readable revert reason: Error(string), Panic(code) or a custom error of the service's contracts. */
export function describeRevertData(data: string | undefined): string {
  if (!data || data === '0x') return 'no reason given';
  for (const iface of serviceInterfaces()) {
    try {
      const parsed = iface.parseError(data);
      if (!parsed) continue;
      if (parsed.name === 'Error') return String(parsed.args[0]);
      if (parsed.name === 'Panic') return `panic code ${String(parsed.args[0])}`;
      const args = parsed.args.map((a) => String(a)).join(', ');
      return `${parsed.name}(${args})`;
    } catch {
      // Not this contract's error; try the next.
    }
  }
  return `unknown error data ${data.slice(0, 74)}`;
}

/** True when an ethers error says the EVM reverted (as opposed to the node being unreachable). */
export function isRevert(err: unknown): boolean {
  if (isError(err, 'CALL_EXCEPTION')) return true;
  const text = String((err as { message?: unknown })?.message ?? '');
  return /revert/i.test(text);
}

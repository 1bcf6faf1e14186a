import { getAddress, isAddress } from 'ethers';

/**
 * Whom a proof must name to be believed (docs/chain.md "Trust anchor"): per chain id, the deployment's
 * contracts and the address that writes to them. A proof carries its own `contract`; without an anchor
 * anyone could deploy a DocumentRoots of their own, anchor a forged document on it and hand out a proof
 * that checks out against the chain. The service publishes its anchor (ChainService.GetTrustAnchor, the
 * gateway's GET /trust-anchor.json); the verifier takes it as a file or on the command line.
 */
export interface TrustedChain {
  /** The network's name in the service (informative). */
  network?: string | undefined;
  /** The address that writes anchors and roots: the service's signer on that chain. */
  signer: string;
  contracts: {
    documentRoots?: string | undefined;
    documentRegistry?: string | undefined;
    keyValueStore?: string | undefined;
    nft?: string | undefined;
  };
}

/** Keyed by chain id (decimal, as JSON object keys are strings). */
export type TrustAnchor = Record<string, TrustedChain>;

const CONTRACTS = ['documentRoots', 'documentRegistry', 'keyValueStore', 'nft'] as const;

/** The anchor of a service's networks: each network once (aliases share their target), its signer and contracts. */
export function trustAnchorOf(networks: readonly { name: string; chainId: number; signerAddress: string; contracts: TrustedChain['contracts'] }[]): TrustAnchor {
  const anchor: TrustAnchor = {};
  for (const n of networks) {
    const contracts: TrustedChain['contracts'] = {};
    for (const c of CONTRACTS) if (n.contracts[c]) contracts[c] = getAddress(n.contracts[c]);
    anchor[String(n.chainId)] = { network: n.name, signer: getAddress(n.signerAddress), contracts };
  }
  return anchor;
}

/**
 * A trust anchor as an operator publishes it (JSON), checked: chain ids are decimal integers, the signer
 * and every contract are addresses, and at least one document contract is named. Throws with the first
 * problem, naming where it is.
 */
export function parseTrustAnchor(value: unknown): TrustAnchor {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('a trust anchor is a JSON object keyed by chain id');
  const anchor: TrustAnchor = {};
  for (const [chainId, entry] of Object.entries(value as Record<string, unknown>)) {
    if (!/^[1-9][0-9]{0,18}$/.test(chainId)) throw new Error(`"${chainId.slice(0, 32)}" is not a chain id (a decimal integer)`);
    const e = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
    if (typeof e['signer'] !== 'string' || !isAddress(e['signer'])) throw new Error(`chain ${chainId}: signer must be an address`);
    const given = (typeof e['contracts'] === 'object' && e['contracts'] !== null ? e['contracts'] : {}) as Record<string, unknown>;
    const contracts: TrustedChain['contracts'] = {};
    for (const c of CONTRACTS) {
      const address = given[c];
      if (address === undefined || address === '') continue;
      if (typeof address !== 'string' || !isAddress(address)) throw new Error(`chain ${chainId}: contracts.${c} must be an address`);
      contracts[c] = getAddress(address);
    }
    if (!contracts.documentRoots && !contracts.documentRegistry) throw new Error(`chain ${chainId}: contracts must name documentRoots or documentRegistry`);
    anchor[chainId] = { ...(typeof e['network'] === 'string' ? { network: e['network'] } : {}), signer: getAddress(e['signer']), contracts };
  }
  if (Object.keys(anchor).length === 0) throw new Error('the trust anchor names no chain');
  return anchor;
}

/** The contract a proof of this method must name on this chain, by the anchor; undefined when it names none. */
export function trustedContractOf(anchor: TrustAnchor, chainId: number, method: 'merkle' | 'anchor'): string | undefined {
  const chain = anchor[String(chainId)];
  return method === 'merkle' ? chain?.contracts.documentRoots : chain?.contracts.documentRegistry;
}

/** The writer the anchor trusts on this chain; undefined when it names the chain not. */
export function trustedSignerOf(anchor: TrustAnchor, chainId: number): string | undefined {
  return anchor[String(chainId)]?.signer;
}

import { InvalidArgumentError } from '@green-impact/shared/errors';
import type { Logger } from '@green-impact/shared/logger';
import { deployEmbeddedContracts } from '../contracts/deploy-contracts.js';
import { connectRemoteNetwork, startEmbeddedNetwork, type ChainNetwork } from './chain-network.js';
import type { NetworkSpec } from './network-spec.js';
import { trustAnchorOf, type TrustAnchor } from '../proofs/trust-anchor.js';
import { RemoteSigner } from './remote-signer.js';
import { DEFAULT_RELAY_QUOTA, type RelayQuotaSettings } from './relay-quota.js';

export interface NamedNetwork {
  /** The name as configured (an alias stays an alias). */
  name: string;
  aliasOf: string | undefined;
  network: ChainNetwork;
}

/** The configured networks by name, aliases included. */
export class NetworkRegistry {
  private constructor(private readonly byName: Map<string, NamedNetwork>) {}

  /** Connects (or starts, for embedded ones) every network; aliases resolve to their target. */
  static async open(specs: NetworkSpec[], log: Logger, relayQuota: RelayQuotaSettings = DEFAULT_RELAY_QUOTA): Promise<NetworkRegistry> {
    const byName = new Map<string, NamedNetwork>();
    const opened: ChainNetwork[] = [];
    try {
      for (const spec of specs) {
        if (spec.kind === 'alias') continue;
        const network = spec.kind === 'embedded' ? await startEmbeddedNetwork(spec, relayQuota) : connectRemoteNetwork(spec, relayQuota);
        opened.push(network);
        if (spec.kind === 'embedded') await deployEmbeddedContracts(network);
        if (network.wallet instanceof RemoteSigner) await checkRemoteSigner(spec.name, network.wallet, log);
        byName.set(spec.name, { name: spec.name, aliasOf: undefined, network });
        log.info(
          { network: spec.name, chainId: spec.chainId, embedded: network.embedded, signer: network.signerAddress, contracts: network.contracts },
          'network ready',
        );
      }
      for (const spec of specs) {
        if (spec.kind !== 'alias') continue;
        const target = byName.get(spec.aliasOf);
        if (!target) throw new Error(`Network alias ${spec.name} names unknown network ${spec.aliasOf}`);
        byName.set(spec.name, { name: spec.name, aliasOf: spec.aliasOf, network: target.network });
      }
    } catch (err) {
      for (const n of opened) n.close();
      throw err;
    }
    return new NetworkRegistry(byName);
  }

  /** The network a client named, or INVALID_ARGUMENT listing the known names. */
  resolve(name: string): NamedNetwork {
    const found = this.byName.get(name.trim());
    if (found) return found;
    if (!name.trim()) throw new InvalidArgumentError(`network is required; one of ${this.names().join(', ')}.`, { field: 'network' });
    throw new InvalidArgumentError(`Unknown network "${name}"; expected one of ${this.names().join(', ')}.`, { field: 'network' });
  }

  /** The network a stored job runs on (its canonical name, never an alias). */
  byCanonicalName(name: string): ChainNetwork | undefined {
    const found = this.byName.get(name);
    return found && !found.aliasOf ? found.network : undefined;
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  list(): NamedNetwork[] {
    return [...this.byName.values()];
  }

  /** Distinct networks (aliases left out). */
  networks(): ChainNetwork[] {
    return this.list().filter((n) => !n.aliasOf).map((n) => n.network);
  }

  /** Whom a proof of this deployment names (docs/chain.md "Trust anchor"): each network's contracts and signer, by chain id. */
  trustAnchor(): TrustAnchor {
    return trustAnchorOf(this.list().filter((n) => !n.aliasOf).map(({ name, network: n }) => ({ name, chainId: n.chainId, signerAddress: n.signerAddress, contracts: n.contracts })));
  }

  close(): void {
    for (const n of this.networks()) n.close();
  }
}

/**
 * A remote signer that answers but does not hold the configured account is a configuration error: stop
 * at start. One that does not answer yet is not (it may start after this service): jobs wait queued.
 */
async function checkRemoteSigner(name: string, signer: RemoteSigner, log: Logger): Promise<void> {
  let accounts: string[];
  try {
    accounts = await signer.accounts();
  } catch (err) {
    log.warn({ network: name, err: (err as Error).message }, 'remote signer not reachable at start; jobs stay queued until it answers');
    return;
  }
  const address = await signer.getAddress();
  if (!accounts.includes(address)) {
    throw new Error(`Network ${name}: the remote signer holds ${accounts.join(', ') || 'no account'}, not the configured ${address} (remoteSigner.address).`);
  }
}

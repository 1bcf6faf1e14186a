#!/usr/bin/env node
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { formatEther, Wallet, type Signer } from 'ethers';
import { ConfigError, processEnvironment, type Env } from '@green-impact/shared/config';
import { loadNetworkSpecs } from '../config.js';
import { connectRemoteNetwork } from '../networks/chain-network.js';
import type { RemoteNetworkSpec } from '../networks/network-spec.js';
import { deployOrVerify } from './deploy-network.js';

/**
 * greenimpact-deploy-contracts [--network <name>]…
 *
 * Deploys the service's four contracts (KeyValueStore, DocumentRegistry, DocumentRoots, GreenImpactNft)
 * on the real networks of CHAIN_NETWORKS / CHAIN_NETWORKS_FILE — the same JSON and signer settings the
 * chain service reads — or verifies an existing deployment, with the network's signer as writer and NFT
 * owner (deploy-network.ts). Idempotent: run it again and it deploys nothing that is there. Prints the
 * networks JSON with every `contracts` block filled (stdout; progress on stderr), ready for the
 * `chain-networks` Secret. The deployer is the signer itself unless CHAIN_DEPLOYER_KEY_<NAME> or
 * CHAIN_DEPLOYER_KEY_FILE names another funded key (the signer's nonces then stay its jobs' own).
 * Exit 0: every network deployed or verified; 1: a network failed; 2: usage or configuration.
 */
const USAGE = 'usage: greenimpact-deploy-contracts [--network <name>]…   (reads CHAIN_NETWORKS or CHAIN_NETWORKS_FILE)';

async function main(env: Env): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({ options: { network: { type: 'string', multiple: true }, help: { type: 'boolean' } }, strict: true }));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  let entries: Record<string, unknown>[];
  let remotes: RemoteNetworkSpec[];
  try {
    if (!env['CHAIN_NETWORKS']?.trim() && !env['CHAIN_NETWORKS_FILE']?.trim()) {
      throw new ConfigError('Set CHAIN_NETWORKS or CHAIN_NETWORKS_FILE to the networks to deploy on (docs/chain.md); the embedded networks deploy their own contracts.');
    }
    const specs = loadNetworkSpecs(env);
    entries = JSON.parse(env['CHAIN_NETWORKS']?.trim() || readFileSync(env['CHAIN_NETWORKS_FILE']!.trim(), 'utf8')) as Record<string, unknown>[];
    const wanted = values.network ?? [];
    const unknown = wanted.filter((n) => !specs.some((s) => s.kind === 'remote' && s.name === n));
    if (unknown.length) throw new ConfigError(`--network ${unknown.join(', ')}: not a network of CHAIN_NETWORKS (aliases share their target's contracts).`);
    remotes = specs.filter((s): s is RemoteNetworkSpec => s.kind === 'remote' && (wanted.length === 0 || wanted.includes(s.name)));
  } catch (err) {
    process.stderr.write(`${err instanceof ConfigError ? err.message : `configuration: ${(err as Error).message}`}\n`);
    return 2;
  }
  let failed = false;
  for (const spec of remotes) {
    const network = connectRemoteNetwork(spec);
    const log = (line: string) => process.stderr.write(`[${spec.name}] ${line}\n`);
    try {
      const deployer = deployerFor(spec, env, network.provider) ?? network.wallet;
      const deployerAddress = await deployer.getAddress();
      const chainId = (await network.provider.send('eth_chainId', [])) as string;
      if (BigInt(chainId) !== BigInt(spec.chainId)) throw new Error(`the node at ${network.rpcUrlShown} serves chain ${BigInt(chainId)}, not chainId ${spec.chainId}.`);
      const balance = await network.provider.getBalance(deployerAddress);
      log(`deployer ${deployerAddress} holds ${formatEther(balance)} ${spec.nativeCurrencySymbol}; signer ${network.signerAddress}`);
      const { contracts } = await deployOrVerify({ provider: network.provider, deployer, signerAddress: network.signerAddress, configured: spec.contracts, log });
      const entry = entries.find((e) => e['name'] === spec.name)!;
      entry['contracts'] = { ...((entry['contracts'] as object | undefined) ?? {}), ...contracts };
      const signerBalance = await network.provider.getBalance(network.signerAddress);
      if (signerBalance === 0n) log(`the signer ${network.signerAddress} holds nothing: fund it before jobs can be sent (they stay queued).`);
    } catch (err) {
      failed = true;
      log(`failed: ${(err as Error).message}`);
    } finally {
      network.close();
    }
  }
  process.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
  return failed ? 1 : 0;
}

/** CHAIN_DEPLOYER_KEY_<NAME> or CHAIN_DEPLOYER_KEY_FILE: a separate funded deployer; none: the signer deploys. */
function deployerFor(spec: RemoteNetworkSpec, env: Env, provider: ConstructorParameters<typeof Wallet>[1]): Signer | undefined {
  const named = `CHAIN_DEPLOYER_KEY_${spec.name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
  const file = env['CHAIN_DEPLOYER_KEY_FILE']?.trim();
  // The Job mounts an optional Secret there: no file, the signer deploys.
  const key = env[named]?.trim() || (file && existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined);
  if (!key) return undefined;
  try {
    return new Wallet(key.startsWith('0x') ? key : `0x${key}`, provider);
  } catch {
    throw new ConfigError(`the deployer key from ${env[named]?.trim() ? named : 'CHAIN_DEPLOYER_KEY_FILE'} must be 32 bytes of hex.`);
  }
}

process.exitCode = await main(processEnvironment());

import { Contract, ContractFactory, getAddress, getCreateAddress, type Provider, type Signer } from 'ethers';
import type { ContractAddresses } from '../networks/chain-network.js';
import { contractArtifact, type ContractName } from './artifacts.js';

/** The four contracts in deployment order, with the key of their address in `contracts` of a network entry. */
export const SERVICE_CONTRACTS: readonly { name: ContractName; field: keyof ContractAddresses }[] = [
  { name: 'KeyValueStore', field: 'keyValueStore' },
  { name: 'DocumentRegistry', field: 'documentRegistry' },
  { name: 'DocumentRoots', field: 'documentRoots' },
  { name: 'GreenImpactNft', field: 'nft' },
];

/** How far back the deployer's own transactions are searched for an earlier deployment (one eth_getCode each). */
const SEARCH_NONCES = 256;

export interface ContractOutcome {
  name: ContractName;
  address: string;
  /** deployed now; found at a configured address; found among the deployer's earlier deployments. */
  how: 'deployed' | 'configured' | 'found';
  /** Its code is this build's (an older build's contract at a configured address still serves: docs/chain.md). */
  currentCode: boolean;
  /** setWriter(signer) or transferOwnership(signer) sent now. */
  granted: boolean;
}

export interface DeployNetworkOptions {
  provider: Provider;
  /** Pays for the deployment; owns KeyValueStore, DocumentRegistry and DocumentRoots (setWriter). */
  deployer: Signer;
  /** The service's signer: writer of the three registries, owner (custody wallet) of the NFT contract. */
  signerAddress: string;
  /** Addresses already configured for this network (networks.json `contracts`). */
  configured: ContractAddresses;
  log?: (line: string) => void;
}

/**
 * Deploys the service's contracts on any EVM network, or verifies an existing deployment: a configured
 * address must hold contract code and give the signer its role; a missing one is first looked for among
 * the deployer's own earlier deployments (CREATE addresses of its past nonces, this build's code, the
 * signer's role), so running again after an interruption deploys nothing twice, and only then deployed.
 * The signer ends as writer of KeyValueStore, DocumentRegistry and DocumentRoots and as owner of
 * GreenImpactNft; a missing role is granted when the deployer may grant it, otherwise it is an error.
 */
export async function deployOrVerify(opts: DeployNetworkOptions): Promise<{ contracts: Required<ContractAddresses>; outcomes: ContractOutcome[] }> {
  const log = opts.log ?? (() => undefined);
  const signer = getAddress(opts.signerAddress);
  const deployerAddress = getAddress(await opts.deployer.getAddress());
  const outcomes: ContractOutcome[] = [];
  const contracts: ContractAddresses = {};
  for (const { name, field } of SERVICE_CONTRACTS) {
    const { abi, bytecode, deployedBytecode } = contractArtifact(name);
    let address = opts.configured[field];
    let how: ContractOutcome['how'] = 'configured';
    if (address) {
      const code = await opts.provider.getCode(address);
      if (code === '0x') throw new Error(`contracts.${field} (${address}) holds no contract on this network.`);
    } else {
      address = await findEarlierDeployment(opts.provider, deployerAddress, deployedBytecode, (a) => holdsRole(name, a, opts.provider, signer));
      how = 'found';
      if (!address) {
        const args = name === 'DocumentRoots' || name === 'GreenImpactNft' ? [signer] : [];
        const contract = await new ContractFactory(abi, bytecode, opts.deployer).deploy(...args);
        await contract.waitForDeployment();
        address = await contract.getAddress();
        how = 'deployed';
      }
    }
    address = getAddress(address);
    const currentCode = (await opts.provider.getCode(address)).toLowerCase() === deployedBytecode.toLowerCase();
    let granted = false;
    if (!(await holdsRole(name, address, opts.provider, signer))) {
      await grantRole(name, address, opts.deployer, deployerAddress, signer, field);
      granted = true;
    }
    contracts[field] = address;
    outcomes.push({ name, address, how, currentCode, granted });
    log(`${name} ${address}: ${how}${currentCode ? '' : ' (code of an earlier build)'}${granted ? `, role granted to ${signer}` : `, ${signer} holds its role`}`);
  }
  return { contracts: contracts as Required<ContractAddresses>, outcomes };
}

/** The signer is writer (registries) or owner (NFT, which mints to its owner's custody wallet). */
async function holdsRole(name: ContractName, address: string, provider: Provider, signer: string): Promise<boolean> {
  const contract = new Contract(address, contractArtifact(name).abi, provider);
  try {
    if (name === 'GreenImpactNft') return getAddress((await contract.getFunction('owner')()) as string) === signer;
    return (await contract.getFunction('writers')(signer)) as boolean;
  } catch {
    return false; // not one of ours (no such function)
  }
}

async function grantRole(name: ContractName, address: string, deployer: Signer, deployerAddress: string, signer: string, field: string): Promise<void> {
  const contract = new Contract(address, contractArtifact(name).abi, deployer);
  const owner = getAddress((await contract.getFunction('owner')()) as string);
  if (owner !== deployerAddress) {
    throw new Error(
      `contracts.${field} (${address}): ${signer} lacks its role and the deployer ${deployerAddress} cannot grant it (the owner is ${owner}); ` +
        `the owner must call ${name === 'GreenImpactNft' ? `transferOwnership(${signer})` : `setWriter(${signer}, true)`}.`,
    );
  }
  const tx = name === 'GreenImpactNft'
    ? await contract.getFunction('transferOwnership')(signer)
    : await contract.getFunction('setWriter')(signer, true);
  await (tx as { wait(): Promise<unknown> }).wait();
}

/** The newest CREATE address of the deployer's past nonces that holds `code` and passes `fits`. */
async function findEarlierDeployment(provider: Provider, deployer: string, code: string, fits: (address: string) => Promise<boolean>): Promise<string | undefined> {
  const used = await provider.getTransactionCount(deployer, 'latest');
  for (let nonce = used - 1; nonce >= Math.max(0, used - SEARCH_NONCES); nonce--) {
    const address = getCreateAddress({ from: deployer, nonce });
    if ((await provider.getCode(address)).toLowerCase() === code.toLowerCase() && (await fits(address))) return address;
  }
  return undefined;
}

import { ContractFactory } from 'ethers';
import type { ChainNetwork } from '../networks/chain-network.js';
import { contractArtifact, type ContractName } from './artifacts.js';

/**
 * Deploys the service's contracts on an embedded network at start (they start empty every time). Real
 * networks get the addresses of contracts deployed once by an operator (CHAIN_NETWORKS).
 */
export async function deployEmbeddedContracts(network: ChainNetwork): Promise<void> {
  network.contracts.keyValueStore = await deploy(network, 'KeyValueStore');
  network.contracts.documentRegistry = await deploy(network, 'DocumentRegistry');
  // Owned by the signer, which mints to itself (the custody wallet) and transfers from there.
  network.contracts.nft = await deploy(network, 'GreenImpactNft', network.signerAddress);
}

async function deploy(network: ChainNetwork, name: ContractName, ...args: unknown[]): Promise<string> {
  const { abi, bytecode } = contractArtifact(name);
  const contract = await new ContractFactory(abi, bytecode, network.wallet).deploy(...args);
  await contract.waitForDeployment();
  return contract.getAddress();
}

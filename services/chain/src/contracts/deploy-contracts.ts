import { ContractFactory, Wallet, type Signer } from 'ethers';
import { EMBEDDED_SECOND_DEPLOYER_KEY } from '../networks/embedded-chain.js';
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
  // Later contracts come from a second key: the signer's nonces after the three above belong to its jobs.
  const second = new Wallet(EMBEDDED_SECOND_DEPLOYER_KEY, network.provider);
  network.contracts.documentRoots = await deploy(network, 'DocumentRoots', network.signerAddress, second);
}

async function deploy(network: ChainNetwork, name: ContractName, arg?: string, deployer: Signer = network.wallet): Promise<string> {
  const { abi, bytecode } = contractArtifact(name);
  const contract = await new ContractFactory(abi, bytecode, deployer).deploy(...(arg ? [arg] : []));
  await contract.waitForDeployment();
  return contract.getAddress();
}

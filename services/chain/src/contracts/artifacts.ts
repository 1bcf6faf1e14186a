import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { InterfaceAbi } from 'ethers';

export type ContractName = 'KeyValueStore' | 'DocumentRegistry' | 'DocumentRoots' | 'GreenImpactNft';

export interface ContractArtifact {
  abi: InterfaceAbi;
  bytecode: string;
  deployedBytecode: string;
}

/** Written by scripts/compile-contracts.mjs during the build (solc-js, offline). */
const ARTIFACTS_FILE = fileURLToPath(new URL('../../generated/contracts.json', import.meta.url));

let cached: Record<string, ContractArtifact> | undefined;

export function contractArtifact(name: ContractName): ContractArtifact {
  if (!cached) {
    if (!existsSync(ARTIFACTS_FILE)) {
      throw new Error(
        `Contract artifacts are missing (${ARTIFACTS_FILE}); run the build (npm run build) or ` +
          'npm run compile-contracts --workspace=@green-impact/chain',
      );
    }
    cached = (JSON.parse(readFileSync(ARTIFACTS_FILE, 'utf8')) as { contracts: Record<string, ContractArtifact> }).contracts;
  }
  const artifact = cached[name];
  if (!artifact) throw new Error(`Contract ${name} is not in ${ARTIFACTS_FILE}; rebuild the contracts.`);
  return artifact;
}

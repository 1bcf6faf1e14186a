import { createRequire } from 'node:module';
import { Wallet } from 'ethers';
import type { Eip1193 } from './eip1193-provider.js';

const require = createRequire(import.meta.url);

interface HardhatProviderModule {
  createHardhatNetworkProvider(config: Record<string, unknown>, logger: { enabled: boolean }): Promise<Eip1193>;
}

/** Balance of the embedded signer: plenty for any local workload. */
const SIGNER_BALANCE = 10n ** 24n;

/**
 * Deploys the contracts added after the first ones (DocumentRoots): Hardhat's second well-known
 * development key (worthless by design). Its own nonce sequence gives them the same address on every
 * start without taking a nonce of the signer, whose history is replayed nonce by nonce after a restart.
 */
export const EMBEDDED_SECOND_DEPLOYER_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';

/**
 * Starts a local EVM (Hardhat 2's EDR) in this process: no server, no download. It behaves like a real
 * node where the service can tell: failing transactions are mined with status 0 (not thrown at send),
 * failing calls throw, fees follow EIP-1559 (cancun, the contracts' EVM version), every transaction is
 * mined at once (automine) unless a test turns that off.
 */
export async function startEmbeddedChain(opts: { chainId: number; signerKey: string }): Promise<Eip1193> {
  // Hardhat 2 has no public entry point for a network without a project config; this is the function its
  // own `hre.network.provider` uses.
  let mod: HardhatProviderModule;
  try {
    mod = require('hardhat/internal/hardhat-network/provider/provider') as HardhatProviderModule;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw err;
    // Production images leave Hardhat out (an optional dependency): they run real networks only.
    throw new Error(
      'The embedded networks need Hardhat, which this installation leaves out (production images do): set CHAIN_NETWORKS ' +
        'or CHAIN_NETWORKS_FILE to real networks (docs/chain.md), or use the chain-embedded image for development.',
    );
  }
  new Wallet(opts.signerKey); // throws early on a malformed key
  return mod.createHardhatNetworkProvider(
    {
      chainId: opts.chainId,
      networkId: opts.chainId,
      hardfork: 'cancun',
      blockGasLimit: 30_000_000,
      minGasPrice: 0n,
      initialBaseFeePerGas: 1_000_000_000,
      automine: true,
      intervalMining: 0,
      mempoolOrder: 'priority',
      chains: new Map(),
      genesisAccounts: [
        { privateKey: opts.signerKey, balance: SIGNER_BALANCE },
        { privateKey: EMBEDDED_SECOND_DEPLOYER_KEY, balance: SIGNER_BALANCE },
      ],
      allowUnlimitedContractSize: false,
      throwOnTransactionFailures: false,
      throwOnCallFailures: true,
      allowBlocksWithSameTimestamp: false,
      enableTransientStorage: false,
      enableRip7212: false,
    },
    { enabled: false },
  );
}

// (c) the raw chain rate: N insertString transactions sent with ethers straight to a fresh embedded
// Hardhat network (automine), every receipt awaited; what the chain service's jobs/s is compared with.
import { performance } from 'node:perf_hooks';
import { ContractFactory, Interface, Wallet } from 'ethers';
import { importDist } from './system.mjs';

const round = (x, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

export async function rawChain({ transactions: CHAIN_N, progress }) {
  progress(`(c) ${CHAIN_N} raw insertString transactions straight to an embedded Hardhat network…`);
  const { startEmbeddedChain } = await importDist('services/chain/dist/networks/embedded-chain.js');
  const { Eip1193JsonRpcProvider } = await importDist('services/chain/dist/networks/eip1193-provider.js');
  const { contractArtifact } = await importDist('services/chain/dist/contracts/artifacts.js');
  const { EMBEDDED_SIGNER_KEY } = await importDist('services/chain/dist/networks/network-spec.js');
  const { accountNamespace } = await importDist('services/chain/dist/key-value/key-value-rules.js');
  const chainId = 31_999;
  const edr = await startEmbeddedChain({ chainId, signerKey: EMBEDDED_SIGNER_KEY });
  const provider = new Eip1193JsonRpcProvider(edr, 'bench', chainId);
  const wallet = new Wallet(EMBEDDED_SIGNER_KEY, provider);
  const artifact = contractArtifact('KeyValueStore');
  const contract = await new ContractFactory(artifact.abi, artifact.bytecode, wallet).deploy();
  await contract.waitForDeployment();
  const to = await contract.getAddress();
  const kv = new Interface(artifact.abi);
  const namespace = accountNamespace('bench');
  const fees = await provider.getFeeData();
  const nonce = await provider.getTransactionCount(wallet.address, 'pending');
  const started = performance.now();
  const sent = [];
  for (let i = 0; i < CHAIN_N; i++) {
    sent.push(
      await wallet.sendTransaction({
        to,
        data: kv.encodeFunctionData('insertString', [namespace, `bench-${i}`, `value ${i} ${'x'.repeat(64)}`]),
        nonce: nonce + i,
        gasLimit: 300_000,
        maxFeePerGas: fees.maxFeePerGas,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
        chainId,
      }),
    );
  }
  const receipts = await Promise.all(sent.map((tx) => tx.wait()));
  const seconds = (performance.now() - started) / 1000;
  provider.destroy();
  return {
    transactions: CHAIN_N,
    succeeded: receipts.filter((r) => r?.status === 1).length,
    totalMs: round(seconds * 1000),
    transactionsPerSecond: round(CHAIN_N / seconds),
  };
}


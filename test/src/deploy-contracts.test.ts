import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Contract, JsonRpcProvider, Wallet } from 'ethers';
import { contractArtifact } from '@green-impact/chain/contracts/artifacts';
import { EMBEDDED_SECOND_DEPLOYER_KEY } from '@green-impact/chain/networks/embedded-chain';
import { runDeployCommand, type CommandRun } from './support/deploy-command.js';
import { startRpcNodeProcess, type RpcNodeProcess } from './support/rpc-node.js';

const CHAIN_ID = 31_555;

/**
 * The deployment command against a separate JSON-RPC node process on an empty chain, reached over HTTP as
 * a real network is: it deploys the four contracts with the signer as writer and NFT owner, paid by a
 * separate deployer key, and prints the networks JSON; run again it finds its earlier deployment among
 * the deployer's nonces and deploys nothing; given the printed JSON it verifies the configured addresses.
 */
describe('greenimpact-deploy-contracts on a separate JSON-RPC node', { timeout: 120_000 }, () => {
  let node: RpcNodeProcess;
  let chain: JsonRpcProvider;
  let dir: string;
  /** The service's signer: a fresh key holding nothing (the command says it needs funds). */
  const signer = Wallet.createRandom();
  const deployer = new Wallet(EMBEDDED_SECOND_DEPLOYER_KEY);
  let env: Record<string, string>;
  let first: CommandRun;
  let printed: { name: string; contracts: Record<string, string> }[];

  before(async () => {
    node = await startRpcNodeProcess(CHAIN_ID, { deploy: false });
    chain = new JsonRpcProvider(node.url, CHAIN_ID, { staticNetwork: true, cacheTimeout: -1 });
    dir = mkdtempSync(join(tmpdir(), 'gi-deploy-'));
    env = {
      CHAIN_NETWORKS: JSON.stringify([{ name: 'local', chainId: CHAIN_ID, rpcUrl: node.url, confirmations: 1, pollIntervalMs: 100 }]),
      CHAIN_SIGNER_KEY_LOCAL: signer.privateKey,
      CHAIN_DEPLOYER_KEY_LOCAL: deployer.privateKey,
    };
    first = await runDeployCommand(env);
    printed = JSON.parse(first.stdout) as typeof printed;
  });

  after(async () => {
    chain?.destroy();
    await node?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('deploys the four contracts with the signer as writer and NFT owner, and prints the networks JSON', async () => {
    assert.equal(first.code, 0, first.stderr);
    const contracts = printed[0]!.contracts;
    assert.deepEqual(Object.keys(contracts).sort(), ['documentRegistry', 'documentRoots', 'keyValueStore', 'nft']);
    assert.equal((first.stderr.match(/: deployed/g) ?? []).length, 4, first.stderr);
    for (const [field, name] of [['keyValueStore', 'KeyValueStore'], ['documentRegistry', 'DocumentRegistry'], ['documentRoots', 'DocumentRoots']] as const) {
      const contract = new Contract(contracts[field]!, contractArtifact(name).abi, chain);
      assert.equal(await contract.getFunction('writers')(signer.address), true, `${name}: the signer is a writer`);
      assert.equal(await chain.getCode(contracts[field]!), contractArtifact(name).deployedBytecode, `${name}: this build's code`);
    }
    const nft = new Contract(contracts['nft']!, contractArtifact('GreenImpactNft').abi, chain);
    assert.equal(await nft.getFunction('owner')(), signer.address);
    assert.equal(await chain.getTransactionCount(signer.address), 0, 'the signer spent no nonce: they stay its jobs\' own');
    assert.match(first.stderr, new RegExp(`the signer ${signer.address} holds nothing: fund it`));
    // Neither key is printed anywhere.
    for (const key of [signer.privateKey, deployer.privateKey]) assert.ok(!(first.stdout + first.stderr).includes(key.slice(2)));
  });

  it('run again, finds the earlier deployment among the deployer\'s nonces and deploys nothing', async () => {
    const nonce = await chain.getTransactionCount(deployer.address);
    const again = await runDeployCommand(env);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(JSON.parse(again.stdout), printed);
    assert.equal((again.stderr.match(/: found/g) ?? []).length, 4, again.stderr);
    assert.equal(await chain.getTransactionCount(deployer.address), nonce);
  });

  it('given the printed JSON as CHAIN_NETWORKS_FILE, verifies the configured addresses', async () => {
    const file = join(dir, 'networks.json');
    writeFileSync(file, JSON.stringify(printed));
    const { CHAIN_NETWORKS: _inline, ...keys } = env;
    const verify = await runDeployCommand({ ...keys, CHAIN_NETWORKS_FILE: file }, ['--network', 'local']);
    assert.equal(verify.code, 0, verify.stderr);
    assert.deepEqual(JSON.parse(verify.stdout), printed);
    assert.equal((verify.stderr.match(/: configured, 0x[0-9a-fA-F]{40} holds its role/g) ?? []).length, 4, verify.stderr);
  });

  it('refuses a configured address without a contract, a node of another chain, and an unknown network', async () => {
    const { CHAIN_NETWORKS: _inline, ...keys } = env;
    const empty = await runDeployCommand({
      ...keys,
      CHAIN_NETWORKS: JSON.stringify([{ name: 'local', chainId: CHAIN_ID, rpcUrl: node.url, contracts: { keyValueStore: signer.address } }]),
    });
    assert.equal(empty.code, 1);
    assert.match(empty.stderr, new RegExp(`contracts.keyValueStore \\(${signer.address}\\) holds no contract on this network`));
    const other = await runDeployCommand({ ...keys, CHAIN_NETWORKS: JSON.stringify([{ name: 'local', chainId: 1, rpcUrl: node.url }]) });
    assert.equal(other.code, 1);
    assert.match(other.stderr, new RegExp(`serves chain ${CHAIN_ID}, not chainId 1`));
    const unknown = await runDeployCommand(env, ['--network', 'sepolia']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /--network sepolia: not a network of CHAIN_NETWORKS/);
  });
});

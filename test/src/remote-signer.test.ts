import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonRpcProvider, Wallet } from 'ethers';
import { createLogger } from '@green-impact/shared/logger';
import { NetworkRegistry } from '@green-impact/chain/networks/network-registry';
import { DEFAULT_RPC_TIMEOUT_MS, DEFAULT_TUNING, type RemoteNetworkSpec } from '@green-impact/chain/networks/network-spec';
import { RemoteSigner } from '@green-impact/chain/networks/remote-signer';
import { createScratchPostgresDatabase, skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { listJobs } from './support/account-reads.js';
import { topologyEnv, topologyPorts } from './support/distributed.js';
import { succeeded, v1Call } from './support/outcomes.js';
import { until } from './support/poll.js';
import { startProcesses, type ProcessSet } from './support/processes.js';
import { NODE_SIGNER_KEY, startRemoteSignerProcess, startRpcNodeProcess, type RemoteSignerProcess, type RpcNodeProcess } from './support/rpc-node.js';
import { createUserAccount } from './support/system.js';
import { runDeployCommand } from './support/deploy-command.js';

const postgres = testDatabases.find((d) => d.name === 'postgresql')!;
const OPERATOR = 'gi_Qm1rT8vXcW2pLk9sZ4yNb7hJd3fGa6eRu0oIw5tEq1_'; // BOOTSTRAP_API_KEY: random (a weak one is refused at start)
const HASH = 'SVC.Blockchain.Hash';
const CHAIN_ID = 31_556;

/**
 * The chain service with no key of its own: a separate signer process holds the signer's key and answers
 * Web3Signer's eth_signTransaction; a separate JSON-RPC node (an empty chain) is the network. The
 * deployment command deploys the contracts through that signer, then identity, chain and the gateway run
 * as their own processes on a scratch PostgreSQL database and key-value jobs complete, each transaction
 * from the signer's address and signed by the signer process, in nonce order.
 */
describe('a remote signer (eth_signTransaction) instead of a key file', { skip: await skipReason(postgres), timeout: 180_000 }, () => {
  let db: { url: string; stop(): Promise<void> };
  let node: RpcNodeProcess;
  let signer: RemoteSignerProcess;
  let chain: JsonRpcProvider;
  let procs: ProcessSet | undefined;
  let contentDir: string;
  let apiKey: string;
  let network: Record<string, unknown>;

  before(async () => {
    [db, node, signer] = await Promise.all([createScratchPostgresDatabase(), startRpcNodeProcess(CHAIN_ID, { deploy: false }), startRemoteSignerProcess(NODE_SIGNER_KEY)]);
    chain = new JsonRpcProvider(node.url, CHAIN_ID, { staticNetwork: true, cacheTimeout: -1 });
    contentDir = mkdtempSync(join(tmpdir(), 'gi-remote-signer-'));
    network = { name: 'sepolia', chainId: CHAIN_ID, rpcUrl: node.url, confirmations: 1, pollIntervalMs: 100, remoteSigner: { url: signer.url, address: signer.address } };
  });

  after(async () => {
    const exits = await procs?.stop();
    chain?.destroy();
    await Promise.all([node?.stop(), signer?.stop(), db?.stop()]);
    if (contentDir) rmSync(contentDir, { recursive: true, force: true });
    assert.deepEqual(exits?.filter((e) => e.code !== 0), [], procs?.output().slice(-4000));
  });

  it('deploys the contracts through the remote signer, then the service signs every job there', async () => {
    const deployed = await runDeployCommand({ CHAIN_NETWORKS: JSON.stringify([network]) });
    assert.equal(deployed.code, 0, deployed.stderr);
    const [entry] = JSON.parse(deployed.stdout) as { contracts: Record<string, string> }[];
    const signedByDeploy = await signer.signed();
    assert.ok(signedByDeploy >= 4, `the four deployments were signed by the signer process (${signedByDeploy})`);
    const nonceBefore = await chain.getTransactionCount(signer.address);
    assert.equal(nonceBefore, signedByDeploy, 'every transaction of the signer so far came through the signer process');

    const env = topologyEnv(await topologyPorts(), {
      DATABASE_URL: db.url,
      DATABASE_POOL_SIZE: '4',
      CONTENT_DIR: contentDir,
      BOOTSTRAP_API_KEY: OPERATOR,
      CHAIN_NETWORKS: JSON.stringify([{ ...network, contracts: entry!.contracts }]),
      CHAIN_KV_BATCH: '1',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
    });
    procs = await startProcesses(env, ['identity', 'chain', 'gateway']);
    apiKey = await createUserAccount(procs.url, OPERATOR, 'Remote Signer Issuer');
    const hash = async (operation: string, parameters: Record<string, unknown>) => {
      const res = await v1Call(procs!.url, apiKey, { solution: HASH, version: 1, network: 'sepolia', operation, parameters });
      assert.ok(succeeded(res), `${operation}: ${JSON.stringify(res)}`);
      return (res as { body: any }).body;
    };
    const finished = (jobId: string) =>
      until(() => hash('fetch', { jobId }), (j) => ['completed', 'failed'].includes(j.info.status.Value), `job ${jobId}`, 30_000, 100);

    const keys = ['remote-0', 'remote-1', 'remote-2'];
    const ids: string[] = [];
    for (const key of keys) ids.push((await hash('insertString', { key, value: `v-${key}` })).info.jobId);
    const done = await Promise.all(ids.map(finished));
    assert.deepEqual(done.map((j) => j.info.status.Value), ['completed', 'completed', 'completed'], JSON.stringify(done.map((j) => j.info)));

    const listed = new Map((await listJobs(procs.url, apiKey)).map((j) => [j.id, j]));
    const txs = await Promise.all(ids.map((id) => chain.getTransaction(listed.get(id)!.txHash!)));
    assert.deepEqual(txs.map((tx) => tx?.from), keys.map(() => signer.address), 'sent from the remote signer\'s account');
    assert.deepEqual(txs.map((tx) => tx?.nonce), keys.map((_, i) => nonceBefore + i), 'the nonce manager\'s order');
    assert.equal(await signer.signed(), signedByDeploy + keys.length, 'each job signed once, by the signer process');
    const read = await finished((await hash('selectString', { key: 'remote-1' })).info.jobId);
    assert.deepEqual(read.info.result, { key: 'remote-1', value: 'v-remote-1' });
  });

  it('refuses to start when the signer does not hold the configured address', async () => {
    const other = Wallet.createRandom().address;
    const spec: RemoteNetworkSpec = {
      kind: 'remote', name: 'sepolia', chainId: CHAIN_ID, rpcUrl: node.url, nativeCurrencySymbol: 'ETH', contracts: {}, rpcTimeoutMs: DEFAULT_RPC_TIMEOUT_MS,
      ...DEFAULT_TUNING, remoteSigner: { url: signer.url, address: other, timeoutMs: 5_000 },
    };
    await assert.rejects(NetworkRegistry.open([spec], createLogger('remote-signer-test')), new RegExp(`holds ${signer.address}, not the configured ${other}`));
  });

  it('refuses a signed transaction other than the one asked for', async () => {
    // A signer that signs with the right key but another nonce: what a misconfigured one might do.
    const key = new Wallet(NODE_SIGNER_KEY);
    const tampering = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c));
      req.on('end', () => {
        const { id, params } = JSON.parse(body) as { id: number; params: Record<string, string>[] };
        const p = params[0]!;
        void key
          .signTransaction({ to: p['to']!, data: p['data']!, nonce: Number(p['nonce']) + 1, gasLimit: BigInt(p['gas']!), chainId: BigInt(p['chainId']!), type: 2, maxFeePerGas: BigInt(p['maxFeePerGas']!), maxPriorityFeePerGas: BigInt(p['maxPriorityFeePerGas']!) })
          .then((raw) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, result: raw })));
      });
    });
    await new Promise<void>((resolve) => tampering.listen(0, '127.0.0.1', resolve));
    try {
      const remote = new RemoteSigner({ url: `http://127.0.0.1:${(tampering.address() as AddressInfo).port}`, address: key.address, timeoutMs: 5_000 }, CHAIN_ID);
      await assert.rejects(
        remote.signTransaction({ to: key.address, data: '0x', nonce: 7, gasLimit: 21_000n, chainId: BigInt(CHAIN_ID), type: 2, maxFeePerGas: 2n, maxPriorityFeePerGas: 1n }),
        /signed a different transaction than asked \(nonce 8\); not sent/,
      );
    } finally {
      tampering.close();
    }
  });
});

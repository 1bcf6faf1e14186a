import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { toQuantity } from 'ethers';
import { metricsRegistry } from '@green-impact/shared/metrics';
import { startRpcNode, type RpcNode } from '@green-impact/testing/chain/rpc-node';
import { connectRemoteNetwork, type ChainNetwork } from './chain-network.js';
import { DEFAULT_RPC_TIMEOUT_MS, DEFAULT_TUNING, EMBEDDED_SIGNER_KEY } from './network-spec.js';
import { LIMIT_EXCEEDED, type RelayQuotaSettings } from './relay-quota.js';

/**
 * The public relay's bounds (issue 46), against a real node (Hardhat's EVM served over HTTP) behind a
 * proxy that sees every call and can hold eth_call: the gas and the time of eth_call / eth_estimateGas,
 * and the gateway's pages on a quota apart from anonymous /rpc.
 */

const MAX_GAS = 1_000_000;
let node: RpcNode;
let proxy: http.Server;
let proxyUrl: string;
/** The calls that reached the node: method and params. */
const seen: Array<{ method: string; params: unknown[] }> = [];
/** While set, eth_call waits here before it goes to the node. */
let hold: Promise<void> | undefined;

before(async () => {
  node = await startRpcNode({ chainId: 31_998, signerKey: EMBEDDED_SIGNER_KEY });
  proxy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const call = JSON.parse(body.toString('utf8')) as { method: string; params: unknown[] };
      seen.push(call);
      if (call.method === 'eth_call' && hold) await hold;
      const answer = await fetch(node.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      res.writeHead(200, { 'content-type': 'application/json' }).end(Buffer.from(await answer.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
after(async () => {
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  await node.close();
});

function network(name: string, quota: RelayQuotaSettings): ChainNetwork {
  return connectRemoteNetwork(
    { kind: 'remote', name, chainId: 31_998, rpcUrl: proxyUrl, nativeCurrencySymbol: 'ETH', signerKey: EMBEDDED_SIGNER_KEY, contracts: {}, rpcTimeoutMs: DEFAULT_RPC_TIMEOUT_MS, ...DEFAULT_TUNING },
    quota,
  );
}

type Answer = { result?: unknown; error?: { code: number; message: string } };
async function relay(net: ChainNetwork, method: string, params: unknown[], source?: 'public' | 'pages'): Promise<Answer> {
  return JSON.parse((await net.relay(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })), source)).toString('utf8')) as Answer;
}

async function refusals(network: string, quota: string, reason: string): Promise<number> {
  const metric = await metricsRegistry.getSingleMetric('chain_relay_refused_calls_total')!.get();
  return metric.values.find((v) => v.labels['network'] === network && v.labels['quota'] === quota && v.labels['reason'] === reason)?.value ?? 0;
}

test('eth_call and eth_estimateGas: more gas than CHAIN_RELAY_MAX_GAS is refused before the node; a call without gas is given the cap', async () => {
  const net = network('gas-test', { perSecond: 100, burst: 100, maxConcurrent: 4, maxGas: MAX_GAS });
  try {
    const tx = { from: node.network.signerAddress, to: node.network.signerAddress, value: '0x1' };
    for (const method of ['eth_call', 'eth_estimateGas']) {
      const before = seen.length;
      const greedy = await relay(net, method, [{ ...tx, gas: toQuantity(MAX_GAS + 1) }, 'latest']);
      assert.deepEqual(greedy.error, { code: -32602, message: `gas must be at most ${MAX_GAS} (${toQuantity(MAX_GAS)}) through this relay` });
      assert.equal(seen.length, before, `${method} with too much gas never reached the node`);

      const plain = await relay(net, method, [tx, 'latest']);
      assert.equal(plain.error, undefined, JSON.stringify(plain));
      assert.equal((seen.at(-1)!.params[0] as { gas?: string }).gas, toQuantity(MAX_GAS), `${method} without gas reached the node with the cap`);
      const within = await relay(net, method, [{ ...tx, gas: toQuantity(50_000) }, 'latest']);
      assert.equal(within.error, undefined);
      assert.equal((seen.at(-1)!.params[0] as { gas?: string }).gas, toQuantity(50_000), 'a gas within the cap is left as asked');
    }
    assert.equal(await refusals('gas-test', 'public', 'gas'), 2);
  } finally {
    net.close();
  }
});

test('an eth_call slower than CHAIN_RELAY_CALL_TIMEOUT_MS is answered "limit exceeded", and holds its place in flight until the node is done', async () => {
  const net = network('time-test', { perSecond: 100, burst: 100, maxConcurrent: 1, callTimeoutMs: 200 });
  let release!: () => void;
  hold = new Promise<void>((resolve) => (release = resolve));
  try {
    const slow = await relay(net, 'eth_call', [{ to: node.network.signerAddress, data: '0x' }, 'latest']);
    assert.deepEqual(slow.error, { code: LIMIT_EXCEEDED, message: 'eth_call took longer than the relay allows on network time-test (200 ms)' });
    assert.equal(await refusals('time-test', 'public', 'time'), 1);
    // The node still works on it: the one place in flight is taken.
    const meanwhile = await relay(net, 'eth_blockNumber', []);
    assert.equal(meanwhile.error?.code, LIMIT_EXCEEDED);
    assert.equal(await refusals('time-test', 'public', 'concurrency'), 1);
    release();
    hold = undefined;
    let after: Answer = meanwhile;
    for (let i = 0; i < 100 && after.error; i++) {
      await new Promise((r) => setTimeout(r, 20));
      after = await relay(net, 'eth_blockNumber', []);
    }
    assert.equal(after.error, undefined, 'the place is free once the node answered the held call');
  } finally {
    release();
    hold = undefined;
    net.close();
  }
});

test('the pages have a quota of their own: a flood of anonymous /rpc spends its quota, not theirs', async () => {
  const net = network('pages-test', { perSecond: 1, burst: 3, maxConcurrent: 4, pages: { perSecond: 1, burst: 3, maxConcurrent: 4 } });
  try {
    const flood = await Promise.all(Array.from({ length: 20 }, () => relay(net, 'eth_blockNumber', [])));
    const refused = flood.filter((a) => a.error?.code === LIMIT_EXCEEDED).length;
    assert.ok(refused >= 16, `${refused} of 20 flooding calls refused`);
    assert.equal(await refusals('pages-test', 'public', 'rate'), refused);
    for (let i = 0; i < 3; i++) assert.equal((await relay(net, 'eth_blockNumber', [], 'pages')).error, undefined, 'the pages still read');
    assert.equal(await refusals('pages-test', 'pages', 'rate'), 0);
  } finally {
    net.close();
  }
});

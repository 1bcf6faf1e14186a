import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startRpcNode } from '@green-impact/testing/chain/rpc-node';
import { connectRemoteNetwork } from './chain-network.js';
import { DEFAULT_RPC_TIMEOUT_MS, DEFAULT_TUNING, EMBEDDED_SIGNER_KEY } from './network-spec.js';
import { LIMIT_EXCEEDED, RelayQuota } from './relay-quota.js';

const answered = { result: '0x1' };

test('the relay quota: a burst, then "limit exceeded" until tokens flow back; calls in flight are capped; 0 turns it off', async () => {
  const clock = { now: 0 };
  const quota = new RelayQuota('amoy', { perSecond: 2, burst: 3, maxConcurrent: 2 }, () => clock.now);
  const call = quota.guard(async () => answered);
  for (let i = 0; i < 3; i++) assert.deepEqual(await call('eth_blockNumber', []), answered);
  const refused = await call('eth_blockNumber', []);
  assert.ok('error' in refused && refused.error.code === LIMIT_EXCEEDED);
  assert.match((refused as { error: { message: string } }).error.message, /relay's share of network amoy is spent; retry in 1 s/);
  clock.now = 500;
  assert.deepEqual(await call('eth_blockNumber', []), answered, 'one token back after half a second at 2/s');

  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const slow = new RelayQuota('amoy', { perSecond: 100, burst: 100, maxConcurrent: 2 }).guard(async () => (await held, answered));
  const calls = Array.from({ length: 5 }, () => slow('eth_call', []));
  release();
  const codes = (await Promise.all(calls)).map((a) => ('error' in a ? a.error.code : 'ok'));
  assert.deepEqual(codes, ['ok', 'ok', LIMIT_EXCEEDED, LIMIT_EXCEEDED, LIMIT_EXCEEDED]);

  const off = new RelayQuota('amoy', { perSecond: 0, burst: 1, maxConcurrent: 1 }).guard(async () => answered);
  for (let i = 0; i < 10; i++) assert.deepEqual(await off('eth_blockNumber', []), answered);
});

test('a relay flood reaches the node no further than the relay\'s quota, and the workers\' provider is not counted in it', async () => {
  const node = await startRpcNode({ chainId: 31_999, signerKey: EMBEDDED_SIGNER_KEY });
  // What reaches the node, by who sent it: the flood reads one address's balance, nothing else does.
  const FLOODED = '0x000000000000000000000000000000000000dead';
  const seen = { relay: 0, other: 0 };
  const proxy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      if (body.toString('utf8').includes(FLOODED)) seen.relay++;
      else seen.other++;
      const answer = await fetch(node.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      res.writeHead(200, { 'content-type': 'application/json' }).end(Buffer.from(await answer.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const network = connectRemoteNetwork(
    {
      kind: 'remote', name: 'quota-test', chainId: 31_999, rpcUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      nativeCurrencySymbol: 'ETH', signerKey: EMBEDDED_SIGNER_KEY, contracts: {}, rpcTimeoutMs: DEFAULT_RPC_TIMEOUT_MS, ...DEFAULT_TUNING,
    },
    { perSecond: 1, burst: 5, maxConcurrent: 2 },
  );
  try {
    const started = performance.now();
    const read = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [FLOODED, 'latest'] }));
    const batch = Buffer.from(JSON.stringify(Array.from({ length: 20 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'eth_getBalance', params: [FLOODED, 'latest'] }))));
    const flood = await Promise.all([...Array.from({ length: 60 }, () => network.relay(read)), network.relay(batch)]);
    const answers = flood.flatMap((b) => [JSON.parse(b.toString('utf8'))].flat() as { result?: unknown; error?: { code: number } }[]);
    const allowed = 5 + Math.ceil((performance.now() - started) / 1000);
    assert.equal(answers.length, 80);
    assert.ok(seen.relay <= allowed, `the node saw ${seen.relay} relayed calls; the quota allows ${allowed}`);
    assert.equal(answers.filter((a) => 'result' in a).length, seen.relay);
    assert.ok(answers.filter((a) => a.error?.code === LIMIT_EXCEEDED).length >= 80 - allowed);

    // The relay's share is spent; the workers' provider still reads and sends as much as it needs.
    const before = seen.other;
    const sent = await network.wallet.sendTransaction({ to: network.signerAddress, value: 1n });
    const receipt = await sent.wait();
    assert.equal(receipt?.status, 1);
    for (let i = 0; i < 10; i++) assert.ok((await network.provider.getBlockNumber()) >= 1);
    assert.ok(seen.other - before >= 10, 'the provider\'s calls reached the node');
    assert.ok(seen.relay <= allowed, 'none of them was counted as, or instead of, the relay\'s');
  } finally {
    network.close();
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
    await node.close();
  }
});

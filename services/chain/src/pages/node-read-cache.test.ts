import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeReadCache } from './node-read-cache.js';

const SETTINGS = { ttlMs: 1_000, minedTtlMs: 60_000, maxEntries: 3 };
const MINED = { transactionHash: '0x01', blockHash: '0xbb', blockNumber: '0x7' };

function clocked() {
  const clock = { now: 0 };
  return { clock, cache: new NodeReadCache(SETTINGS, () => clock.now) };
}

test('identical reads at once are joined into one call to the node', async () => {
  const { cache } = clocked();
  let calls = 0;
  let release!: (v: unknown) => void;
  const relay = () => {
    calls++;
    return new Promise((resolve) => (release = resolve));
  };
  const reads = Array.from({ length: 20 }, () => cache.read('amoy', 'eth_getTransactionReceipt', ['0x01'], relay));
  release(MINED);
  for (const answer of await Promise.all(reads)) assert.deepEqual(answer, MINED);
  assert.equal(calls, 1);
});

test('a mined receipt is kept for NODE_READ_CACHE_MINED_TTL_MS, an answer that can change for NODE_READ_CACHE_TTL_MS', async () => {
  const { clock, cache } = clocked();
  let calls = 0;
  const relay = (value: unknown) => () => (calls++, Promise.resolve(value));
  await cache.read('amoy', 'eth_getTransactionReceipt', ['0x01'], relay(MINED));
  await cache.read('amoy', 'eth_getTransactionReceipt', ['0x02'], relay(null));
  await cache.read('amoy', 'eth_call', [{ to: '0xc', data: '0x6352211e' }, 'latest'], relay('0xowner'));
  assert.equal(calls, 3);
  clock.now = 999;
  await cache.read('amoy', 'eth_getTransactionReceipt', ['0x01'], relay(MINED));
  await cache.read('amoy', 'eth_getTransactionReceipt', ['0x02'], relay(null));
  await cache.read('amoy', 'eth_call', [{ to: '0xc', data: '0x6352211e' }, 'latest'], relay('0xowner'));
  assert.equal(calls, 3, 'all three served from the cache');
  clock.now = 1_000;
  await cache.read('amoy', 'eth_getTransactionReceipt', ['0x01'], relay(MINED));
  await cache.read('amoy', 'eth_getTransactionReceipt', ['0x02'], relay(null));
  await cache.read('amoy', 'eth_call', [{ to: '0xc', data: '0x6352211e' }, 'latest'], relay('0xowner'));
  assert.equal(calls, 5, 'the unmined receipt and the owner are read again; the mined receipt is not');
  // The same hash on another network is another transaction.
  await cache.read('sepolia', 'eth_getTransactionReceipt', ['0x01'], relay(null));
  assert.equal(calls, 6);
});

test('failures are not kept, and the cache holds at most NODE_READ_CACHE_MAX_ENTRIES answers', async () => {
  const { cache } = clocked();
  await assert.rejects(cache.read('amoy', 'eth_getTransactionReceipt', ['0x09'], () => Promise.reject(new Error('node away'))));
  assert.deepEqual(await cache.read('amoy', 'eth_getTransactionReceipt', ['0x09'], () => Promise.resolve(MINED)), MINED);
  for (let i = 0; i < 10; i++) await cache.read('amoy', 'eth_getTransactionReceipt', [`0x1${i}`], () => Promise.resolve(MINED));
  assert.equal(cache.size, 3);
});

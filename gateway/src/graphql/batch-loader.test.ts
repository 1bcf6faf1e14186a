import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BatchLoader } from './batch-loader.js';

test('keys asked for together load in one call; each key is loaded once per loader', async () => {
  const calls: string[][] = [];
  const loader = new BatchLoader<string, number>(async (keys) => {
    calls.push(keys);
    return new Map(keys.filter((k) => k !== 'missing').map((k) => [k, k.length]));
  });
  const first = await Promise.all([loader.load('a'), loader.load('bb'), loader.load('a'), loader.load('missing')]);
  assert.deepEqual(first, [1, 2, 1, undefined]);
  // Keys asked for after awaiting other promises (as nested resolvers are) still join one batch.
  const later = await Promise.all([
    Promise.resolve().then(() => loader.load('ccc')),
    Promise.resolve().then(() => Promise.resolve()).then(() => loader.load('dddd')),
    loader.load('bb'),
  ]);
  assert.deepEqual(later, [3, 4, 2]);
  assert.deepEqual(calls, [['a', 'bb', 'missing'], ['ccc', 'dddd']]);
});

test('a batch larger than maxBatch is split; a failed batch fails its keys only', async () => {
  const calls: number[][] = [];
  const loader = new BatchLoader<number, number>(async (keys) => {
    calls.push(keys);
    if (keys.includes(5)) throw new Error('backend down');
    return new Map(keys.map((k) => [k, k * 10]));
  }, 2);
  const results = await Promise.allSettled([1, 2, 3, 4, 5].map((k) => loader.load(k)));
  assert.deepEqual(calls, [[1, 2], [3, 4], [5]]);
  assert.deepEqual(results.slice(0, 4).map((r) => (r.status === 'fulfilled' ? r.value : r.reason)), [10, 20, 30, 40]);
  assert.equal(results[4]!.status, 'rejected');
});

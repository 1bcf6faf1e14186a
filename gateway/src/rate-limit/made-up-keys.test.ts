import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGatewayLimits } from '../config.js';
import { anonymousAllowance, floodWithMadeUpKeys } from '@green-impact/testing/gateway/key-flood';
import { startTestGateway } from '@green-impact/testing/gateway/real-gateway';

/**
 * Issue 31's finding, replayed as an abuser would with the default settings: 600 requests with random keys
 * from one address, 50 at a time. Before known-good keys, each made-up key drew from a fresh 400-token
 * bucket and 336 of 600 got past; now a key not yet accepted by identity is counted against its address
 * (and the global unauthenticated bucket), so no more than the anonymous burst gets through.
 */
test('made-up keys from one address get no further than the anonymous burst (600 requests, 50 at a time, default limits)', async () => {
  const t = await startTestGateway();
  try {
    const { perAddress } = loadGatewayLimits({}).rateLimit;
    const flood = await floodWithMadeUpKeys(t.baseUrl, { requests: 600, concurrency: 50 });
    const allowed = anonymousAllowance(perAddress!, flood.elapsedMs);
    const asked = t.identity.calls.filter((c) => c.method === 'authenticate').length;
    assert.ok(flood.passed <= allowed, `${flood.passed} got past the limiter, at most ${allowed} may: ${JSON.stringify(flood)}`);
    assert.ok(asked <= allowed, `identity was asked ${asked} times, at most ${allowed} may be`);
    assert.equal(flood.passed, flood.statuses[401] ?? 0, `every request that got past was refused by identity: ${JSON.stringify(flood)}`);
  } finally {
    await t.stop();
  }
});

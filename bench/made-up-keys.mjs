#!/usr/bin/env node
// npm run load (after the throughput run), or alone: npm run load:keys — the rate limits under abuse.
//
// Starts the whole system in this process with the gateway's default rate limits (or RATE_LIMIT_… from
// the environment), then sends what an abuser would: KEYS_REQUESTS (600) requests to /v1/call, each with
// a fresh made-up X-Api-Key, KEYS_CONCURRENCY (50) at a time, from one address. A key identity has not
// accepted is counted as anonymous traffic, so no more than the address's anonymous burst (and what flowed
// back into it meanwhile) may get past the limiter: exits 1 when more did (issue 31).
import { importDist, startInProcess } from './lib/system.mjs';

const REQUESTS = Number(process.env.KEYS_REQUESTS ?? 600);
const CONCURRENCY = Number(process.env.KEYS_CONCURRENCY ?? 50);

const system = await startInProcess({ bootstrapApiKey: 'made-up-keys-operator', rateLimits: true });
try {
  const { floodWithMadeUpKeys, anonymousAllowance } = await importDist('testing/dist/gateway/key-flood.js');
  const { loadGatewayLimits } = await importDist('gateway/dist/config.js');
  const { perAddress } = loadGatewayLimits(process.env).rateLimit;
  const flood = await floodWithMadeUpKeys(system.gatewayUrl, { requests: REQUESTS, concurrency: CONCURRENCY });
  const allowed = perAddress ? anonymousAllowance(perAddress, flood.elapsedMs) : Number.POSITIVE_INFINITY;
  console.log(
    `[made-up keys] ${REQUESTS} requests with random keys from one address, ${CONCURRENCY} at a time, in ${Math.round(flood.elapsedMs)} ms: ` +
      `${flood.passed} got past the limiter (at most ${allowed}: burst ${perAddress?.burst ?? '∞'} + ${perAddress?.perSecond ?? '∞'}/s); answers ${JSON.stringify(flood.statuses)}`,
  );
  if (flood.passed > allowed) {
    console.error('[made-up keys] FAILED: made-up keys got further than the anonymous burst');
    process.exitCode = 1;
  }
} finally {
  await system.stop();
}

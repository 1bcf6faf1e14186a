import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger } from '@green-impact/shared/logger';
import { metricsRegistry } from '@green-impact/shared/metrics';
import type { RateLimitSettings } from '../config.js';
import { deadPort } from '../testing/dead-port.js';
import { redisSkipReason, takeRedisKeys, TEST_REDIS_URL, uniqueRedisPrefix } from '../testing/redis.js';
import { RateLimiter } from './rate-limiter.js';

const rules = { perKey: { perSecond: 1, burst: 2 }, perAddress: { perSecond: 1, burst: 2 } };

function capturingLog() {
  const lines: { level: string; text: string }[] = [];
  const log = createLogger('rate-limit-test', {
    level: 'debug',
    hooks: {
      logMethod(args, _method, level) {
        lines.push({ level: String(level), text: JSON.stringify(args) });
      },
    },
  });
  return { log, lines };
}

async function storeErrors(): Promise<number> {
  const metric = await metricsRegistry.getSingleMetric('gateway_rate_limit_store_errors_total')!.get();
  return metric.values[0]?.value ?? 0;
}

test('Redis unreachable: limits hold in memory, one warning per outage, every failure counted', async () => {
  const { log, lines } = capturingLog();
  const dead = await deadPort();
  const settings: RateLimitSettings = { ...rules, redisUrl: `redis://127.0.0.1:${dead.port}`, redisPrefix: uniqueRedisPrefix() };
  const limiter = new RateLimiter(settings, log);
  const errorsBefore = await storeErrors();
  try {
    await limiter.start();
    const request = { apiKey: 'gi_some-key', address: '203.0.113.7' };
    assert.equal(await limiter.admit(request), undefined);
    assert.equal(await limiter.admit(request), undefined);
    const refused = await limiter.admit(request);
    assert.equal(refused?.limit, 'key');
    assert.ok(refused.retryAfterMs > 0 && refused.retryAfterMs <= 1_000);
    assert.equal(await storeErrors(), errorsBefore + 4, 'start and three checks');
    const warnings = lines.filter((l) => l.level === '40');
    assert.equal(warnings.length, 1, JSON.stringify(lines));
    assert.match(warnings[0]!.text, /Redis does not answer; limits are counted in this gateway's memory/);
  } finally {
    await limiter.close();
    await dead.close();
  }
});

test('keys and addresses reach Redis only as hashes', { skip: await redisSkipReason() }, async () => {
  const prefix = uniqueRedisPrefix();
  const limiter = new RateLimiter({ ...rules, redisUrl: TEST_REDIS_URL, redisPrefix: prefix }, capturingLog().log);
  try {
    await limiter.start();
    await limiter.admit({ apiKey: 'gi_secret-key-value', address: '203.0.113.7' });
    await limiter.admit({ apiKey: undefined, address: '203.0.113.7' });
    await limiter.keyRefused('203.0.113.7');
    const keys = [...(await takeRedisKeys(prefix)).keys()].sort();
    assert.equal(keys.length, 3);
    assert.deepEqual(keys.map((k) => k.split(':')[0]), ['address', 'key', 'refused']);
    for (const key of keys) assert.match(key, /^[a-z]+:[A-Za-z0-9_-]{22}$/);
    assert.doesNotMatch(keys.join(' '), /secret|203\.0\.113/);
  } finally {
    await limiter.close();
  }
});

test('refused keys close an address to further keys until a token comes back; other addresses go on', async () => {
  const limiter = new RateLimiter({ ...rules, redisUrl: undefined, redisPrefix: '' }, capturingLog().log);
  try {
    const guesser = '198.51.100.9';
    await limiter.keyRefused(guesser);
    await limiter.keyRefused(guesser);
    const refused = await limiter.admit({ apiKey: 'gi_next-guess', address: guesser });
    assert.equal(refused?.limit, 'refused_keys');
    assert.equal(await limiter.admit({ apiKey: 'gi_next-guess', address: '198.51.100.10' }), undefined);
    // Requests without a key are counted in a bucket of their own.
    assert.equal(await limiter.admit({ apiKey: undefined, address: guesser }), undefined);
  } finally {
    await limiter.close();
  }
});

test('a limit set to off takes nothing', async () => {
  const limiter = new RateLimiter({ perKey: undefined, perAddress: undefined, redisUrl: undefined, redisPrefix: '' }, capturingLog().log);
  try {
    for (let i = 0; i < 50; i++) assert.equal(await limiter.admit({ apiKey: i % 2 ? 'k' : undefined, address: 'a' }), undefined);
  } finally {
    await limiter.close();
  }
});

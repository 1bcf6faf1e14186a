import { test } from 'node:test';
import net from 'node:net';
import assert from 'node:assert/strict';
import { createLogger } from '@green-impact/shared/logger';
import { metricsRegistry } from '@green-impact/shared/metrics';
import type { RateLimitSettings } from '../config.js';
import { deadPort } from '@green-impact/testing/gateway/dead-port';
import { redisSkipReason, takeRedisKeys, TEST_REDIS_URL, uniqueRedisPrefix } from '@green-impact/testing/gateway/redis';
import { bucketName, RateLimiter, type Refusal } from './rate-limiter.js';

// Resolved before any test is declared: under npm test's --test-force-exit a file whose declared tests have
// all finished exits, so a test declared after a later top-level await would silently never run.
const redisSkip = await redisSkipReason();

const rules = {
  perKey: { perSecond: 1, burst: 2 },
  perAddress: { perSecond: 1, burst: 2 },
  unauthenticated: { perSecond: 1, burst: 10 },
  knownKeys: { ttlMs: 60_000, maxEntries: 100 },
};
const ACCEPTED = { keyId: 'key-1', accountId: 'account-1' };

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
    limiter.keyAccepted(request.apiKey, ACCEPTED, limiter.knownKeysEpoch);
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

test('keys and addresses reach Redis only as hashes', { skip: redisSkip }, async () => {
  const prefix = uniqueRedisPrefix();
  const limiter = new RateLimiter({ ...rules, redisUrl: TEST_REDIS_URL, redisPrefix: prefix }, capturingLog().log);
  try {
    await limiter.start();
    await limiter.admit({ apiKey: 'gi_secret-key-value', address: '203.0.113.7' });
    await limiter.admit({ apiKey: undefined, address: '203.0.113.7' });
    await limiter.keyRefused('gi_other-secret', '203.0.113.7');
    const keys = [...(await takeRedisKeys(prefix)).keys()].sort();
    assert.equal(keys.length, 4);
    assert.deepEqual(keys.map((k) => k.split(':')[0]), ['address', 'key', 'refused', 'unauthenticated']);
    // The global bucket is named by nothing but its kind: it holds nothing about anyone.
    for (const key of keys) assert.match(key, /^([a-z]+:[A-Za-z0-9_-]{22}|unauthenticated)$/);
    assert.doesNotMatch(keys.join(' '), /secret|203\.0\.113/);
  } finally {
    await limiter.close();
  }
});

test('refused keys close an address to further keys until a token comes back; other addresses go on', async () => {
  const limiter = new RateLimiter({ ...rules, redisUrl: undefined, redisPrefix: '' }, capturingLog().log);
  try {
    const guesser = '198.51.100.9';
    await limiter.keyRefused('gi_guess-1', guesser);
    await limiter.keyRefused('gi_guess-2', guesser);
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
  const limiter = new RateLimiter(
    { ...rules, perKey: undefined, perAddress: undefined, unauthenticated: undefined, redisUrl: undefined, redisPrefix: '' },
    capturingLog().log,
  );
  try {
    for (let i = 0; i < 50; i++) assert.equal(await limiter.admit({ apiKey: i % 2 ? 'k' : undefined, address: 'a' }), undefined);
  } finally {
    await limiter.close();
  }
});

test('made-up keys draw from their address\'s bucket and the global one; only a key identity accepted has its own', async () => {
  const limiter = new RateLimiter({ ...rules, unauthenticated: { perSecond: 1, burst: 3 }, redisUrl: undefined, redisPrefix: '' }, capturingLog().log);
  try {
    const [a, b] = ['198.51.100.1', '198.51.100.2'];
    assert.equal(await limiter.admit({ apiKey: 'gi_made-up-1', address: a }), undefined);
    assert.equal(await limiter.admit({ apiKey: 'gi_made-up-2', address: a }), undefined);
    // A fresh key does not open a fresh bucket: the address's burst (2) is spent.
    assert.deepEqual(pick(await limiter.admit({ apiKey: 'gi_made-up-3', address: a })), { limit: 'address', keyed: true });
    assert.deepEqual(pick(await limiter.admit({ apiKey: undefined, address: a })), { limit: 'address', keyed: false });
    // Another address has its own bucket, but all of them share the global one (burst 3).
    assert.equal(await limiter.admit({ apiKey: 'gi_made-up-4', address: b }), undefined);
    assert.deepEqual(pick(await limiter.admit({ apiKey: 'gi_made-up-5', address: b })), { limit: 'unauthenticated', keyed: true });

    // Accepted by identity: its own bucket, whatever the address and the world have spent.
    limiter.keyAccepted('gi_real-key', ACCEPTED, limiter.knownKeysEpoch);
    assert.equal(await limiter.admit({ apiKey: 'gi_real-key', address: a }), undefined);
    assert.equal(await limiter.admit({ apiKey: 'gi_real-key', address: a }), undefined);
    assert.deepEqual(pick(await limiter.admit({ apiKey: 'gi_real-key', address: a })), { limit: 'key', keyed: true });
  } finally {
    await limiter.close();
  }
});

test('a key stops being known good when identity refuses it, when it is revoked, and a revocation in flight wins', async () => {
  const limiter = new RateLimiter({ ...rules, redisUrl: undefined, redisPrefix: '' }, capturingLog().log);
  const known = (apiKey: string) => limiter.knownKeys.has(bucketName('key', apiKey));
  try {
    limiter.keyAccepted('gi_refused-later', ACCEPTED, limiter.knownKeysEpoch);
    assert.ok(known('gi_refused-later'));
    await limiter.keyRefused('gi_refused-later', '198.51.100.3');
    assert.ok(!known('gi_refused-later'), 'identity refused it');

    limiter.keyAccepted('gi_revoked', { keyId: 'key-9', accountId: 'account-9' }, limiter.knownKeysEpoch);
    limiter.knownKeys.forgetKeys(['key-9']);
    assert.ok(!known('gi_revoked'), 'revoked');
    limiter.keyAccepted('gi_account-gone', { keyId: 'key-8', accountId: 'account-8' }, limiter.knownKeysEpoch);
    limiter.knownKeys.forgetAccount('account-8');
    assert.ok(!known('gi_account-gone'), 'its account changed');

    // Identity accepted the key before the revocation was announced, but answered after it.
    const epoch = limiter.knownKeysEpoch;
    limiter.knownKeys.forgetKeys(['key-7']);
    limiter.keyAccepted('gi_revoked-in-flight', { keyId: 'key-7', accountId: 'account-7' }, epoch);
    assert.ok(!known('gi_revoked-in-flight'));
  } finally {
    await limiter.close();
  }
});

function pick(refusal: Refusal | undefined): Pick<Refusal, 'limit' | 'keyed'> | undefined {
  return refusal && { limit: refusal.limit, keyed: refusal.keyed };
}

/** A key's rule slow enough (a token a minute) that no token flows back while a test runs. */
const slow = { ...rules, perKey: { perSecond: 1 / 60, burst: 2 } };

test('two gateways sharing Redis spend one budget: a key\'s burst used through one is refused by the other', { skip: redisSkip }, async () => {
  const prefix = uniqueRedisPrefix();
  const [a, b] = [0, 1].map(() => new RateLimiter({ ...slow, redisUrl: TEST_REDIS_URL, redisPrefix: prefix }, capturingLog().log));
  try {
    for (const limiter of [a!, b!]) {
      await limiter.start();
      limiter.keyAccepted('gi_shared-key', ACCEPTED, limiter.knownKeysEpoch);
    }
    const request = { apiKey: 'gi_shared-key', address: '203.0.113.8' };
    assert.equal(await a!.admit(request), undefined);
    assert.equal(await b!.admit(request), undefined);
    assert.equal((await a!.admit(request))?.limit, 'key', 'the burst of 2 is spent across both');
    assert.equal((await b!.admit(request))?.limit, 'key');
  } finally {
    await Promise.all([a!.close(), b!.close()]);
    await takeRedisKeys(prefix);
  }
});

/** A TCP relay to Redis that the test takes down (every connection cut, the port closed) and brings back on the same port. */
async function redisRelay() {
  const target = new URL(TEST_REDIS_URL);
  const sockets = new Set<net.Socket>();
  const serve = () => {
    const server = net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 6379), target.hostname);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('close', () => sockets.delete(s)).on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    return server;
  };
  let server = serve();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `redis://127.0.0.1:${port}`,
    async down() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
    async up() {
      server = serve();
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
    close: () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve())),
  };
}

test('after a Redis outage the limits go back to Redis: shared again, and said so once', { skip: redisSkip, timeout: 30_000 }, async () => {
  const prefix = uniqueRedisPrefix();
  const relay = await redisRelay();
  const { log, lines } = capturingLog();
  const limiter = new RateLimiter({ ...slow, redisUrl: relay.url, redisPrefix: prefix }, log);
  const request = { apiKey: 'gi_outage-key', address: '203.0.113.9' };
  try {
    await limiter.start();
    limiter.keyAccepted(request.apiKey, ACCEPTED, limiter.knownKeysEpoch);
    assert.equal(await limiter.admit(request), undefined);
    assert.deepEqual([...(await takeRedisKeys(prefix)).keys()].map((k) => k.split(':')[0]), ['key'], 'counted in Redis');
    const errorsBefore = await storeErrors();
    await relay.down();
    assert.equal(await limiter.admit(request), undefined, 'answered from memory while Redis is away');
    assert.ok((await storeErrors()) > errorsBefore);
    await relay.up();
    // The client reconnects by itself; the first check Redis answers is counted there again.
    while ((await takeRedisKeys(prefix)).size === 0) {
      await limiter.admit(request);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const back = lines.filter((l) => l.text.includes('Redis answers again'));
    assert.equal(back.length, 1, 'the return is logged once');
    assert.equal(lines.filter((l) => l.level === '40').length, 1, 'one warning for the one outage');
  } finally {
    await limiter.close();
    await relay.close();
    await takeRedisKeys(prefix);
  }
});

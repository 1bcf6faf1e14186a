import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '@green-impact/shared/config';
import { loadGatewayConfig, loadGraphqlConfig } from './config.js';

// Random values made once for these tests (a weak one is refused at start).
const LINK_SECRET = 'krHKsH0I7QrzZ1dmZUe1BovKebxgbMkC_-13JD7tP4I';
const PREVIOUS_SECRET = 'hOWfPTpzbsalceSqlG6snsPycXP_kjhtFkgeby1a_40';

const fails = (env: Record<string, string>, pattern: RegExp) =>
  assert.throws(() => loadGatewayConfig(env), (err: unknown) => err instanceof ConfigError && pattern.test(err.message));

test('defaults', () => {
  const c = loadGatewayConfig({ IDENTITY_GRPC_ADDR: 'identity:50051' });
  assert.equal(c.port, 8080);
  assert.equal(c.host, '0.0.0.0');
  assert.equal(c.bodyLimitBytes, 1024 * 1024);
  assert.equal(c.nodeEnv, 'development');
  assert.equal(c.publicBaseUrl, undefined);
  assert.deepEqual(c.backends, { identity: 'identity:50051', taxonomy: undefined, portfolio: undefined, chain: undefined });
  assert.equal(c.trustProxy, 0);
  assert.deepEqual(c.limits, {
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 60_000,
    requestDeadlineMs: 30_000,
    rateLimit: {
      perKey: { perSecond: 200, burst: 400 },
      perAddress: { perSecond: 20, burst: 100 },
      unauthenticated: { perSecond: 200, burst: 1_000 },
      knownKeys: { ttlMs: 3_600_000, maxEntries: 100_000 },
      redisUrl: undefined,
      redisPrefix: 'green-impact:rate-limit:',
    },
    backendCalls: { perRequest: 8, perCaller: { limit: 16, maxQueue: 64, maxWaitMs: 250 } },
  });
});

test('limits: values, off switches and failures name the variable', () => {
  const c = loadGatewayConfig({
    IDENTITY_GRPC_ADDR: 'a:1',
    REQUEST_DEADLINE_MS: '500',
    RATE_LIMIT_PER_KEY: '0',
    RATE_LIMIT_PER_ADDRESS: '50',
    REDIS_URL: 'redis://redis.svc:6379/2',
    TRUST_PROXY: 'loopback, 10.0.0.0/8, fd00::1',
  });
  assert.equal(c.limits.requestDeadlineMs, 500);
  assert.equal(c.limits.rateLimit.perKey, undefined);
  assert.deepEqual(c.limits.rateLimit.perAddress, { perSecond: 50, burst: 100 });
  assert.equal(c.limits.rateLimit.redisUrl, 'redis://redis.svc:6379/2');
  assert.deepEqual(c.trustProxy, ['loopback', '10.0.0.0/8', 'fd00::1']);
  assert.equal(loadGatewayConfig({ IDENTITY_GRPC_ADDR: 'a:1', TRUST_PROXY: '2' }).trustProxy, 2);
  const failsWith = (env: Record<string, string>, pattern: RegExp) => fails({ IDENTITY_GRPC_ADDR: 'a:1', ...env }, pattern);
  failsWith({ HTTP_HEADERS_TIMEOUT_MS: '70000' }, /HTTP_HEADERS_TIMEOUT_MS \(70000\) must not exceed HTTP_REQUEST_TIMEOUT_MS \(60000\)/);
  failsWith({ REQUEST_DEADLINE_MS: '10' }, /REQUEST_DEADLINE_MS must be at least 100/);
  failsWith({ RATE_LIMIT_PER_KEY: '-1' }, /RATE_LIMIT_PER_KEY must be at least 0/);
  failsWith({ RATE_LIMIT_PER_KEY: '500', RATE_LIMIT_KEY_BURST: '100' }, /RATE_LIMIT_KEY_BURST \(100\) must be at least RATE_LIMIT_PER_KEY \(500\)/);
  failsWith({ REDIS_URL: 'http://redis:6379' }, /REDIS_URL must use redis or rediss/);
  failsWith({ TRUST_PROXY: 'true' }, /TRUST_PROXY must be a hop count or a list/);
  failsWith({ TRUST_PROXY: '10.0.0.0/33' }, /"10.0.0.0\/33" is none of these/);
  failsWith({ TRUST_PROXY: '11' }, /TRUST_PROXY must be at most 10/);
  failsWith({ BACKEND_CALLS_PER_CALLER: '0' }, /BACKEND_CALLS_PER_CALLER must be at least 1/);
  failsWith({ BACKEND_CALLS_PER_REQUEST: 'many' }, /BACKEND_CALLS_PER_REQUEST/);
  failsWith({ BACKEND_CALLS_CALLER_WAIT_MS: '-5' }, /BACKEND_CALLS_CALLER_WAIT_MS/);
});

test('values and failures name the variable', () => {
  const c = loadGatewayConfig({
    IDENTITY_GRPC_ADDR: '127.0.0.1:1',
    TAXONOMY_GRPC_ADDR: 'taxonomy.svc:50051',
    PORT: '0',
    PUBLIC_BASE_URL: 'https://impact.example.org/',
  });
  assert.equal(c.port, 0);
  assert.equal(c.backends.taxonomy, 'taxonomy.svc:50051');
  assert.equal(c.publicBaseUrl, 'https://impact.example.org');
  fails({}, /IDENTITY_GRPC_ADDR is required/);
  fails({ IDENTITY_GRPC_ADDR: 'identity' }, /IDENTITY_GRPC_ADDR must be host:port/);
  fails({ IDENTITY_GRPC_ADDR: 'a:1', PORT: 'http' }, /PORT must be an integer/);
  fails({ IDENTITY_GRPC_ADDR: 'a:1', BODY_LIMIT_BYTES: '10' }, /BODY_LIMIT_BYTES must be at least/);
  fails({ IDENTITY_GRPC_ADDR: 'a:1', PUBLIC_BASE_URL: 'ftp://x' }, /PUBLIC_BASE_URL must use http or https/);
});

test('GraphQL: the explorer follows NODE_ENV unless set; limits are bounded and name the variable', () => {
  const base = { IDENTITY_GRPC_ADDR: 'identity:50051' };
  assert.deepEqual(loadGatewayConfig(base).graphql, {
    explorer: true,
    maxDepth: 12,
    maxCost: 250_000,
    maxAliases: 30,
    maxRootFields: 20,
    maxSubscriptionsPerConnection: 20,
    maxConnectionsPerAccount: 20,
    maxSubscriptionsPerAccount: 100,
    maxConnectionLifetimeMs: 3_600_000,
  });
  const production = { ...base, NODE_ENV: 'production', DOCUMENT_LINK_SECRET: LINK_SECRET };
  assert.equal(loadGatewayConfig(production).graphql.explorer, false);
  assert.equal(loadGatewayConfig({ ...production, GRAPHQL_EXPLORER: 'true' }).graphql.explorer, true);
  assert.deepEqual(
    loadGraphqlConfig({
      GRAPHQL_EXPLORER: 'false',
      GRAPHQL_MAX_DEPTH: '8',
      GRAPHQL_MAX_COST: '1000',
      GRAPHQL_WS_MAX_SUBSCRIPTIONS: '5',
      GRAPHQL_WS_MAX_LIFETIME_MS: '60000',
      GRAPHQL_MAX_ALIASES: '0',
      GRAPHQL_MAX_ROOT_FIELDS: '3',
      GRAPHQL_WS_MAX_CONNECTIONS_PER_ACCOUNT: '4',
      GRAPHQL_WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT: '40',
    }),
    {
      explorer: false, maxDepth: 8, maxCost: 1000, maxAliases: 0, maxRootFields: 3, maxSubscriptionsPerConnection: 5,
      maxConnectionsPerAccount: 4, maxSubscriptionsPerAccount: 40, maxConnectionLifetimeMs: 60_000,
    },
  );
  fails({ ...base, GRAPHQL_MAX_DEPTH: '1' }, /GRAPHQL_MAX_DEPTH/);
  fails({ ...base, GRAPHQL_MAX_COST: 'lots' }, /GRAPHQL_MAX_COST/);
  fails({ ...base, GRAPHQL_WS_MAX_SUBSCRIPTIONS: '0' }, /GRAPHQL_WS_MAX_SUBSCRIPTIONS/);
  fails({ ...base, GRAPHQL_WS_MAX_CONNECTIONS_PER_ACCOUNT: '0' }, /GRAPHQL_WS_MAX_CONNECTIONS_PER_ACCOUNT/);
  fails({ ...base, GRAPHQL_WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT: 'many' }, /GRAPHQL_WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT/);
  fails({ ...base, GRAPHQL_WS_MAX_LIFETIME_MS: '10' }, /GRAPHQL_WS_MAX_LIFETIME_MS/);
  fails({ ...base, GRAPHQL_WS_MAX_LIFETIME_MS: 'forever' }, /GRAPHQL_WS_MAX_LIFETIME_MS/);
  fails({ ...base, GRAPHQL_MAX_ALIASES: '-1' }, /GRAPHQL_MAX_ALIASES/);
  fails({ ...base, GRAPHQL_MAX_ROOT_FIELDS: '0' }, /GRAPHQL_MAX_ROOT_FIELDS/);
  fails({ ...base, GRAPHQL_EXPLORER: 'sometimes' }, /GRAPHQL_EXPLORER/);
});

test('document links: a shared secret of 32+ random characters, required in production; generated elsewhere', () => {
  const base = { IDENTITY_GRPC_ADDR: 'identity:50051' };
  const dev = loadGatewayConfig(base).documentLinks;
  assert.equal(dev.generated, true);
  assert.equal(dev.secret.length, 32);
  assert.equal(dev.ttlSeconds, 7 * 24 * 3600);
  assert.notDeepEqual(loadGatewayConfig(base).documentLinks.secret, dev.secret, 'a fresh secret per process');
  const set = loadGatewayConfig({ ...base, NODE_ENV: 'production', DOCUMENT_LINK_SECRET: LINK_SECRET, DOCUMENT_LINK_PREVIOUS_SECRET: PREVIOUS_SECRET, DOCUMENT_LINK_TTL_SECONDS: '3600' }).documentLinks;
  assert.deepEqual(set, { secret: Buffer.from(LINK_SECRET), previousSecret: Buffer.from(PREVIOUS_SECRET), ttlSeconds: 3600, generated: false });
  fails({ ...base, NODE_ENV: 'production' }, /DOCUMENT_LINK_SECRET is required in production/);
  fails({ ...base, DOCUMENT_LINK_SECRET: 'short' }, /DOCUMENT_LINK_SECRET is too weak: it has 5 characters, at least 32 random ones are needed; make one with: openssl rand -base64 32/);
  fails({ ...base, DOCUMENT_LINK_PREVIOUS_SECRET: 'short' }, /DOCUMENT_LINK_PREVIOUS_SECRET is too weak/);
  // Long enough but made by a person (the dev overlay's committed value was one), or by a key repeated.
  fails({ ...base, DOCUMENT_LINK_SECRET: 'dev-only-document-link-secret-not-for-production' }, /DOCUMENT_LINK_SECRET is too weak: it contains "secret"/);
  fails({ ...base, NODE_ENV: 'production', DOCUMENT_LINK_SECRET: 's'.repeat(32) }, /DOCUMENT_LINK_SECRET is too weak: it uses one kind of character only/);
  fails({ ...base, DOCUMENT_LINK_SECRET: 'a'.repeat(20) + 'b'.repeat(20) + '1' }, /DOCUMENT_LINK_SECRET is too weak/);
  fails({ ...base, DOCUMENT_LINK_TTL_SECONDS: '10' }, /DOCUMENT_LINK_TTL_SECONDS must be at least 60/);
});

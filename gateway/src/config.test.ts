import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '@green-impact/shared/config';
import { loadGatewayConfig } from './config.js';

test('defaults', () => {
  const c = loadGatewayConfig({ IDENTITY_GRPC_ADDR: 'identity:50051' });
  assert.equal(c.port, 8080);
  assert.equal(c.host, '0.0.0.0');
  assert.equal(c.bodyLimitBytes, 1024 * 1024);
  assert.equal(c.nodeEnv, 'development');
  assert.equal(c.publicBaseUrl, undefined);
  assert.deepEqual(c.backends, { identity: 'identity:50051', taxonomy: undefined, portfolio: undefined, chain: undefined });
  assert.deepEqual(c.limits, {
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 60_000,
    requestDeadlineMs: 30_000,
  });
});

test('limits: values and failures name the variable', () => {
  const c = loadGatewayConfig({ IDENTITY_GRPC_ADDR: 'a:1', REQUEST_DEADLINE_MS: '500' });
  assert.equal(c.limits.requestDeadlineMs, 500);
  const fails = (env: Record<string, string>, pattern: RegExp) =>
    assert.throws(() => loadGatewayConfig({ IDENTITY_GRPC_ADDR: 'a:1', ...env }), (err: unknown) => err instanceof ConfigError && pattern.test(err.message));
  fails({ HTTP_HEADERS_TIMEOUT_MS: '70000' }, /HTTP_HEADERS_TIMEOUT_MS \(70000\) must not exceed HTTP_REQUEST_TIMEOUT_MS \(60000\)/);
  fails({ REQUEST_DEADLINE_MS: '10' }, /REQUEST_DEADLINE_MS must be at least 100/);
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
  const fails = (env: Record<string, string>, pattern: RegExp) =>
    assert.throws(() => loadGatewayConfig(env), (err: unknown) => err instanceof ConfigError && pattern.test(err.message));
  fails({}, /IDENTITY_GRPC_ADDR is required/);
  fails({ IDENTITY_GRPC_ADDR: 'identity' }, /IDENTITY_GRPC_ADDR must be host:port/);
  fails({ IDENTITY_GRPC_ADDR: 'a:1', PORT: 'http' }, /PORT must be an integer/);
  fails({ IDENTITY_GRPC_ADDR: 'a:1', BODY_LIMIT_BYTES: '10' }, /BODY_LIMIT_BYTES must be at least/);
  fails({ IDENTITY_GRPC_ADDR: 'a:1', PUBLIC_BASE_URL: 'ftp://x' }, /PUBLIC_BASE_URL must use http or https/);
});

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '@green-impact/shared/config';
import { parseAllowedOrigins } from './cors.js';
import { startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';

const APP = 'https://app.example.com';
const LOCAL = 'http://localhost:5173';

function preflight(url: string, origin: string) {
  return fetch(url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-api-key' } });
}

describe('CORS_ALLOWED_ORIGINS on /graphql and /v1/call', () => {
  let t: TestGateway;
  before(async () => {
    t = await startTestGateway({ CORS_ALLOWED_ORIGINS: `${APP}, ${LOCAL}` });
  });
  after(() => t.stop());

  test('a preflight from an allowed origin is 204 with the methods and headers a page may send', async () => {
    for (const path of ['/graphql', '/v1/call']) {
      const res = await preflight(`${t.baseUrl}${path}`, LOCAL);
      assert.equal(res.status, 204, path);
      assert.equal(res.headers.get('access-control-allow-origin'), LOCAL);
      assert.equal(res.headers.get('access-control-allow-methods'), 'GET, POST, OPTIONS');
      assert.match(res.headers.get('access-control-allow-headers') ?? '', /Content-Type, x-api-key, authorization, x-request-id/);
      assert.equal(res.headers.get('access-control-allow-credentials'), null, 'never cookies');
      assert.match(res.headers.get('vary') ?? '', /Origin/);
    }
  });

  test('the answer to an allowed origin echoes it and exposes the request id and truncation headers; the operation runs as usual', async () => {
    const gql = await fetch(`${t.baseUrl}/graphql`, {
      method: 'POST',
      headers: { origin: APP, 'content-type': 'application/json', 'x-api-key': t.userKey },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    assert.equal(gql.status, 200);
    assert.deepEqual(await gql.json(), { data: { __typename: 'Query' } });
    assert.equal(gql.headers.get('access-control-allow-origin'), APP);
    assert.equal(gql.headers.get('access-control-expose-headers'), 'x-request-id, Retry-After, X-Result-Truncated, X-Total-Count');
    const call = await fetch(`${t.baseUrl}/v1/call`, { method: 'POST', headers: { origin: APP, 'content-type': 'application/json' }, body: '{}' });
    assert.equal(call.status, 401, 'refused as any request without a key');
    assert.equal(((await call.json()) as { code: string }).code, 'UNAUTHENTICATED');
    assert.equal(call.headers.get('access-control-allow-origin'), APP, 'errors carry it too, so the page can read them');
  });

  test('another origin gets no CORS headers: its preflight allows nothing and the browser hides the answer', async () => {
    const pre = await preflight(`${t.baseUrl}/v1/call`, 'https://evil.example');
    assert.equal(pre.status, 204);
    assert.equal(pre.headers.get('access-control-allow-origin'), null);
    assert.equal(pre.headers.get('access-control-allow-methods'), null);
    const res = await fetch(`${t.baseUrl}/graphql`, { method: 'POST', headers: { origin: 'https://evil.example', 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ __typename }' }) });
    assert.equal(res.headers.get('access-control-allow-origin'), null);
  });

  test('other routes are not opened by the list', async () => {
    const res = await fetch(`${t.baseUrl}/healthz`, { headers: { origin: APP } });
    assert.equal(res.headers.get('access-control-allow-origin'), null);
  });
});

test('without CORS_ALLOWED_ORIGINS no origin is allowed', async () => {
  const t = await startTestGateway();
  try {
    const res = await preflight(`${t.baseUrl}/graphql`, APP);
    assert.equal(res.headers.get('access-control-allow-origin'), null);
  } finally {
    await t.stop();
  }
});

test('CORS_ALLOWED_ORIGINS refuses what is not an origin, naming the entry', () => {
  assert.deepEqual(parseAllowedOrigins(undefined), []);
  assert.deepEqual(parseAllowedOrigins(`${APP},${LOCAL}`), [APP, LOCAL]);
  for (const bad of ['*', 'https://app.example.com/', 'https://app.example.com/ui', 'app.example.com', 'ftp://files.example.com', 'https://*.example.com']) {
    assert.throws(
      () => parseAllowedOrigins(bad),
      (e: unknown) => e instanceof ConfigError && e.message.startsWith('CORS_ALLOWED_ORIGINS must list origins') && e.message.includes(`"${bad}"`),
      bad,
    );
  }
});

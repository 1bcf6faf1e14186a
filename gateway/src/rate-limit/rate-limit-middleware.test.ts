import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { redisSkipReason, takeRedisKeys, TEST_REDIS_URL, uniqueRedisPrefix } from '@green-impact/testing/gateway/redis';
import { gqlAt } from '@green-impact/testing/gateway/graphql-calls';
import { postCall } from '@green-impact/testing/gateway/v1-calls';
import { jsonHeaders, startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';

const GROUPS = { solution: 'SVC.ESG.Credits', operation: 'getGroups' };
const keyed = (key: string) => jsonHeaders(key);
const TIGHT = { RATE_LIMIT_PER_KEY: '1', RATE_LIMIT_KEY_BURST: '3', RATE_LIMIT_PER_ADDRESS: '1', RATE_LIMIT_ADDRESS_BURST: '3' };

const backends = [
  { name: 'memory', skip: false as string | false, env: (): Record<string, string> => ({}) },
  { name: 'redis', skip: await redisSkipReason(), env: (prefix = uniqueRedisPrefix()) => ({ REDIS_URL: TEST_REDIS_URL, RATE_LIMIT_REDIS_PREFIX: prefix }) },
];

// One set of real services for the file; each test takes a fresh gateway over them (t.another), since the
// limits under test are each gateway's own state. The chain service answers the /jobs and explorer pages.
let services: TestGateway;
let userKey: string;
before(async () => {
  services = await startTestGateway({}, { chain: true });
  userKey = services.userKey;
});
after(() => services.stop());
const user = () => keyed(userKey);

for (const backend of backends) {
  describe(`rate limits through HTTP (${backend.name})`, { skip: backend.skip }, () => {
    test('/v1/call: the burst passes, then 429 with Retry-After; another key goes on; the key recovers', async () => {
      const env = backend.env();
      const t = await services.another({ ...TIGHT, ...env });
      try {
        for (let i = 0; i < 3; i++) assert.equal((await postCall(t.baseUrl, GROUPS, user())).status, 200, `request ${i + 1} of the burst`);
        const limited = await postCall(t.baseUrl, GROUPS, user());
        assert.equal(limited.status, 429);
        assert.deepEqual(limited.json, { message: 'Too many requests with this API key; retry in 1 s.', code: 'RESOURCE_EXHAUSTED' });
        assert.equal(limited.headers.get('retry-after'), '1');
        assert.equal((await postCall(t.baseUrl, GROUPS, keyed(services.operatorKey))).status, 200, 'another key is not limited');

        // Waiting what Retry-After says can only leave more time than it takes (a loaded machine waits
        // longer, never shorter), so this holds however slow the machine; the refill itself is tested on a
        // clock the test moves (bucket-stores.test).
        await new Promise((resolve) => setTimeout(resolve, Number(limited.headers.get('retry-after')) * 1000));
        assert.equal((await postCall(t.baseUrl, GROUPS, user())).status, 200, 'recovered after Retry-After');

        const metrics = await (await fetch(`${t.baseUrl}/metrics`)).text();
        assert.match(metrics, /gateway_rate_limited_requests_total\{route="\/v1\/call",limit="key"\} [1-9]/);
      } finally {
        await t.stop();
        if ('RATE_LIMIT_REDIS_PREFIX' in env) await takeRedisKeys(env.RATE_LIMIT_REDIS_PREFIX!);
      }
    });
  });
}

describe('rate limits through HTTP: routes and addresses', () => {
  test('/graphql answers 429 in the GraphQL error shape', async () => {
    const t = await services.another(TIGHT);
    try {
      for (let i = 0; i < 3; i++) assert.equal((await gqlAt(t.baseUrl, '{ me { id } }', {}, userKey)).status, 200);
      const limited = await gqlAt(t.baseUrl, '{ me { id } }', {}, userKey);
      assert.equal(limited.status, 429);
      assert.equal(limited.headers.get('retry-after'), '1');
      assert.deepEqual(limited.body, { errors: [{ message: 'Too many requests with this API key; retry in 1 s.', extensions: { code: 'TOO_MANY_REQUESTS', grpcStatus: 'RESOURCE_EXHAUSTED' } }] });
    } finally {
      await t.stop();
    }
  });

  test('/jobs pages count against the key of their X-Api-Key', async () => {
    const t = await services.another(TIGHT);
    try {
      for (let i = 0; i < 3; i++) await postCall(t.baseUrl, GROUPS, user());
      const page = await fetch(`${t.baseUrl}/jobs/some-job.html`, { headers: { 'x-api-key': userKey } });
      assert.equal(page.status, 429);
      assert.equal(page.headers.get('retry-after'), '1');
    } finally {
      await t.stop();
    }
  });

  test('guessing keys: refused keys close the address to further keys before identity is asked', { timeout: 60_000 }, async () => {
    const t = await services.another(TIGHT);
    try {
      for (let i = 0; i < 3; i++) assert.equal((await postCall(t.baseUrl, GROUPS, keyed(`guess-${i}`))).status, 401);
      const asked = services.identity.count('authenticate');
      const limited = await postCall(t.baseUrl, GROUPS, keyed('guess-3'));
      assert.equal(limited.status, 429);
      assert.deepEqual(limited.json, { message: 'Too many requests with invalid API keys from this address; retry in 1 s.', code: 'RESOURCE_EXHAUSTED' });
      assert.equal(services.identity.count('authenticate'), asked, 'identity was not asked');
      // Every key from this address waits (SECURITY.md: behind a shared address, set TRUST_PROXY).
      assert.equal((await postCall(t.baseUrl, GROUPS, user())).status, 429);
      // A refused key in GraphQL counts the same: the address's next token (one a second) goes to a guess,
      // taken the moment it comes (polled: after a fixed pause a second one could be back), and then the
      // address waits again.
      // No deadline of its own: the token comes on the wall clock, and the test's timeout ends a wait that never would.
      for (let n = 4; ; n++) {
        const code = (await gqlAt(t.baseUrl, '{ me { id } }', {}, `guess-${n}`)).body.errors?.[0]?.extensions?.['code'];
        if (code === 'UNAUTHENTICATED') break;
        assert.equal(code, 'TOO_MANY_REQUESTS');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.equal((await postCall(t.baseUrl, GROUPS, user())).status, 429);
    } finally {
      await t.stop();
    }
  });

  test('requests without a key are limited per address, apart from keyed ones', async () => {
    const t = await services.another(TIGHT);
    const anonymous = { 'content-type': 'application/json' };
    try {
      // Accepted once, the key is known good: it has a bucket of its own from then on.
      assert.equal((await postCall(t.baseUrl, GROUPS, user())).status, 200);
      for (let i = 0; i < 2; i++) assert.equal((await postCall(t.baseUrl, GROUPS, anonymous)).status, 401);
      const limited = await postCall(t.baseUrl, GROUPS, anonymous);
      assert.equal(limited.status, 429);
      assert.deepEqual(limited.json, { message: 'Too many requests without an API key from this address; retry in 1 s.', code: 'RESOURCE_EXHAUSTED' });
      assert.equal((await fetch(`${t.baseUrl}/ipfs/bafkreigh2akiscaildc`)).status, 429, 'public routes count too');
      assert.equal((await postCall(t.baseUrl, GROUPS, user())).status, 200, 'a valid key from the same address is not limited by them');
      assert.equal((await fetch(`${t.baseUrl}/healthz`)).status, 200, 'probes are never limited');
    } finally {
      await t.stop();
    }
  });

  test('X-Forwarded-For counts only from a trusted proxy (TRUST_PROXY)', async () => {
    const anonymous = (from: string) => ({ 'content-type': 'application/json', 'x-forwarded-for': from });
    const spoofed = await services.another(TIGHT);
    try {
      for (let i = 0; i < 3; i++) await postCall(spoofed.baseUrl, GROUPS, anonymous(`203.0.113.${i}`));
      assert.equal((await postCall(spoofed.baseUrl, GROUPS, anonymous('203.0.113.99'))).status, 429, 'a client cannot pick its address');
    } finally {
      await spoofed.stop();
    }
    const proxied = await services.another({ ...TIGHT, TRUST_PROXY: 'loopback' });
    try {
      for (let i = 0; i < 3; i++) await postCall(proxied.baseUrl, GROUPS, anonymous('203.0.113.1'));
      assert.equal((await postCall(proxied.baseUrl, GROUPS, anonymous('203.0.113.1'))).status, 429);
      assert.equal((await postCall(proxied.baseUrl, GROUPS, anonymous('203.0.113.2'))).status, 401, 'another client behind the proxy');
    } finally {
      await proxied.stop();
    }
  });
});

describe('rate limits through HTTP: keys not known good and anonymous pages', () => {
  test('a key identity has not accepted yet is counted as anonymous: its address\'s burst, then 429 before identity is asked', async () => {
    const t = await services.another(TIGHT);
    try {
      // Anonymous requests spend the address's burst (3)...
      for (let i = 0; i < 3; i++) assert.equal((await postCall(t.baseUrl, GROUPS, { 'content-type': 'application/json' })).status, 401);
      const asked = services.identity.count('authenticate');
      // ...so a key this gateway has not seen accepted waits like them, whether valid or made up.
      for (const key of [userKey, 'made-up-key']) {
        const limited = await postCall(t.baseUrl, GROUPS, keyed(key));
        assert.equal(limited.status, 429, key);
        assert.deepEqual(limited.json, { message: 'Too many requests with new API keys from this address; retry in 1 s.', code: 'RESOURCE_EXHAUSTED' });
      }
      assert.equal(services.identity.count('authenticate'), asked, 'identity was not asked');
    } finally {
      await t.stop();
    }
  });

  test('a key revoked through this gateway is known good no more at once: it waits with anonymous traffic again', async () => {
    const t = await services.another({ ...TIGHT, RATE_LIMIT_KEY_BURST: '10' });
    // An account of its own: revoking the file's user key would lock the other tests out.
    const account = await services.createAccount('Revoking');
    try {
      // Its first request, not yet known, and two anonymous ones spend the address's burst (3).
      assert.equal((await postCall(t.baseUrl, GROUPS, keyed(account.apiKey))).status, 200);
      for (let i = 0; i < 2; i++) assert.equal((await postCall(t.baseUrl, GROUPS, { 'content-type': 'application/json' })).status, 401);
      assert.equal((await postCall(t.baseUrl, GROUPS, { 'content-type': 'application/json' })).status, 429);
      assert.equal((await postCall(t.baseUrl, GROUPS, keyed(account.apiKey))).status, 200, 'known good: the address\'s spent burst does not hold it back');
      // Revoked by its own account, through this gateway.
      const revoked = await gqlAt(t.baseUrl, `mutation { revokeApiKey(keyId: "${account.keyId}") { key { id } } }`, {}, account.apiKey);
      assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
      const after = await postCall(t.baseUrl, GROUPS, keyed(account.apiKey));
      assert.equal(after.status, 429);
      assert.deepEqual(after.json, { message: 'Too many requests with new API keys from this address; retry in 1 s.', code: 'RESOURCE_EXHAUSTED' });
    } finally {
      await t.stop();
    }
  });

  test('the global unauthenticated bucket holds every address back together (RATE_LIMIT_UNAUTH_*)', async () => {
    const t = await services.another({ ...TIGHT, TRUST_PROXY: 'loopback', RATE_LIMIT_UNAUTH_PER_SECOND: '1', RATE_LIMIT_UNAUTH_BURST: '4' });
    const from = (address: string) => ({ 'content-type': 'application/json', 'x-forwarded-for': address });
    try {
      for (let i = 0; i < 4; i++) assert.equal((await postCall(t.baseUrl, GROUPS, from(`203.0.113.${i}`))).status, 401);
      const limited = await postCall(t.baseUrl, GROUPS, from('203.0.113.50'));
      assert.equal(limited.status, 429, 'a fresh address, but the service\'s unauthenticated burst is spent');
      assert.deepEqual(limited.json, { message: 'Too many requests without an API key to this service; retry in 1 s.', code: 'RESOURCE_EXHAUSTED' });
      const metrics = await (await fetch(`${t.baseUrl}/metrics`)).text();
      assert.match(metrics, /gateway_rate_limited_requests_total\{route="\/v1\/call",limit="unauthenticated"\} 1/);
    } finally {
      await t.stop();
    }
  });

  test('every anonymous page is limited: /explorer, /certificates (page and files), /claim; a page\'s 429 is a page', async () => {
    const t = await services.another(TIGHT);
    const guid = '00000000-0000-4000-8000-000000000000';
    const relayedBefore = services.chain!.count('relayJsonRpc');
    try {
      for (let i = 0; i < 3; i++) await fetch(`${t.baseUrl}/explorer/amoy/tx/0x${'9'.repeat(64)}`);
      const pages = [`/explorer/amoy/tx/0x${'9'.repeat(64)}`, `/certificates/${guid}`, `/claim?guid=${guid}`];
      for (const path of pages) {
        const res = await fetch(`${t.baseUrl}${path}`);
        assert.equal(res.status, 429, path);
        assert.equal(res.headers.get('retry-after'), '1', path);
        assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8', path);
        assert.match(await res.text(), /Too many requests without an API key from this address/, path);
      }
      const claim = await fetch(`${t.baseUrl}/claim`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'guid=x' });
      assert.equal(claim.status, 429);
      const file = await fetch(`${t.baseUrl}/certificates/${guid}.pdf`);
      assert.equal(file.status, 429);
      assert.equal(((await file.json()) as { code: string }).code, 'RESOURCE_EXHAUSTED');
      assert.equal((await fetch(`${t.baseUrl}/graphql/assets/explorer.css`)).status, 429, 'the GraphQL explorer\'s files too');
      const relayed = services.chain!.count('relayJsonRpc') - relayedBefore;
      assert.ok(relayed <= 2, `the node was read ${relayed} times for three pages`);
      const metrics = await (await fetch(`${t.baseUrl}/metrics`)).text();
      assert.match(metrics, /gateway_rate_limited_requests_total\{route="\/explorer\/:network\/tx\/:hash",limit="address"\} 1/);
      assert.match(metrics, /gateway_rate_limited_requests_total\{route="\/certificates\/:guid.pdf",limit="address"\} 1/);
      assert.equal((await fetch(`${t.baseUrl}/healthz`)).status, 200, 'probes are never limited');
    } finally {
      await t.stop();
    }
  });
});

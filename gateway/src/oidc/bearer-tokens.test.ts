import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createClient, type Client } from 'graphql-ws';
import { SignJWT } from 'jose';
import WebSocket from 'ws';
import { onlyError, type GqlResponse } from '@green-impact/testing/gateway/graphql-calls';
import { startTestIssuer, TEST_AUDIENCE, type TestIssuer, type TokenClaims } from '@green-impact/testing/gateway/oidc-issuer';
import { startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { postCall } from '@green-impact/testing/gateway/v1-calls';
import { deadPort } from '@green-impact/testing/gateway/dead-port';
import { createLogger } from '@green-impact/shared/logger';
import { BEARER_NOT_ENABLED } from './bearer-tokens.js';

/**
 * Bearer tokens (OpenID Connect access tokens) on /graphql over HTTP and WebSocket and on /v1/call,
 * issued by a real OpenID provider (oidc-provider, on a loopback port) to the real identity service's
 * accounts. Every refusal is the unauthenticated (or not-authorized) error of its face, never a 500.
 */

const ESG = 'SVC.ESG.Credits';
let t: TestGateway;
let issuer: TestIssuer;
let stranger: TestIssuer;
const logLines: string[] = [];

const issuersEnv = (skew: number) =>
  JSON.stringify([{ issuer: issuer.issuer, audience: TEST_AUDIENCE, clockSkewSeconds: skew, algorithms: ['RS256', 'ES256'] }]);

before(async () => {
  issuer = await startTestIssuer();
  stranger = await startTestIssuer();
  // No skew, so an expired token is seen as such at once; no JWKS cooldown, so a rotation is seen at once.
  // The chain backend: a token's subject is stored with the jobs it creates; the log: its audit fields.
  t = await startTestGateway({ OIDC_ISSUERS: issuersEnv(0), OIDC_JWKS_COOLDOWN_MS: '0' }, { chain: true, log: createLogger('gateway', { level: 'info' }, { write: (line: string) => void logLines.push(line) }) });
});
after(async () => {
  await t?.stop();
  await issuer?.close();
  await stranger?.close();
});

const userToken = (more: Partial<TokenClaims> = {}) => issuer.mint({ subject: 'alice', account: t.user.accountId, ...more });

async function gql(query: string, token: string, baseUrl = t.baseUrl, apiKey?: string): Promise<GqlResponse> {
  const res = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...(apiKey ? { 'x-api-key': apiKey } : {}) },
    body: JSON.stringify({ query }),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as GqlResponse['body'] };
}

const call = (operation: string, token: string, baseUrl = t.baseUrl) =>
  postCall(baseUrl, { solution: ESG, operation, parameters: {} }, { 'content-type': 'application/json', authorization: `Bearer ${token}` });

/** A refusal on both HTTP faces: 401 UNAUTHENTICATED with `message` on /v1/call, the same error on GraphQL. */
async function refusedEverywhere(token: string, message: string, baseUrl = t.baseUrl): Promise<void> {
  const v1 = await call('getUsers', token, baseUrl);
  assert.equal(v1.status, 401, v1.text);
  assert.deepEqual({ code: v1.json['code'], message: v1.json['message'] }, { code: 'UNAUTHENTICATED', message });
  const g = await gql('{ apiKeys { id } }', token, baseUrl);
  assert.notEqual(g.status, 500);
  assert.deepEqual(onlyError(g), { message, code: 'UNAUTHENTICATED' });
}

function connect(connectionParams: Record<string, unknown>, closed: (e: { code: number; reason: string }) => void, baseUrl = t.baseUrl): Client {
  return createClient({
    url: `${baseUrl.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams,
    retryAttempts: 0,
    lazy: false,
    onNonLazyError: () => undefined,
    on: { closed: (e) => closed(e as { code: number; reason: string }) },
  });
}

function queryOver(client: Client, query: string): Promise<{ data?: unknown; errors?: { message: string; extensions?: Record<string, unknown> }[] }> {
  return new Promise((resolve, reject) => {
    let result: unknown;
    client.subscribe({ query }, { next: (r) => (result = r), error: reject, complete: () => resolve(result as never) });
  });
}

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('a valid token', () => {
  test('authenticates /graphql, /v1/call and a WebSocket as its account', async () => {
    const token = await userToken();
    const g = await gql('{ apiKeys { id } }', token);
    assert.equal(g.status, 200);
    assert.equal(g.body.errors, undefined, JSON.stringify(g.body));
    assert.deepEqual((g.body.data!['apiKeys'] as { id: string }[]).map((k) => k.id), [t.userKeyId]);
    const v1 = await call('getUsers', token);
    assert.equal(v1.status, 200, v1.text);
    assert.deepEqual(v1.json, { message: 'No users are registered.' });
    let closedWith: { code: number } | undefined;
    const ws = connect({ authorization: `Bearer ${token}` }, (e) => (closedWith = e));
    try {
      const answer = await queryOver(ws, '{ apiKeys { id } }');
      assert.deepEqual(answer, { data: { apiKeys: [{ id: t.userKeyId }] } });
      assert.equal(closedWith, undefined);
    } finally {
      await ws.dispose();
    }
  });

  test('a token with the write scope writes; a read-only one reads but is refused every write, on both faces', async () => {
    const writer = await userToken();
    const w = await gql('mutation { generateEncryptionKey { encryptionKey } }', writer);
    assert.match(String((w.body.data?.['generateEncryptionKey'] as { encryptionKey?: unknown } | undefined)?.encryptionKey), /^[0-9a-f]{64}$/, JSON.stringify(w.body));
    assert.equal((await call('generateEncryptionKey', writer)).status, 200);

    const reader = await userToken({ scope: 'impact:read' });
    assert.equal((await call('getUsers', reader)).status, 200);
    const refusal = 'This bearer token is read-only (it lacks the write scope): it may not change anything.';
    const v1 = await call('generateEncryptionKey', reader);
    assert.equal(v1.status, 403, v1.text);
    assert.deepEqual({ code: v1.json['code'], message: v1.json['message'] }, { code: 'PERMISSION_DENIED', message: refusal });
    // A refusal of the token, never a user error, even with userErrors selected.
    assert.deepEqual(onlyError(await gql('mutation { generateEncryptionKey { encryptionKey userErrors { message } } }', reader)), { message: refusal, code: 'FORBIDDEN' });
    const before = (await gql('{ apiKeys { id } }', reader)).body.data!['apiKeys'] as unknown[];
    assert.deepEqual(onlyError(await gql('mutation { issueApiKey { apiKey } }', reader)), { message: refusal, code: 'FORBIDDEN' });
    assert.equal(((await gql('{ apiKeys { id } }', reader)).body.data!['apiKeys'] as unknown[]).length, before.length, 'no key was issued');
    // A mutation over the WebSocket is refused the same way.
    const ws = connect({ authorization: `Bearer ${reader}` }, () => undefined);
    try {
      const answer = await queryOver(ws, 'mutation { generateEncryptionKey { encryptionKey } }');
      assert.deepEqual(answer.errors?.map((e) => [e.message, e.extensions?.['code']]), [[refusal, 'FORBIDDEN']]);
    } finally {
      await ws.dispose();
    }
  });

  test('the token\'s subject is the acting person: stored with the job it creates and answered on it', async () => {
    const written = await gql('mutation { insertString(input: { network: "sepolia", key: "acted-by-alice", value: "v" }) { job { id actedBy { subject issuer } } } }', await userToken());
    assert.equal(written.body.errors, undefined, JSON.stringify(written.body));
    const { job } = (written.body.data as { insertString: { job: { id: string; actedBy: unknown } } }).insertString;
    assert.deepEqual(job.actedBy, { subject: 'alice', issuer: issuer.issuer });
    // Read back with the account's API key: the job still names who asked for it.
    const read = await fetch(`${t.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': t.userKey },
      body: JSON.stringify({ query: `{ job(id: "${job.id}") { actedBy { subject issuer } } }` }),
    });
    assert.deepEqual(((await read.json()) as { data: { job: unknown } }).data.job, { actedBy: { subject: 'alice', issuer: issuer.issuer } });
    // The access log line of the write names the account and the person (audit fields); the read by key, the account alone.
    const lines = logLines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l['msg'] === 'request' && l['route'] === '/graphql');
    assert.ok(lines.some((l) => l['accountId'] === t.user.accountId && JSON.stringify(l['actor']) === JSON.stringify({ subject: 'alice', issuer: issuer.issuer })), JSON.stringify(lines));
    assert.ok(lines.some((l) => l['accountId'] === t.user.accountId && l['actor'] === undefined));
  });

  test('the role is the token\'s, never above the account\'s own', async () => {
    const accounts = '{ accounts(first: 5) { totalCount } }';
    const asOperator = await issuer.mint({ subject: 'root', account: t.operator.accountId, role: 'operator' });
    assert.equal((await gql(accounts, asOperator)).body.errors, undefined);
    const operatorAccountNoRole = await issuer.mint({ subject: 'bob', account: t.operator.accountId });
    assert.equal(onlyError(await gql(accounts, operatorAccountNoRole)).code, 'FORBIDDEN');
    const userAccountOperatorRole = await userToken({ role: 'operator' });
    assert.equal(onlyError(await gql(accounts, userAccountOperatorRole)).code, 'FORBIDDEN');
  });

  test('an API key keeps working; a key and a token together are refused', async () => {
    const res = await fetch(`${t.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': t.userKey },
      body: JSON.stringify({ query: '{ apiKeys { id } }' }),
    });
    assert.equal(((await res.json()) as GqlResponse['body']).errors, undefined);
    const both = await gql('{ apiKeys { id } }', await userToken(), t.baseUrl, t.userKey);
    assert.deepEqual(onlyError(both), { message: 'Send an API key or a bearer token, not both.', code: 'UNAUTHENTICATED' });
  });
});

/**
 * Issue 46: an issuer speaks only for the accounts it is bound to (OIDC_ISSUERS `accounts`), and only an
 * issuer allowed to (`grantsOperator`) gives the operator role. Two real oidc-provider issuers on one gateway.
 */
describe('two issuers: each signs in only to its own accounts', () => {
  test('the second cannot reach the first\'s accounts nor the operator role; its own account works, the first keeps both', async () => {
    const partner = await t.createAccount('Partner Ltd');
    const two = await t.another({
      OIDC_ISSUERS: JSON.stringify([
        { issuer: issuer.issuer, audience: TEST_AUDIENCE, accounts: '*', grantsOperator: true },
        // Bound to the operator account too, to show that binding alone gives no operator role.
        { issuer: stranger.issuer, audience: TEST_AUDIENCE, accounts: [partner.caller.accountId, t.operator.accountId] },
      ]),
    });
    try {
      const notItsAccount = 'The bearer token\'s issuer may not sign in to this account.';
      await refusedEverywhere(await stranger.mint({ subject: 'mallory', account: t.user.accountId }), notItsAccount, two.baseUrl);
      const own = await call('getUsers', await stranger.mint({ subject: 'pat', account: partner.caller.accountId }), two.baseUrl);
      assert.equal(own.status, 200, own.text);
      const accounts = '{ accounts(first: 5) { totalCount } }';
      const strangerOperator = await stranger.mint({ subject: 'mallory', account: t.operator.accountId, role: 'operator' });
      assert.equal(onlyError(await gql(accounts, strangerOperator, two.baseUrl)).code, 'FORBIDDEN');
      const firstOperator = await issuer.mint({ subject: 'root', account: t.operator.accountId, role: 'operator' });
      assert.equal((await gql(accounts, firstOperator, two.baseUrl)).body.errors, undefined);
      assert.equal((await call('getUsers', await userToken(), two.baseUrl)).status, 200);
    } finally {
      await two.stop();
    }
  });

  test('a new token\'s account is one read by id, however many accounts there are (no scan of listAccounts)', async () => {
    for (let i = 0; i < 5; i++) await t.createAccount(`Filler ${i}`);
    const newest = await t.createAccount('Newest');
    const [listed, read] = [t.identity.count('listAccounts'), t.identity.count('getAccount')];
    const res = await call('getUsers', await issuer.mint({ subject: 'nina', account: newest.caller.accountId }), t.baseUrl);
    assert.equal(res.status, 200, res.text);
    assert.equal(t.identity.count('listAccounts') - listed, 0, 'no page of every account was read');
    assert.equal(t.identity.count('getAccount') - read, 1, 'one read of the token\'s account');
    const asked = t.identity.calls.filter((c) => c.method === 'getAccount').at(-1)!.request as { accountId: string };
    assert.equal(asked.accountId, newest.caller.accountId);
  });
});

describe('refused tokens: 401, never 500', () => {
  test('expired', async () => {
    const token = await userToken({ ttlSeconds: 1 });
    await new Promise((r) => setTimeout(r, 2_100));
    await refusedEverywhere(token, 'The bearer token has expired.');
  });

  test('not yet valid; a configured clock skew lets a near nbf pass', async () => {
    const soon = await userToken({ notBefore: Math.floor(Date.now() / 1000) + 20 });
    await refusedEverywhere(soon, 'The bearer token is not valid yet.');
    const lenient = await t.another({ OIDC_ISSUERS: issuersEnv(60) });
    try {
      assert.equal((await call('getUsers', soon, lenient.baseUrl)).status, 200);
    } finally {
      await lenient.stop();
    }
  });

  test('wrong audience', async () => {
    await refusedEverywhere(await userToken({ resource: 'https://another-api.test' }), 'The bearer token is not meant for this service (audience).');
  });

  test('wrong issuer, and a token that claims the configured issuer but is signed by another', async () => {
    const foreign = await stranger.mint({ subject: 'alice', account: t.user.accountId });
    await refusedEverywhere(foreign, 'The bearer token was issued by an issuer this gateway does not accept.');
    const [, payload, signature] = foreign.split('.');
    const claimed = { ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), iss: issuer.issuer };
    const forged = `${foreign.split('.')[0]}.${b64(claimed)}.${signature}`;
    await refusedEverywhere(forged, 'The bearer token is not valid.');
  });

  test('alg none, and an HMAC token keyed with the provider\'s public key', async () => {
    const genuine = await userToken();
    const payload = JSON.parse(Buffer.from(genuine.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    await refusedEverywhere(`${b64({ alg: 'none', typ: 'at+jwt' })}.${b64(payload)}.`, 'The bearer token\'s signature algorithm is not accepted.');
    const [publicKey] = (await issuer.publicJwks()).keys;
    const hmac = await new SignJWT(payload)
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: publicKey!.kid! })
      .sign(new TextEncoder().encode(JSON.stringify(publicKey)));
    await refusedEverywhere(hmac, 'The bearer token\'s signature algorithm is not accepted.');
  });

  test('a token for an account identity does not have (deleted), and one that names no account', async () => {
    await refusedEverywhere(await issuer.mint({ subject: 'ghost', account: randomUUID() }), 'The bearer token\'s account does not exist.');
    await refusedEverywhere(await issuer.mint({ subject: 'ghost', account: 'acme-corp' }), 'The bearer token\'s account does not exist.');
    await refusedEverywhere(await issuer.mint({ subject: 'nobody' }), 'The bearer token names no account (claim green_impact_account).');
  });

  test('garbage is not a JWT', async () => {
    await refusedEverywhere('not-a-jwt', 'The bearer token is not a JWT.');
  });
});

test('key rotation: a token signed with the provider\'s new key is accepted (the JWKS is fetched again)', async () => {
  const before = await userToken();
  assert.equal((await call('getUsers', before)).status, 200);
  const kidOf = (token: string) => (JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as { kid: string }).kid;
  await issuer.rotateKeys();
  const after = await userToken();
  assert.notEqual(kidOf(after), kidOf(before));
  const v1 = await call('getUsers', after);
  assert.equal(v1.status, 200, v1.text);
  assert.equal((await gql('{ apiKeys { id } }', after)).body.errors, undefined);
});

test('a WebSocket opened with a token closes when the token expires; a refused token closes it with 4401', async () => {
  const token = await userToken({ ttlSeconds: 2 });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    const ws = connect({ authorization: `Bearer ${token}` }, resolve);
    void queryOver(ws, '{ apiKeys { id } }');
  });
  const { code, reason } = await closed;
  assert.equal(code, 4001);
  assert.equal(reason, 'The bearer token expired; reconnect with a fresh one.');
  const refused = await new Promise<{ code: number; reason: string }>((resolve) => connect({ authorization: `Bearer ${token}` }, resolve));
  assert.equal(refused.code, 4401);
  assert.equal(refused.reason, 'The bearer token has expired.');
});

test('rate limits: an accepted token draws from a bucket of its own, not from its address\'s anonymous one', async () => {
  const strict = await t.another({ RATE_LIMIT_PER_ADDRESS: '1', RATE_LIMIT_ADDRESS_BURST: '3', RATE_LIMIT_PER_KEY: '100', RATE_LIMIT_KEY_BURST: '100' });
  try {
    const token = await userToken();
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await call('getUsers', token, strict.baseUrl)).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200, 200, 200]);
    // Anonymous requests from the same address still meet its small bucket (the token's first request took one).
    const anonymous: number[] = [];
    for (let i = 0; i < 4; i++) anonymous.push((await postCall(strict.baseUrl, { solution: ESG, operation: 'getUsers', parameters: {} }, { 'content-type': 'application/json' })).status);
    assert.ok(anonymous.includes(429), JSON.stringify(anonymous));
  } finally {
    await strict.stop();
  }
});

test('an issuer that cannot be reached: 503 UNAVAILABLE (retry), not 401 nor 500', async () => {
  const dead = await deadPort();
  const down = `http://127.0.0.1:${dead.port}`;
  const unreachable = await t.another({ OIDC_ISSUERS: JSON.stringify([{ issuer: down, audience: TEST_AUDIENCE }]) });
  try {
    const [header, payload, signature] = (await userToken()).split('.');
    const claimed = { ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), iss: down };
    const token = `${header}.${b64(claimed)}.${signature}`;
    const v1 = await call('getUsers', token, unreachable.baseUrl);
    assert.equal(v1.status, 503, v1.text);
    assert.deepEqual({ code: v1.json['code'], message: v1.json['message'] }, { code: 'UNAVAILABLE', message: 'The token issuer cannot be reached to check the bearer token; please retry.' });
    assert.equal(onlyError(await gql('{ apiKeys { id } }', token, unreachable.baseUrl)).code, 'SERVICE_UNAVAILABLE');
  } finally {
    await unreachable.stop();
    await dead.close();
  }
});

test('without a configured issuer a bearer token gets a clear 401 on every face', async () => {
  const plain = await t.another({ OIDC_ISSUERS: undefined });
  try {
    const token = await userToken();
    await refusedEverywhere(token, BEARER_NOT_ENABLED, plain.baseUrl);
    const refused = await new Promise<{ code: number; reason: string }>((resolve) => connect({ authorization: `Bearer ${token}` }, resolve, plain.baseUrl));
    assert.equal(refused.code, 4401);
    assert.equal(refused.reason, BEARER_NOT_ENABLED.slice(0, 120));
  } finally {
    await plain.stop();
  }
});

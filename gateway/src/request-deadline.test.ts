import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { gqlAt } from '@green-impact/testing/gateway/graphql-calls';
import { postCall } from './testing/test-gateway.js';
import { jsonHeaders, startTestGateway, type TestGateway } from './testing/real-gateway.js';

const GROUPS = { solution: 'SVC.ESG.Credits', operation: 'getGroups' };

/** The gateway with an account "Slow" whose getGroups calls identity holds until the gateway cancels them; answers its key. */
async function startWithSlowAccount(env: Record<string, string>): Promise<{ t: TestGateway; slowKey: string }> {
  const t = await startTestGateway(env);
  const slow = await t.createAccount('Slow');
  t.identity.hold((c) => c.method === 'getGroups' && c.caller?.accountId === slow.caller.accountId);
  return { t, slowKey: slow.apiKey };
}

/**
 * The request budget of these tests: long enough for the real authentication and the calls before the held
 * one (on a loaded machine too), so what runs over it is the call identity holds.
 */
const BUDGET_MS = 2_000;
const OVER_BUDGET = `The request did not finish within ${BUDGET_MS} ms and was cancelled; please retry.`;

/** Polls until `check` holds (backends see a cancellation a moment after the client got its answer). */
async function eventually(check: () => boolean, ms = 10_000, state?: () => string): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) assert.fail(`condition not met in time${state ? `: ${state()}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('a request over REQUEST_DEADLINE_MS answers 504 in time and cancels its backend call', async () => {
  const { t, slowKey } = await startWithSlowAccount({ REQUEST_DEADLINE_MS: String(BUDGET_MS) });
  try {
    const started = Date.now();
    const res = await postCall(t.baseUrl, GROUPS, jsonHeaders(slowKey));
    const took = Date.now() - started;
    assert.equal(res.status, 504);
    assert.deepEqual(res.json, { message: OVER_BUDGET, code: 'DEADLINE_EXCEEDED' });
    assert.ok(took >= BUDGET_MS - 20 && took < BUDGET_MS + 1_200, `answered after ${took} ms`);
    await eventually(() => t.identity.cancelled.some((c) => c.method === 'getGroups'));

    // The connection and the gateway go on serving; a fast request is not affected by the budget.
    const fast = await postCall(t.baseUrl, GROUPS, jsonHeaders(t.userKey));
    assert.equal(fast.status, 200);
    const metrics = await (await fetch(`${t.baseUrl}/metrics`)).text();
    assert.match(metrics, /gateway_request_deadline_exceeded_total\{route="\/v1\/call"\} [1-9]/);
    assert.match(metrics, /http_requests_total\{route="\/v1\/call",method="POST",status="504"\} [1-9]/);
  } finally {
    await t.stop();
  }
});

test('/graphql over its budget: 504 in the GraphQL error shape, backend call cancelled', async () => {
  const { t, slowKey } = await startWithSlowAccount({ REQUEST_DEADLINE_MS: String(BUDGET_MS) });
  try {
    const res = await gqlAt(t.baseUrl, '{ groups { id name } }', {}, slowKey);
    assert.equal(res.status, 504);
    assert.deepEqual(res.body, {
      errors: [{ message: OVER_BUDGET, extensions: { code: 'DEADLINE_EXCEEDED' } }],
    });
    await eventually(() => t.identity.cancelled.some((c) => c.method === 'getGroups'));
  } finally {
    await t.stop();
  }
});

test('a client that goes away cancels the backend calls of its request', async () => {
  const { t, slowKey } = await startWithSlowAccount({ REQUEST_DEADLINE_MS: '60000' });
  try {
    const gone = new AbortController();
    const pending = fetch(`${t.baseUrl}/v1/call`, { method: 'POST', headers: jsonHeaders(slowKey), body: JSON.stringify(GROUPS), signal: gone.signal });
    await eventually(() => t.identity.calls.some((c) => c.method === 'getGroups'));
    gone.abort();
    await assert.rejects(pending);
    await eventually(() => t.identity.cancelled.length === 1, 10_000, () => JSON.stringify(t.identity.cancelled));
  } finally {
    await t.stop();
  }
});

test('slow headers (slowloris) are cut after HTTP_HEADERS_TIMEOUT_MS with 408', async () => {
  const t = await startTestGateway({ HTTP_HEADERS_TIMEOUT_MS: '300', HTTP_REQUEST_TIMEOUT_MS: '1000' });
  try {
    const { port } = new URL(t.baseUrl);
    const socket = net.connect(Number(port), '127.0.0.1');
    const started = Date.now();
    socket.write(`POST /v1/call HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Api-Key: ${t.userKey}\r\n`);
    // Trickle one more header line, never finishing the headers.
    const trickle = setInterval(() => socket.write('X-Slow: 1\r\n'), 100);
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    await new Promise<void>((resolve) => socket.once('close', () => resolve()));
    clearInterval(trickle);
    const took = Date.now() - started;
    assert.match(answer, /^HTTP\/1\.1 408 /);
    assert.ok(took >= 300 && took < 2_500, `closed after ${took} ms`);
  } finally {
    await t.stop();
  }
});

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { gqlAt } from '@green-impact/testing/gateway/graphql-calls';
import { postCall } from '@green-impact/testing/gateway/v1-calls';
import { jsonHeaders, startTestGateway, type TestAccount, type TestGateway } from '@green-impact/testing/gateway/real-gateway';

/**
 * The gateway's time limits in front of the real identity service. A request stays unanswered by holding
 * its getGroups call at identity's gRPC face (service-tap.ts) for one account ("Slow"): the service never
 * sees it, and the tap records the gateway cancelling it.
 */

const GROUPS = { solution: 'SVC.ESG.Credits', operation: 'getGroups' };

/** Polls until `check` holds (backends see a cancellation a moment after the client got its answer). */
async function eventually(check: () => boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) assert.fail('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** An account whose getGroups calls identity holds unanswered; answers its key. */
async function slowAccount(t: TestGateway): Promise<TestAccount> {
  const slow = await t.createAccount('Slow');
  t.identity.hold((c) => c.method === 'getGroups' && c.caller?.accountId === slow.caller.accountId);
  return slow;
}

/**
 * The budget leaves the real identity service time to answer a request that is not held even on a loaded
 * machine (300 ms did not); the held ones use it up.
 */
const BUDGET_MS = 1_500;
const OVER_BUDGET = `The request did not finish within ${BUDGET_MS} ms and was cancelled; please retry.`;

describe('with REQUEST_DEADLINE_MS 1500 and HTTP_HEADERS_TIMEOUT_MS 300', () => {
  let t: TestGateway;
  let slow: TestAccount;
  before(async () => {
    t = await startTestGateway({ REQUEST_DEADLINE_MS: String(BUDGET_MS), HTTP_HEADERS_TIMEOUT_MS: '300', HTTP_REQUEST_TIMEOUT_MS: '60000' });
    slow = await slowAccount(t);
  });
  after(async () => {
    await t?.stop();
  });

  test('a request over REQUEST_DEADLINE_MS answers 504 in time and cancels its backend call', async () => {
    const cancelledBefore = t.identity.cancelled.length;
    // The held call is never answered, so any answer at all is the deadline's doing (its text names the
    // budget); how long it took is not asserted (a loaded machine answers later), the cancellation is.
    const res = await postCall(t.baseUrl, GROUPS, jsonHeaders(slow.apiKey));
    assert.equal(res.status, 504);
    assert.deepEqual(res.json, { message: OVER_BUDGET, code: 'DEADLINE_EXCEEDED' });
    await eventually(() => t.identity.cancelled.slice(cancelledBefore).some((c) => c.method === 'getGroups'));

    // The connection and the gateway go on serving; a fast request is not affected by the budget.
    const fast = await postCall(t.baseUrl, GROUPS, jsonHeaders(t.userKey));
    assert.equal(fast.status, 200, fast.text);
    const metrics = await (await fetch(`${t.baseUrl}/metrics`)).text();
    assert.match(metrics, /gateway_request_deadline_exceeded_total\{route="\/v1\/call"\} [1-9]/);
    assert.match(metrics, /http_requests_total\{route="\/v1\/call",method="POST",status="504"\} [1-9]/);
  });

  test('/graphql over its budget: 504 in the GraphQL error shape, backend call cancelled', async () => {
    const cancelledBefore = t.identity.cancelled.length;
    const res = await gqlAt(t.baseUrl, '{ groups { id name } }', {}, slow.apiKey);
    assert.equal(res.status, 504, JSON.stringify(res.body));
    assert.deepEqual(res.body, {
      errors: [{ message: OVER_BUDGET, extensions: { code: 'GATEWAY_TIMEOUT', grpcStatus: 'DEADLINE_EXCEEDED' } }],
    });
    await eventually(() => t.identity.cancelled.slice(cancelledBefore).some((c) => c.method === 'getGroups'));
  });

  test('slow headers (slowloris) are cut after HTTP_HEADERS_TIMEOUT_MS with 408', { timeout: 20_000 }, async () => {
    const { port } = new URL(t.baseUrl);
    const socket = net.connect(Number(port), '127.0.0.1');
    socket.write(`POST /v1/call HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Api-Key: ${t.userKey}\r\n`);
    // Trickle one more header line, never finishing the headers: only the server can end this exchange.
    let trickling = true;
    const trickle = setInterval(() => socket.write('X-Slow: 1\r\n'), 100);
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const closedBy = await new Promise<string>((resolve) => socket.once('close', () => resolve(trickling ? 'the server' : 'the client')));
    trickling = false;
    clearInterval(trickle);
    assert.equal(closedBy, 'the server');
    assert.match(answer, /^HTTP\/1\.1 408 /);
    // The whole-request limit is a minute, past this test's own timeout: the headers limit cut it.
  });
});

test('a client that goes away cancels the backend calls of its request', async () => {
  const t = await startTestGateway({ REQUEST_DEADLINE_MS: '60000' });
  try {
    const slow = await slowAccount(t);
    const gone = new AbortController();
    const pending = fetch(`${t.baseUrl}/v1/call`, { method: 'POST', headers: jsonHeaders(slow.apiKey), body: JSON.stringify(GROUPS), signal: gone.signal });
    await eventually(() => t.identity.calls.some((c) => c.method === 'getGroups'));
    const held = t.identity.calls.find((c) => c.method === 'getGroups')!;
    gone.abort();
    await assert.rejects(pending);
    // The tap also lists some answered calls as cancelled (createAccount, authenticate): the held call is the one that matters.
    await eventually(() => t.identity.cancelled.some((c) => c.method === 'getGroups'));
    assert.deepEqual(t.identity.cancelled.filter((c) => c.method === 'getGroups'), [{ method: 'getGroups', requestId: held.requestId }]);
  } finally {
    await t.stop();
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { createLogger } from '@green-impact/shared/logger';
import { loadGatewayConfig } from './config.js';
import { createGateway } from './gateway.js';
import { deadPort } from '@green-impact/testing/gateway/dead-port';
import { createOperationTable } from './v1/operation-table.js';
import { postCall } from '@green-impact/testing/gateway/v1-calls';
import { jsonHeaders, startTestGateway } from '@green-impact/testing/gateway/real-gateway';

test('/healthz, /readyz and /metrics', async () => {
  const t = await startTestGateway();
  try {
    assert.deepEqual(await (await fetch(`${t.baseUrl}/healthz`)).json(), { status: 'ok' });
    const ready = await fetch(`${t.baseUrl}/readyz`);
    assert.equal(ready.status, 200);
    assert.deepEqual(await ready.json(), { status: 'ready', backends: { identity: 'SERVING' } });

    await postCall(t.baseUrl, { solution: 'SVC.ESG.Credits', operation: 'getGroups' }, jsonHeaders(t.userKey));
    await postCall(t.baseUrl, 'not json', jsonHeaders(t.userKey));
    const metrics = await fetch(`${t.baseUrl}/metrics`);
    assert.match(metrics.headers.get('content-type') ?? '', /^text\/plain/);
    const text = await metrics.text();
    assert.match(text, /http_requests_total\{route="\/v1\/call",method="POST",status="200"\} \d+/);
    assert.match(text, /http_requests_total\{route="\/v1\/call",method="POST",status="400"\} \d+/);
    assert.match(text, /http_request_duration_seconds_bucket\{le="[^"]+",route="\/v1\/call"/);
    assert.match(text, /gateway_v1_operations_total\{operation="SVC\.ESG\.Credits\/getGroups",status="200"\} \d+/);
    assert.match(text, /process_cpu_user_seconds_total/);
  } finally {
    await t.stop();
  }
});

test('a backend down: /readyz stays 200, degraded, per backend; only that backend\'s operations answer 503', async () => {
  const dead = await deadPort();
  const port = dead.port;
  const t = await startTestGateway({ TAXONOMY_GRPC_ADDR: `127.0.0.1:${port}`, READY_CHECK_TIMEOUT_MS: '500', GRPC_DEADLINE_MS: '1000' });
  try {
    const res = await fetch(`${t.baseUrl}/readyz`);
    assert.equal(res.status, 200, 'one broken backend must not take the gateway pod out of the Service');
    assert.deepEqual(await res.json(), { status: 'degraded', backends: { identity: 'SERVING', taxonomy: 'UNREACHABLE' } });
    const taxonomyOp = await postCall(t.baseUrl, { solution: 'SVC.ESG.Credits', operation: 'getFrameworks', parameters: { reporting_year: 2024 } }, jsonHeaders(t.userKey));
    assert.equal(taxonomyOp.status, 503);
    assert.equal(taxonomyOp.json.code, 'UNAVAILABLE');
    const identityOp = await postCall(t.baseUrl, { solution: 'SVC.ESG.Credits', operation: 'getGroups' }, jsonHeaders(t.userKey));
    assert.equal(identityOp.status, 200, 'identity\'s operations still answer');
  } finally {
    await t.stop();
  }

  const log = createLogger('gateway-test', { level: 'silent' });
  const config = loadGatewayConfig({ IDENTITY_GRPC_ADDR: `127.0.0.1:${port}`, HOST: '127.0.0.1', PORT: '0', GRPC_DEADLINE_MS: '1000' });
  const gateway = createGateway({ config, log });
  const { port: httpPort } = await gateway.listen();
  try {
    const call = await postCall(`http://127.0.0.1:${httpPort}`, { solution: 'SVC.ESG.Credits', operation: 'getGroups' }, jsonHeaders('any-key'));
    assert.equal(call.status, 503);
    assert.equal(call.json.code, 'UNAVAILABLE');
  } finally {
    await gateway.close();
    await dead.close();
  }
});

test('access log: one line per request, no keys, no bodies, no PII', async () => {
  const lines: unknown[] = [];
  const log = createLogger('gateway-test', {
    level: 'debug',
    hooks: {
      logMethod(args) {
        lines.push(args);
      },
    },
  });
  const t = await startTestGateway({}, { log });
  try {
    const res = await postCall(
      t.baseUrl,
      { solution: 'SVC.ESG.Credits', operation: 'addUser', parameters: { user_identifier: 'u1', user_email: 'secret.person@example.org', encryption_key: 'a'.repeat(64) } },
      jsonHeaders(t.userKey, { 'x-request-id': 'trace-me' }),
    );
    assert.equal(res.status, 200, res.text);
    const logged = JSON.stringify(lines);
    assert.match(logged, /trace-me/);
    assert.match(logged, /SVC\.ESG\.Credits\/addUser/);
    assert.doesNotMatch(logged, /secret\.person|aaaaaaaa|u1/);
    assert.ok(!logged.includes(t.userKey), 'the API key is never logged');
  } finally {
    await t.stop();
  }
});

test('close() releases the port and is idempotent', async () => {
  const t = await startTestGateway();
  const port = Number(new URL(t.baseUrl).port);
  await t.gateway.close();
  await t.gateway.close();
  await assert.rejects(fetch(`${t.baseUrl}/healthz`));
  // the port can be bound again
  const again = net.createServer();
  await new Promise<void>((resolve, reject) => again.once('error', reject).listen(port, '127.0.0.1', resolve));
  await new Promise((resolve) => again.close(resolve));
  await t.stop();
});

test('close() lets an in-flight request finish', async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let entered!: () => void;
  const inside = new Promise<void>((resolve) => (entered = resolve));
  const table = createOperationTable([
    // A row of a declared operation (OpenAPI describes every row's answer) whose handler waits for the test.
    {
      solution: 'SVC.ESG.Credits',
      operation: 'addCurrency',
      input: {},
      async handler() {
        entered();
        await gate;
        return { message: 'done' };
      },
    },
  ]);
  const t = await startTestGateway({}, { table });
  try {
    const pending = postCall(t.baseUrl, { solution: 'SVC.ESG.Credits', operation: 'addCurrency' }, jsonHeaders(t.userKey));
    await inside;
    const closed = t.gateway.close();
    release();
    const res = await pending;
    assert.equal(res.status, 200);
    assert.deepEqual(res.json, { message: 'done' });
    await closed;
  } finally {
    await t.stop();
  }
});

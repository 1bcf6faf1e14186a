import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { metricsRegistry } from '@green-impact/shared/metrics';
import { deadPort } from '@green-impact/testing/gateway/dead-port';
import { gqlAt } from '@green-impact/testing/gateway/graphql-calls';
import { startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { classifyCode, OperationNames, outcomeOf, unresolvedLabel } from './graphql-metrics.js';
import { GRAPHQL_CODE_OF } from './error-codes.js';
import type { ErrorCode } from '@green-impact/shared/errors';

/** The current value of gateway_graphql_operations_total for these labels (the registry is per process). */
async function operations(operation: string, outcome: string, transport = 'http'): Promise<number> {
  const metric = metricsRegistry.getSingleMetric('gateway_graphql_operations_total');
  assert.ok(metric, 'gateway_graphql_operations_total is not registered');
  const { values } = await metric.get();
  const found = values.find((v) => v.labels['operation'] === operation && v.labels['outcome'] === outcome && v.labels['transport'] === transport);
  return found?.value ?? 0;
}

/** How many times `run` adds to each operation/outcome pair. */
async function delta(operation: string, outcome: string, run: () => Promise<unknown>, transport = 'http'): Promise<number> {
  const before = await operations(operation, outcome, transport);
  await run();
  return (await operations(operation, outcome, transport)) - before;
}

describe('outcome classes', () => {
  test('codes: 4xx gRPC statuses are client errors, 5xx and unknown codes server errors, request and limit codes refusals', () => {
    const service = (grpcStatus: ErrorCode) => [GRAPHQL_CODE_OF[grpcStatus], grpcStatus] as const;
    for (const code of ['INVALID_ARGUMENT', 'NOT_FOUND', 'UNAUTHENTICATED', 'PERMISSION_DENIED', 'ALREADY_EXISTS', 'FAILED_PRECONDITION'] as const) assert.equal(classifyCode(...service(code)), 'client_error', code);
    for (const code of ['INTERNAL', 'UNAVAILABLE', 'DEADLINE_EXCEEDED', 'UNIMPLEMENTED'] as const) assert.equal(classifyCode(...service(code)), 'server_error', code);
    for (const code of ['INTERNAL_SERVER_ERROR', 'SOMETHING_NEW', undefined]) assert.equal(classifyCode(code), 'server_error', String(code));
    // A service's BAD_USER_INPUT is the caller's mistake; Apollo's (a variable that does not fit, no grpcStatus) a refused document.
    for (const code of ['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'QUERY_TOO_COMPLEX', 'BAD_USER_INPUT', 'BAD_REQUEST']) assert.equal(classifyCode(code), 'refused', code);
    assert.equal(classifyCode(...service('RESOURCE_EXHAUSTED')), 'refused');
  });

  test('an answer counts as its worst error; a bulkhead\'s SERVICE_UNAVAILABLE is a refusal', () => {
    const service = (grpcStatus: ErrorCode) => ({ code: GRAPHQL_CODE_OF[grpcStatus], grpcStatus });
    assert.equal(outcomeOf(undefined), 'success');
    assert.equal(outcomeOf([{ message: 'a', extensions: service('NOT_FOUND') }, { message: 'b', extensions: service('INTERNAL') }]), 'server_error');
    assert.equal(outcomeOf([{ message: 'a', extensions: service('NOT_FOUND') }]), 'client_error');
    assert.equal(outcomeOf([{ message: 'a', extensions: service('UNAVAILABLE') }], true), 'refused');
    assert.equal(outcomeOf([{ message: 'a', extensions: service('UNAVAILABLE') }]), 'server_error');
  });

  test('operation names are a bounded set: learned only from validated operations, at most max, then "other"', () => {
    const names = new OperationNames(10);
    assert.equal(names.label(undefined, true), 'anonymous');
    assert.equal(unresolvedLabel('NeverValidated'), 'other', 'a refused document\'s name does not join the set');
    assert.equal(names.label('NeverValidated', false), 'other');
    assert.equal(names.label('x'.repeat(65), true), 'other', 'overlong names are not labels');
    const labels = new Set<string>();
    for (let i = 0; i < 1000; i++) labels.add(names.label(`Flood${i}`, true));
    assert.equal(labels.size, 11, 'ten names and "other"');
    assert.ok(labels.has('other'));
    assert.equal(names.label('Flood0', true), 'Flood0', 'a name in the set keeps its label');
  });
});

describe('gateway_graphql_operations_total over HTTP and WebSocket', () => {
  let t: TestGateway;
  let dead: Awaited<ReturnType<typeof deadPort>>;
  before(async () => {
    dead = await deadPort();
    // Taxonomy down: its fields fail UNAVAILABLE inside a 200 answer.
    t = await startTestGateway({ TAXONOMY_GRPC_ADDR: `127.0.0.1:${dead.port}`, GRPC_DEADLINE_MS: '1000' });
  });
  after(async () => {
    await t.stop();
    await dead.close();
  });

  test('a 200 answer with a server error counts as server_error, not success (GreenImpactGraphqlErrorRatio\'s numerator)', async () => {
    let status = 0;
    const failures = await delta('MetricsLanguages', 'server_error', async () => {
      const res = await gqlAt(t.baseUrl, 'query MetricsLanguages { languages { code } }', {}, t.userKey);
      status = res.status;
      assert.equal(res.body.errors?.[0]?.extensions?.['code'], 'SERVICE_UNAVAILABLE');
    });
    assert.equal(status, 200, 'GraphQL answers errors with 200: http_requests_total cannot see this failure');
    assert.equal(failures, 1);
    assert.equal(await operations('MetricsLanguages', 'success'), 0);
  });

  test('success, client errors and refusals each count under their own outcome', async () => {
    assert.equal(await delta('MetricsMe', 'success', () => gqlAt(t.baseUrl, 'query MetricsMe { me { nodeId } }', {}, t.userKey)), 1);
    assert.equal(await delta('MetricsMe', 'client_error', () => gqlAt(t.baseUrl, 'query MetricsMe { me { nodeId } }', {}, 'no-such-key')), 1);
    assert.equal(await delta('other', 'refused', () => gqlAt(t.baseUrl, 'query MetricsBad { noSuchField }', {}, t.userKey)), 1, 'a validation failure is refused, its name unlearned');
    assert.equal(await delta('other', 'client_error', () => gqlAt(t.baseUrl, 'query MetricsStranger { me { nodeId } }', {}, 'no-such-key')), 1, 'a caller without a valid key adds no name');
    assert.equal(await delta('other', 'success', () => gqlAt(t.baseUrl, 'query MetricsProbe { __typename }', {}, t.userKey)), 1, 'a document that runs no resolver adds no name');
    assert.equal(await delta('other', 'refused', () => gqlAt(t.baseUrl, 'query MetricsBroken {', {}, t.userKey)), 1, 'a parse failure is refused');
    assert.equal(await delta('other', 'refused', () => gqlAt(t.baseUrl, `{ ${'a: me { nodeId } '.repeat(200)} }`, {}, t.userKey)), 1, 'a refusal before parse (aliases) is counted too');
  });

  test('root field resolvers are timed by parent type and field; nested fields are not', async () => {
    await gqlAt(t.baseUrl, 'query MetricsMe { me { nodeId } }', {}, t.userKey);
    const metric = metricsRegistry.getSingleMetric('gateway_graphql_resolver_duration_seconds');
    assert.ok(metric);
    const { values } = await metric.get();
    const fields = new Set(values.map((v) => `${v.labels['parent_type']}.${v.labels['field']}`));
    assert.ok(fields.has('Query.me'), [...fields].join(', '));
    assert.ok(![...fields].some((f) => f.startsWith('Account.')), 'nested fields stay unlabelled');
  });

  test('operations over graphql-ws count with transport="ws", errors in results as failures', async () => {
    const client = createClient({ url: `${t.baseUrl.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { apiKey: t.userKey }, retryAttempts: 0 });
    const run = (query: string) =>
      new Promise<unknown>((resolve) => {
        const results: unknown[] = [];
        client.subscribe({ query }, { next: (r) => results.push(r), error: resolve, complete: () => resolve(results) });
      });
    try {
      assert.equal(await delta('WsMe', 'success', () => run('query WsMe { me { nodeId } }'), 'ws'), 1);
      assert.equal(await delta('WsLanguages', 'server_error', () => run('query WsLanguages { languages { code } }'), 'ws'), 1);
      assert.equal(await delta('other', 'refused', () => run('query WsBad { noSuchField }'), 'ws'), 1);
    } finally {
      await client.dispose();
    }
  });

  test('/metrics exposes the counter with its labels', async () => {
    await gqlAt(t.baseUrl, 'query MetricsMe { me { nodeId } }', {}, t.userKey);
    const text = await (await fetch(`${t.baseUrl}/metrics`)).text();
    assert.match(text, /gateway_graphql_operations_total\{operation="MetricsMe",outcome="success",transport="http"\} \d+/);
    assert.match(text, /gateway_graphql_resolver_duration_seconds_bucket\{le="[^"]+",parent_type="Query",field="me"\}/);
  });
});

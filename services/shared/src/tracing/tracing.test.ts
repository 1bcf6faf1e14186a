import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type http from 'node:http';
import { register } from 'node:module';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { BusMessage } from '../bus/event-bus.js';
import type { InProcessBus } from '../bus/in-process-bus.js';
import type { StartedGrpcServer } from '../grpc/server.js';
import { ConfigError } from '../config.js';
import { traceHeaders } from './carriers.js';
import { enableInstrumentations } from './instrumentations.js';
import { traceLogFields } from './tracer.js';
import { initTracing, tracingRequested } from './tracing.js';

const SERVICE = 'greenimpact.identity.v1.IdentityService';
const TOPIC = 'trace.jobs';

/** Waits until `pick` finds what it needs among the exporter's finished spans; `what` names it in a failure. */
async function finished<T>(exporter: InMemorySpanExporter, pick: (spans: ReadableSpan[]) => T | undefined, what: () => string): Promise<T> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const found = pick(exporter.getFinishedSpans());
    if (found !== undefined) return found;
    if (Date.now() > deadline) assert.fail(what());
    await sleep(20);
  }
}

/** Waits until the exporter holds `n` finished spans of the trace. */
function spansOf(exporter: InMemorySpanExporter, traceId: string, n: number): Promise<ReadableSpan[]> {
  const of = (spans: ReadableSpan[]) => spans.filter((s) => s.spanContext().traceId === traceId);
  return finished(
    exporter,
    (spans) => (of(spans).length >= n ? of(spans) : undefined),
    () => `expected ${n} spans of trace ${traceId}, got ${of(exporter.getFinishedSpans()).map((s) => s.name).join(', ')}`,
  );
}

const parentOf = (s: ReadableSpan) => s.parentSpanContext?.spanId;

describe('initTracing configuration (standard OTEL_* variables)', () => {
  it('stays off without an exporter or endpoint, and when disabled', () => {
    assert.equal(initTracing('t', { env: {} }), undefined);
    assert.equal(initTracing('t', { env: { OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' } }), undefined);
    assert.equal(initTracing('t', { env: { OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' } }), undefined);
  });

  it('asks for the instrumentations (register.ts) exactly when it would start', () => {
    assert.equal(tracingRequested({}), false);
    assert.equal(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ' }), false);
    assert.equal(tracingRequested({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }), false);
    assert.equal(tracingRequested({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }), false);
    assert.equal(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }), true);
    assert.equal(tracingRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' }), true);
    assert.equal(tracingRequested({ OTEL_TRACES_EXPORTER: 'console' }), true);
  });

  it('refuses what it cannot honour, naming the variable', () => {
    const refused = (env: Record<string, string>, re: RegExp) =>
      assert.throws(() => initTracing('t', { env }), (e: unknown) => e instanceof ConfigError && re.test(e.message));
    refused({ OTEL_TRACES_EXPORTER: 'jaeger' }, /^OTEL_TRACES_EXPORTER must list otlp, console, none/);
    refused({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, /^OTEL_EXPORTER_OTLP_ENDPOINT must/);
    refused({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, /^OTEL_EXPORTER_OTLP_PROTOCOL must be http\/protobuf or http\/json/);
  });
});

/**
 * One trace across the hops of a chain write, in one process: an HTTP server (the gateway's place) calls
 * a gRPC service through the shared client; the service's handler publishes on the bus (the chain
 * service's place); a consumer (the chain worker's place) handles the message. Every hop is the shared
 * code the real services run (grpc/server + grpc/client, the bus adapters) under OpenTelemetry's HTTP
 * and gRPC instrumentations, enabled as register.ts does before those modules load: they are imported
 * only afterwards, here.
 */
describe('trace context across HTTP → gRPC → bus → consumer (in-memory exporter)', () => {
  const exporter = new InMemorySpanExporter();
  let bus: InProcessBus;
  let grpc: StartedGrpcServer;
  let httpServer: http.Server;
  let url: string;
  const handled: { msg: BusMessage; traceId: string | undefined; logFields: object }[] = [];
  let failOnce = true;

  before(async () => {
    register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
    enableInstrumentations();
    assert.ok(initTracing('tracing-test', { exporter }));
    const { default: http } = await import('node:http');
    const { IdentityServiceService } = await import('@green-impact/proto/greenimpact/identity/v1/identity');
    const { protoFiles, protoRoot } = await import('@green-impact/proto/paths');
    const { InProcessBus } = await import('../bus/in-process-bus.js');
    const { NotFoundError } = await import('../errors.js');
    const { createGrpcClient } = await import('../grpc/client.js');
    const { implement, startGrpcServer } = await import('../grpc/server.js');
    const { createLogger } = await import('../logger.js');
    const log = createLogger('tracing-test', { level: 'silent' });
    bus = new InProcessBus({ retry: { initialDelayMs: 10, maxDelayMs: 50 } });
    await bus.subscribe({
      topic: TOPIC,
      groupId: 'worker',
      fromBeginning: true,
      handler: async (msg) => {
        if (msg.value.toString() === 'flaky' && failOnce) {
          failOnce = false;
          throw new Error('transient');
        }
        handled.push({ msg, traceId: trace.getActiveSpan()?.spanContext().traceId, logFields: traceLogFields() });
      },
    });
    const implementation = implement(
      SERVICE,
      IdentityServiceService,
      {
        // The chain service's shape: accept the request, publish the job, answer.
        async getGroups(_req, ctx) {
          await bus.publish(TOPIC, [{ key: 'sepolia:0xsigner', value: `job-${ctx.requestId}` }]);
          return { groups: [] };
        },
        async listAccounts() {
          throw new NotFoundError('Nothing here.');
        },
      },
      log,
    );
    grpc = await startGrpcServer({
      services: [{ name: SERVICE, definition: IdentityServiceService, implementation }],
      host: '127.0.0.1',
      port: 0,
      protoRoot,
      protoFiles: [protoFiles.identity],
      log,
    });
    const client = createGrpcClient(IdentityServiceService, grpc.address);
    httpServer = http.createServer((req, res) => {
      const call = req.url === '/fail' ? client.listAccounts({}, { requestId: 'r-fail' }) : client.getGroups({}, { requestId: 'r-1', caller: { accountId: 'a', role: 'user' } });
      call.then(
        () => res.writeHead(200).end('ok'),
        () => res.writeHead(404).end('no'),
      );
    });
    await new Promise<void>((r) => httpServer.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
  });

  after(async () => {
    await new Promise((r) => httpServer.close(r));
    await grpc.shutdown(500);
    await bus.close();
  });

  it('gives the HTTP request, the gRPC call, the publish and the consumer one trace, parent by parent', async () => {
    const res = await fetch(`${url}/v1/call?api_key=secret`, { method: 'POST' });
    assert.equal(res.status, 200);
    // The server span ends when the response has been written, which the client may see first: waited for.
    const httpSpan = await finished(
      exporter,
      (spans) => spans.find((s) => s.kind === SpanKind.SERVER && s.attributes['url.path'] === '/v1/call'),
      () => 'an HTTP server span',
    );
    const traceId = httpSpan.spanContext().traceId;
    const spans = await spansOf(exporter, traceId, 5);
    const byKind = (kind: SpanKind) => spans.filter((s) => s.kind === kind);
    const [client] = byKind(SpanKind.CLIENT);
    const grpcServer = byKind(SpanKind.SERVER).find((s) => s !== httpSpan)!;
    const [producer] = byKind(SpanKind.PRODUCER);
    const [consumer] = byKind(SpanKind.CONSUMER);
    assert.ok(client && grpcServer && producer && consumer, spans.map((s) => `${SpanKind[s.kind]} ${s.name}`).join(', '));

    assert.equal(parentOf(client), httpSpan.spanContext().spanId);
    assert.equal(parentOf(grpcServer), client.spanContext().spanId);
    assert.equal(parentOf(producer), grpcServer.spanContext().spanId);
    assert.equal(parentOf(consumer), producer.spanContext().spanId);

    assert.equal(client.name, `grpc.${SERVICE}/GetGroups`);
    assert.equal(grpcServer.attributes['rpc.grpc.status_code'], 0);
    assert.equal(grpcServer.attributes['app.request_id'], 'r-1');
    assert.equal(producer.name, `publish ${TOPIC}`);
    assert.equal(consumer.name, `process ${TOPIC}`);
    assert.equal(consumer.attributes['messaging.consumer.group.name'], 'worker');
    assert.equal(consumer.attributes['messaging.system'], 'in-process');
    assert.equal(httpSpan.attributes['http.response.status_code'], 200);
    // No query string (it may hold keys or personal data) anywhere in the span.
    assert.ok(!JSON.stringify(httpSpan.attributes).includes('secret'));

    // The consumer's code ran inside its span, and its log lines name the trace.
    const seen = handled.find((h) => h.msg.value.toString() === 'job-r-1')!;
    assert.equal(seen.traceId, traceId);
    assert.deepEqual(seen.logFields, { traceId, spanId: consumer.spanContext().spanId });
    assert.match(seen.msg.headers['traceparent']!, new RegExp(`^00-${traceId}-${producer.spanContext().spanId}-01$`));
  });

  it("continues the client's traceparent and marks failures by status code only", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const res = await fetch(`${url}/fail`, { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
    assert.equal(res.status, 404);
    const spans = await spansOf(exporter, traceId, 3);
    const httpSpan = spans.find((s) => s.kind === SpanKind.SERVER && s.attributes['url.path'] === '/fail')!;
    assert.equal(parentOf(httpSpan), '00f067aa0ba902b7');
    const client = spans.find((s) => s.kind === SpanKind.CLIENT)!;
    const server = spans.find((s) => s.kind === SpanKind.SERVER && s !== httpSpan)!;
    assert.equal(client.status.code, SpanStatusCode.ERROR);
    assert.equal(client.status.message, 'NOT_FOUND');
    // NOT_FOUND is the caller's problem, not the service's (OpenTelemetry RPC conventions).
    assert.equal(server.status.code, SpanStatusCode.UNSET);
    assert.equal(server.attributes['rpc.grpc.status_code'], 5);
    assert.ok(!JSON.stringify(spans.map((s) => [s.attributes, s.status, s.events])).includes('Nothing here'));
  });

  it('lets a stored trace context (an outbox row) continue later, and starts no trace for untraced messages', async () => {
    // As the chain service's outbox does: the context of the request is kept with the row...
    const request = trace.getTracer('test').startSpan('request');
    const headers = traceHeaders(trace.setSpan(ROOT_CONTEXT, request));
    request.end();
    // ...and a relay publishes it later, outside any span.
    await bus.publish(TOPIC, [{ key: 'k', value: 'from-outbox', headers }, { key: 'k', value: 'untraced' }]);
    const traceId = request.spanContext().traceId;
    const spans = await spansOf(exporter, traceId, 3);
    const producer = spans.find((s) => s.kind === SpanKind.PRODUCER)!;
    assert.equal(parentOf(producer), request.spanContext().spanId);
    const consumer = spans.find((s) => s.kind === SpanKind.CONSUMER)!;
    assert.equal(parentOf(consumer), producer.spanContext().spanId);
    await waitUntil(() => handled.some((h) => h.msg.value.toString() === 'untraced'));
    const untraced = handled.find((h) => h.msg.value.toString() === 'untraced')!;
    assert.equal(untraced.traceId, undefined, 'an untraced message is handled outside any trace');
    assert.equal(untraced.msg.headers['traceparent'], undefined);
  });

  it('ends a failed consumer attempt with an error status and continues the same trace on retry', async () => {
    const root = trace.getTracer('test').startSpan('flaky-request');
    await bus.publish(TOPIC, [{ key: 'f', value: 'flaky', headers: traceHeaders(trace.setSpan(ROOT_CONTEXT, root)) }]);
    root.end();
    const spans = await spansOf(exporter, root.spanContext().traceId, 4);
    const attempts = spans.filter((s) => s.kind === SpanKind.CONSUMER);
    assert.equal(attempts.length, 2);
    assert.deepEqual(attempts.map((s) => s.status.code).sort(), [SpanStatusCode.UNSET, SpanStatusCode.ERROR].sort());
    assert.equal(attempts.find((s) => s.status.code === SpanStatusCode.ERROR)!.status.message, 'Error');
  });
});

async function waitUntil(cond: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!cond()) {
    if (Date.now() > deadline) assert.fail('condition not met in time');
    await sleep(20);
  }
}

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { FetchRequest, Network } from 'ethers';
import { initTracing } from '@green-impact/shared/tracing/tracing';
import { JobTraces } from '../worker/job-traces.js';
import { TracedJsonRpcProvider } from './eip1193-provider.js';

const RAW = '0x02f86b0180843b9aca00850ba43b7400825208940000000000000000000000000000000000000001880de0b6b3a764000080c0';

/**
 * A chain node's JSON-RPC calls as CLIENT spans (rpc-spans.ts) through ethers' HTTP provider against a
 * small JSON-RPC server, and a job's broadcast continuing the job's trace (job-traces.ts).
 */
describe('chain JSON-RPC client spans and job traces (in-memory exporter)', () => {
  const exporter = new InMemorySpanExporter();
  let server: http.Server;
  let provider: TracedJsonRpcProvider;

  before(async () => {
    assert.ok(initTracing('rpc-spans-test', { exporter }));
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8'))).on('end', () => {
        const calls = [JSON.parse(body)].flat() as { id: number; method: string }[];
        const answers = calls.map((c) =>
          c.method === 'eth_sendRawTransaction'
            ? { jsonrpc: '2.0', id: c.id, error: { code: -32000, message: `nonce too low: ${RAW}` } }
            : { jsonrpc: '2.0', id: c.id, result: '0x10' },
        );
        res.setHeader('content-type', 'application/json').end(JSON.stringify(Array.isArray(JSON.parse(body)) ? answers : answers[0]));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const network = new Network('sepolia', 11155111);
    provider = new TracedJsonRpcProvider(new FetchRequest(`http://127.0.0.1:${port}`), network, { staticNetwork: network, cacheTimeout: -1, batchMaxCount: 1 });
  });

  after(async () => {
    provider?.destroy();
    await new Promise((r) => server.close(r));
  });

  it('makes a CLIENT span per call, a child of the caller, naming the method and never the parameters', async () => {
    const parent = trace.getTracer('test').startSpan('job');
    await context.with(trace.setSpan(ROOT_CONTEXT, parent), () => provider.send('eth_blockNumber', []));
    await assert.rejects(context.with(trace.setSpan(ROOT_CONTEXT, parent), () => provider.send('eth_sendRawTransaction', [RAW])));
    parent.end();
    const spans = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === parent.spanContext().traceId && s.kind === SpanKind.CLIENT);
    const ok = spans.find((s) => s.name === 'eth_blockNumber');
    const failed = spans.find((s) => s.name === 'eth_sendRawTransaction');
    assert.ok(ok && failed, spans.map((s) => s.name).join(', '));
    for (const s of [ok, failed]) {
      assert.equal(s.parentSpanContext?.spanId, parent.spanContext().spanId);
      assert.equal(s.attributes['rpc.system'], 'jsonrpc');
      assert.equal(s.attributes['rpc.service'], 'sepolia');
      assert.match(String(s.attributes['server.address']), /^127\.0\.0\.1:\d+$/);
    }
    assert.equal(ok.status.code, SpanStatusCode.UNSET);
    assert.equal(failed.status.code, SpanStatusCode.ERROR);
    assert.equal(failed.attributes['rpc.jsonrpc.error_code'], -32000);
    // The signed transaction (a parameter, quoted back by the node's message) is nowhere in the spans.
    assert.ok(!JSON.stringify(spans.map((s) => [s.attributes, s.status, s.events])).includes(RAW.slice(2, 40)));
  });

  it("runs a job's broadcast in its trace, and a batch's in the first job's trace linking the others", async () => {
    const traces = new JobTraces();
    const [a, b] = ['job-a', 'job-b'].map((name) => trace.getTracer('test').startSpan(name));
    traces.remember('a', trace.setSpan(ROOT_CONTEXT, a!));
    traces.remember('b', trace.setSpan(ROOT_CONTEXT, b!));
    traces.remember('untraced', ROOT_CONTEXT);

    const single = await traces.inTraceOf(['a'], 'broadcast sepolia', async () => trace.getActiveSpan()?.spanContext().spanId);
    assert.equal(single, a!.spanContext().spanId, 'a batch of one runs in its job’s context');
    traces.remember('a', trace.setSpan(ROOT_CONTEXT, a!));
    await traces.inTraceOf(['a', 'b', 'untraced'], 'broadcast sepolia', () => provider.send('eth_chainId', []));
    const batch = exporter.getFinishedSpans().find((s) => s.name === 'broadcast sepolia')!;
    assert.ok(batch);
    assert.equal(batch.parentSpanContext?.spanId, a!.spanContext().spanId);
    assert.deepEqual(batch.links.map((l) => l.context.spanId), [a!.spanContext().spanId, b!.spanContext().spanId]);
    const call = exporter.getFinishedSpans().find((s) => s.name === 'eth_chainId')!;
    assert.equal(call.parentSpanContext?.spanId, batch.spanContext().spanId);
    // Taken once: a later broadcast of the same jobs (the tracker's resend) starts no trace.
    assert.equal(await traces.inTraceOf(['b'], 'broadcast sepolia', async () => trace.getActiveSpan()), undefined);
    a!.end();
    b!.end();
  });
});

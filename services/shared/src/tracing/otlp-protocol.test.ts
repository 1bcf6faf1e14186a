import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

interface Received {
  path: string;
  contentType: string;
  body: Buffer;
}

/**
 * A process that starts tracing from the standard variables, as every service does, records one span and
 * ends; a collector on port 0 receives its export. In its own process because tracing is process-wide.
 */
function exportOneSpan(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const tracing = fileURLToPath(new URL('./tracing.js', import.meta.url));
  const config = fileURLToPath(new URL('../config.js', import.meta.url));
  const script = `
    import { trace } from '@opentelemetry/api';
    import { processEnvironment } from ${JSON.stringify(config)};
    import { initTracing, shutdownTracing } from ${JSON.stringify(tracing)};
    initTracing('otlp-protocol-test', { env: processEnvironment() });
    trace.getTracer('t').startSpan('span-over-otlp').end();
    await shutdownTracing();`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: fileURLToPath(new URL('.', import.meta.url)),
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

describe('OTLP over HTTP in both encodings (OTEL_EXPORTER_OTLP_PROTOCOL)', () => {
  const received: Received[] = [];
  let collector: http.Server;
  let endpoint: string;

  before(async () => {
    collector = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ path: req.url ?? '', contentType: req.headers['content-type'] ?? '', body: Buffer.concat(chunks) });
        res.writeHead(200, { 'content-type': req.headers['content-type'] ?? 'application/json' }).end(req.headers['content-type']?.includes('json') ? '{}' : '');
      });
    });
    await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
    endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
  });

  after(() => new Promise<void>((r) => collector.close(() => r())));

  it('http/protobuf posts protobuf to /v1/traces and the process ends cleanly', async () => {
    received.length = 0;
    assert.deepEqual(await exportOneSpan({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' }), { code: 0, stderr: '' });
    assert.equal(received.length, 1);
    const [got] = received as [Received];
    assert.equal(got.path, '/v1/traces');
    assert.equal(got.contentType, 'application/x-protobuf');
    // Protobuf carries strings as raw UTF-8: the span and service names are in the body, and it is not JSON.
    assert.ok(got.body.includes('span-over-otlp') && got.body.includes('otlp-protocol-test'));
    assert.throws(() => JSON.parse(got.body.toString('utf8')));
  });

  it('http/json (the default) posts JSON with the span', async () => {
    received.length = 0;
    assert.deepEqual(await exportOneSpan({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${endpoint}/v1/traces` }), { code: 0, stderr: '' });
    const [got] = received as [Received];
    assert.equal(got.contentType, 'application/json');
    const body = JSON.parse(got.body.toString('utf8')) as { resourceSpans: { scopeSpans: { spans: { name: string }[] }[] }[] };
    assert.equal(body.resourceSpans[0]?.scopeSpans[0]?.spans[0]?.name, 'span-over-otlp');
  });

  it('grpc is refused at start, not exported to the wrong port', async () => {
    received.length = 0;
    const { code, stderr } = await exportOneSpan({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' });
    assert.notEqual(code, 0);
    assert.match(stderr, /OTEL_EXPORTER_OTLP_PROTOCOL must be http\/protobuf or http\/json \(OTLP over HTTP\); got "grpc"/);
    assert.equal(received.length, 0);
  });
});

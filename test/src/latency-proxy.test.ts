import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { until } from './support/poll.js';
import { startLatencyProxy, type LatencyProxy } from './support/latency-proxy.js';

/** Reads `socket` until its end; resolves with the bytes and every chunk's arrival time. */
function drain(socket: Socket): Promise<{ bytes: Buffer; arrivals: number[] }> {
  const chunks: Buffer[] = [];
  const arrivals: number[] = [];
  socket.on('data', (c: Buffer) => (chunks.push(c), arrivals.push(performance.now())));
  return once(socket, 'end').then(() => ({ bytes: Buffer.concat(chunks), arrivals }));
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * The latency proxy of the slow-link fault (issue 50, kernels without sch_netem): against a real echo server
 * it keeps bytes and their order, delays each direction by at least its latency, passes half-closes on in
 * order, bounds what it holds for a slow reader, and a reset on one side reaches the other.
 */
describe('latency proxy', () => {
  let echo: Server;
  let echoPort: number;
  const latencyMs = 150;

  before(async () => {
    // Echoes what it reads; ends its side once the client ended its own (a half-close answered).
    echo = createServer({ allowHalfOpen: true }, (s) => {
      s.on('error', () => undefined);
      s.pipe(s);
    });
    echo.listen(0, '127.0.0.1');
    await once(echo, 'listening');
    echoPort = (echo.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((r) => echo.close(() => r())));

  const withProxy = async (opts: { latencyMs: number; maxBufferedBytes?: number }, body: (p: LatencyProxy) => Promise<void>) => {
    const proxy = await startLatencyProxy({ target: { host: '127.0.0.1', port: echoPort }, ...opts });
    try {
      await body(proxy);
    } finally {
      await proxy.close();
    }
  };

  it('delays a round trip by at least twice its latency and keeps every byte in order', async () => {
    await withProxy({ latencyMs }, async (proxy) => {
      const client = connect(proxy.port, proxy.host);
      await once(client, 'connect');
      const answer = drain(client);
      const sent = performance.now();
      const parts = Array.from({ length: 20 }, (_, i) => Buffer.from(`part-${i};`));
      for (const p of parts) client.write(p);
      client.end();
      const { bytes, arrivals } = await answer;
      assert.equal(bytes.toString(), Buffer.concat(parts).toString(), 'every byte, in the order sent');
      // Out through the proxy and back through it: the latency once each way, at least.
      assert.ok(arrivals[0]! - sent >= 2 * latencyMs, `the first answer came ${(arrivals[0]! - sent).toFixed(1)} ms after the send`);
      await once(client, 'close');
      // The proxy's two sockets close once each has sent and read its end (just after the client's).
      await until(async () => proxy.connections(), (n) => n === 0, 'both sides of the proxy closed once both ended', 5_000, 10);
    });
  });

  it('applies a latency set while connections are open, to what is read from then on', async () => {
    await withProxy({ latencyMs: 0 }, async (proxy) => {
      const client = connect(proxy.port, proxy.host);
      await once(client, 'connect');
      client.write('first');
      const [first] = (await once(client, 'data')) as [Buffer];
      assert.equal(first.toString(), 'first');
      proxy.setLatency(latencyMs);
      const answer = drain(client);
      const sent = performance.now();
      client.end('second');
      const { bytes, arrivals } = await answer;
      assert.equal(bytes.toString(), 'second');
      assert.ok(arrivals[0]! - sent >= 2 * latencyMs, `the answer came ${(arrivals[0]! - sent).toFixed(1)} ms after the send`);
    });
  });

  it('carries 4 MiB through a 64 KiB bound intact while the reader is slow', async () => {
    const bound = 64 * 1024;
    await withProxy({ latencyMs: 5, maxBufferedBytes: bound }, async (proxy) => {
      const payload = randomBytes(4 << 20);
      const client = connect(proxy.port, proxy.host);
      await once(client, 'connect');
      // The reader starts late: until then the echo's answers pile up against the bound, not in the proxy.
      client.pause();
      client.end(payload);
      await new Promise((r) => setTimeout(r, 300));
      const answer = drain(client);
      client.resume();
      const { bytes } = await answer;
      assert.equal(bytes.length, payload.length);
      assert.equal(sha(bytes), sha(payload), 'the same bytes in the same order');
      // It stops reading at the bound: at most one read (a socket reads up to 64 KiB at once) past it.
      assert.ok(proxy.peakBufferedBytes() >= bound, 'the bound was reached (the reader was slow enough to matter)');
      assert.ok(proxy.peakBufferedBytes() < bound + 64 * 1024, `held ${proxy.peakBufferedBytes()} bytes at once`);
    });
  });

  it('resets the client when the target resets, and refuses a client when the target is down', async () => {
    const resetting = createServer((s) => s.once('data', () => s.resetAndDestroy()));
    resetting.listen(0, '127.0.0.1');
    await once(resetting, 'listening');
    const port = (resetting.address() as AddressInfo).port;
    const proxy = await startLatencyProxy({ target: { host: '127.0.0.1', port }, latencyMs: 20 });
    try {
      const client = connect(proxy.port, proxy.host);
      client.write('hello');
      const [err] = (await once(client, 'error')) as [NodeJS.ErrnoException];
      assert.equal(err.code, 'ECONNRESET');
      await new Promise<void>((r) => resetting.close(() => r()));
      const refused = connect(proxy.port, proxy.host);
      const [err2] = (await once(refused, 'error')) as [NodeJS.ErrnoException];
      assert.equal(err2.code, 'ECONNRESET', 'the target refused: the client is reset');
    } finally {
      await proxy.close();
    }
  });
});

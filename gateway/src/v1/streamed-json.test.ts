import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Response } from 'express';
import { JsonItems, sendStreamedJson, streamedJson, WHOLE_ANSWER_BYTES, type Batch } from './streamed-json.js';

/** Serves one streamed answer at GET / from a real HTTP server; answers status, headers, body and the server's error if any. */
async function serve(make: () => ReturnType<typeof streamedJson>) {
  const app = express();
  let failure: unknown;
  app.get('/', (_req, res) => {
    sendStreamedJson(res, make()).catch((err: unknown) => {
      failure = err;
      res.status(500).end('failed before the first byte');
    });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    return await new Promise<{ status: number; headers: Record<string, unknown>; body: string; aborted: boolean; failure: unknown }>((resolve, reject) => {
      request({ host: '127.0.0.1', port, path: '/' }, (res) => {
        const chunks: Buffer[] = [];
        let aborted = false;
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('aborted', () => (aborted = true));
        res.on('error', () => (aborted = true));
        res.on('close', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), aborted: aborted || !res.complete, failure }));
      })
        .on('error', reject)
        .end();
    });
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

async function* batches(...list: Batch[]) {
  for (const b of list) yield b;
}

const value = { id: 'inv "1"', totals: [1, 2], impacts: [] as unknown[], tail: { n: 3 } };

test('the bytes are JSON.stringify of the whole answer, whatever the batches (empty ones too)', async () => {
  const items = [{ a: 1, s: 'é\u2028"' }, { a: 2 }, { a: 3 }];
  for (const split of [[items], [[], items.slice(0, 1), [], items.slice(1)], [[]], []]) {
    const res = await serve(() => streamedJson(value, 'impacts', batches(...split)));
    const whole = JSON.stringify({ ...value, impacts: split.flat() });
    assert.equal(res.body, whole);
    assert.equal(res.status, 200);
    // Small: sent whole with Content-Length, as every other /v1/call answer.
    assert.equal(res.headers['content-length'], String(Buffer.byteLength(whole)));
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  }
});

test('batches written as JSON text (JsonItems) join the others as their items would', async () => {
  const items = [{ a: 1 }, { a: 2 }, { a: 3 }];
  const text = (list: unknown[]) => new JsonItems(JSON.stringify(list).slice(1, -1), list.length);
  const res = await serve(() => streamedJson(value, 'impacts', batches(text([]), text(items.slice(0, 2)), [], items.slice(2), text(items))));
  assert.equal(res.body, JSON.stringify({ ...value, impacts: [...items, ...items] }));
});

test('a key must be in place; the answer keeps its key order', () => {
  assert.throws(() => streamedJson({ a: 1 }, 'impacts', batches()), /needs its key "impacts"/);
  const s = streamedJson({ a: 1, impacts: null, z: 2 }, 'impacts', batches());
  assert.equal(s.head, '{"a":1,"impacts":');
  assert.equal(s.tail, ',"z":2}');
});

test('a large answer goes out chunked as it comes, byte for byte', async () => {
  const row = { text: 'x'.repeat(1_000) };
  const pages = Array.from({ length: 40 }, (_, p) => Array.from({ length: 20 }, (_, i) => ({ ...row, n: p * 20 + i })));
  const res = await serve(() => streamedJson(value, 'impacts', batches(...pages)));
  assert.ok(res.body.length > WHOLE_ANSWER_BYTES);
  assert.equal(res.body, JSON.stringify({ ...value, impacts: pages.flat() }));
  assert.equal(res.headers['content-length'], undefined);
  assert.equal(res.headers['transfer-encoding'], 'chunked');
  assert.equal(res.aborted, false);
});

test('a failure before the first byte is thrown (the error handler answers); after it the connection is cut', async () => {
  async function* failsAt(page: number) {
    for (let p = 0; ; p++) {
      if (p === page) throw new Error('the service went away');
      yield Array.from({ length: 100 }, () => ({ text: 'y'.repeat(1_000) }));
    }
  }
  const early = await serve(() => streamedJson(value, 'impacts', failsAt(0)));
  assert.equal(early.status, 500);
  assert.match(String(early.failure), /the service went away/);
  const late = await serve(() => streamedJson(value, 'impacts', failsAt(5)));
  assert.equal(late.status, 200);
  assert.equal(late.aborted, true, 'an incomplete answer, never a well-formed truncated one');
  assert.throws(() => JSON.parse(late.body));
});

test('the next batch is asked for only when the socket took the last one (backpressure), and a client that leaves stops the stream', async () => {
  let asked = 0;
  let finished = false;
  async function* endless() {
    try {
      for (;;) {
        asked++;
        yield Array.from({ length: 100 }, () => ({ text: 'z'.repeat(1_000) }));
      }
    } finally {
      finished = true;
    }
  }
  const app = express();
  let response: Response | undefined;
  const done = new Promise<void>((resolve) =>
    app.get('/', (_req, res) => {
      response = res;
      void sendStreamedJson(res, streamedJson(value, 'impacts', endless())).finally(resolve);
    }),
  );
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  let client: import('node:http').IncomingMessage | undefined;
  const req = request({ host: '127.0.0.1', port, path: '/' }, (res) => void (client = res).pause()); // reads nothing
  req.end();
  const turns = async (n: number) => {
    for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  // The event that proves the point: the server's socket refuses more (a write answered false), not a pause.
  while (!response?.writableNeedDrain) await turns(1);
  const atStall = asked;
  await turns(200);
  assert.equal(asked, atStall, 'no batch is asked for while the socket still holds the last one');
  // 100 kB a batch: socket and kernel buffers hold a few MB at most, not the endless answer.
  assert.ok(asked < 100, `${asked} batches asked for while the client read nothing`);
  // Reading again drains the socket, and the stream goes on: it waited for 'drain', it did not stop.
  client!.resume();
  while (asked === atStall) await turns(1);
  req.destroy();
  await done;
  assert.equal(finished, true, 'the batches were closed when the client went away');
  server.close();
});

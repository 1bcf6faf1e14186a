import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import { startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';

/**
 * Issue 46: a WebSocket upgrade is a request like any other and counts against the rate limits before any
 * authentication, through a real WebSocket to the gateway. Before, only connection_init counted, so a
 * client could hold open sockets that never sent it (each for connectionInitWaitTimeout) without limit.
 */

let t: TestGateway;
before(async () => {
  // One anonymous request a second per address, two at once.
  t = await startTestGateway({ RATE_LIMIT_PER_ADDRESS: '1', RATE_LIMIT_ADDRESS_BURST: '2' });
});
after(async () => {
  await t.stop();
});

/** Opens a socket with no key and sends nothing: how it ends (opened, or the HTTP answer to the upgrade). */
type Refused = { status: number; retryAfter: string | undefined; body: string };
function upgrade(): Promise<{ opened: WebSocket } | Refused> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${t.baseUrl.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
    socket.once('open', () => resolve({ opened: socket }));
    socket.once('unexpected-response', (_req, res: IncomingMessage) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], body }));
    });
    socket.once('error', reject);
  });
}

test('upgrades without a key count as the address anonymous requests: past its burst, 429 with Retry-After', async () => {
  // The burst is 2 and one token comes back a second: of 20 upgrades one after another, some are refused
  // (all 20 opening would take 18 s of refills). Before, every one opened.
  const answers: Awaited<ReturnType<typeof upgrade>>[] = [];
  try {
    for (let i = 0; i < 20; i++) answers.push(await upgrade());
    const opened = answers.filter((a) => 'opened' in a).length;
    const refused = answers.filter((a): a is Refused => !('opened' in a));
    assert.ok(opened >= 2, `the burst opens (${opened} opened)`);
    assert.ok(refused.length > 0, 'upgrades past the burst are refused before they open');
    for (const r of refused) {
      assert.equal(r.status, 429);
      assert.match(r.retryAfter ?? '', /^\d+$/);
      // The text an HTTP request refused by the same limit gets.
      assert.deepEqual(JSON.parse(r.body), { message: `Too many requests without an API key from this address; retry in ${r.retryAfter} s.`, code: 'RESOURCE_EXHAUSTED' });
    }
  } finally {
    for (const a of answers) if ('opened' in a) a.opened.terminate();
  }
});

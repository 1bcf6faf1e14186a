import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { startTestGateway, type TestAccount, type TestGateway } from '@green-impact/testing/gateway/real-gateway';

/**
 * Open WebSockets and job streams are bounded per account (issue 46), over all of the account's sockets
 * on a gateway: GRAPHQL_WS_MAX_CONNECTIONS_PER_ACCOUNT (2 here) and GRAPHQL_WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT
 * (3 here; 2 per connection). Real gateway, identity and chain service (its WatchJobs streams counted).
 * Another account is not held back by the first one's sockets.
 */

let t: TestGateway;
let other: TestAccount;
before(async () => {
  t = await startTestGateway(
    { GRAPHQL_WS_MAX_CONNECTIONS_PER_ACCOUNT: '2', GRAPHQL_WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT: '3', GRAPHQL_WS_MAX_SUBSCRIPTIONS: '2' },
    { chain: true },
  );
  other = await t.createAccount('Other');
});
after(async () => {
  await t?.stop();
});

interface Socket {
  client: Client;
  /** Settles once the server acknowledged the connection (true) or closed it (false). */
  opened: Promise<boolean>;
  closed: Promise<{ code: number; reason: string }>;
}

function connect(apiKey: string): Socket {
  let acked!: (ok: boolean) => void;
  let ended!: (e: { code: number; reason: string }) => void;
  const opened = new Promise<boolean>((r) => (acked = r));
  const closed = new Promise<{ code: number; reason: string }>((r) => (ended = r));
  const client = createClient({
    url: `${t.baseUrl.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { apiKey },
    retryAttempts: 0,
    lazy: false,
    onNonLazyError: () => undefined,
    on: {
      connected: () => acked(true),
      closed: (e) => {
        acked(false);
        const { code, reason } = e as { code: number; reason: string };
        ended({ code, reason });
      },
    },
  });
  return { client, opened, closed };
}

const watches = () => t.chain!.openStreams('watchJobs');

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; !check(); i++) {
    if (i > 500) assert.fail(`never saw ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function metric(name: string, label = ''): Promise<number> {
  const text = await (await fetch(`${t.baseUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => (l.startsWith(`${name}{`) && l.includes(label)) || (label === '' && l.startsWith(`${name} `)));
  return Number(line?.split(' ').at(-1) ?? 0);
}

/** Closes the sockets and waits until the server has let go of them (gateway_graphql_ws_connections). */
async function closeAll(sockets: Socket[]): Promise<void> {
  for (const s of sockets) await s.client.dispose();
  for (let i = 0; (await metric('gateway_graphql_ws_connections')) > 0; i++) {
    if (i > 250) assert.fail('the server kept sockets open');
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('an account holds at most GRAPHQL_WS_MAX_CONNECTIONS_PER_ACCOUNT sockets; beyond, 4429 and a reason; another account still connects', async () => {
  const refusedBefore = await metric('gateway_graphql_ws_refused_total', 'reason="account_connections"');
  const [a, b] = [connect(t.userKey), connect(t.userKey)];
  assert.deepEqual(await Promise.all([a.opened, b.opened]), [true, true]);
  const c = connect(t.userKey);
  assert.equal(await c.opened, false);
  assert.deepEqual(await c.closed, { code: 4429, reason: 'This account has 2 connections open, the most it may; close one first.' });
  assert.equal(await metric('gateway_graphql_ws_refused_total', 'reason="account_connections"'), refusedBefore + 1);

  const stranger = connect(other.apiKey);
  assert.equal(await stranger.opened, true, "another account is not held back by the first one's sockets");
  // A socket closed frees its place.
  await a.client.dispose();
  await a.closed;
  const again = connect(t.userKey);
  assert.equal(await again.opened, true);
  await closeAll([b, c, stranger, again]);
});

test('an account holds at most GRAPHQL_WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT job streams over all its sockets; another account still subscribes', async () => {
  const refusedBefore = await metric('gateway_graphql_subscriptions_refused_total', 'limit="account"');
  const [a, b, stranger] = [connect(t.userKey), connect(t.userKey), connect(other.apiKey)];
  assert.deepEqual(await Promise.all([a.opened, b.opened, stranger.opened]), [true, true, true]);
  const subscribe = (s: Socket) => s.client.iterate({ query: 'subscription { jobUpdated { id } }' });
  try {
    const open = [subscribe(a), subscribe(a), subscribe(b)];
    for (const o of open) void o.next().catch(() => undefined);
    await until(() => watches() === 3, 'three watches');
    // b has one of its two per-connection places left, but the account has none.
    await assert.rejects(subscribe(b).next(), (errors: Array<{ message: string; extensions: { code: string } }>) => {
      assert.deepEqual([errors[0]!.message, errors[0]!.extensions.code], ['This account holds 3 subscriptions, the most it may; complete one first.', 'TOO_MANY_REQUESTS']);
      return true;
    });
    assert.equal(watches(), 3, 'the refused subscription opened no stream');
    assert.equal(await metric('gateway_graphql_subscriptions_refused_total', 'limit="account"'), refusedBefore + 1);

    const strangers = subscribe(stranger);
    void strangers.next().catch(() => undefined);
    await until(() => watches() === 4, "the other account's watch");
    // A completed subscription frees its place; a closed socket frees all of its own.
    await open[0]!.return?.();
    await until(() => watches() === 3, 'the completed watch cancelled');
    const next = subscribe(b);
    void next.next().catch(() => undefined);
    await until(() => watches() === 4, 'a watch in the freed place');
    await a.client.dispose();
    await until(() => watches() === 3, "a's remaining watch cancelled with its socket");
    const last = subscribe(b);
    await assert.rejects(last.next(), /./, 'b holds its two per connection');
    await strangers.return?.();
    await next.return?.();
  } finally {
    await closeAll([a, b, stranger]);
  }
  await until(() => watches() === 0, 'every stream cancelled');
});

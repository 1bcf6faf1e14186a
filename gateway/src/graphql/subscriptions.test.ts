import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { data, gqlAt } from '@green-impact/testing/gateway/graphql-calls';
import { serveNftImage } from '@green-impact/testing/gateway/nft-image';
import { startTestGateway, type TestAccount, type TestGateway } from '@green-impact/testing/gateway/real-gateway';

/**
 * Subscriptions over graphql-ws, through a real WebSocket to the gateway, fed by the real chain service's
 * WatchJobs stream (its jobs run on its embedded network). The user's key writes; `other` is another account.
 * Where a test must see a job's first state before it changes, the chain's job worker is stopped meanwhile
 * (as on a replica without one) and started again: the queued job then runs for real.
 */

let t: TestGateway;
let userKey: string;
let other: TestAccount;
// The NFT's image, which the chain service fetches when it mints: served on loopback.
let image: Awaited<ReturnType<typeof serveNftImage>>;
before(async () => {
  image = await serveNftImage();
  t = await startTestGateway({ GRAPHQL_WS_MAX_SUBSCRIPTIONS: '3', GRAPHQL_MAX_DEPTH: '3' }, { chain: true, nftImage: { allowPrivateHosts: true } });
  userKey = t.userKey;
  other = await t.createAccount('Other');
});
after(async () => {
  await t.stop();
  await image.close();
});

interface GqlError {
  message: string;
  extensions?: Record<string, unknown>;
}

function connect(apiKey: string | undefined, closed?: (event: { code: number; reason: string }) => void, baseUrl = t.baseUrl): Client {
  return createClient({
    url: `${baseUrl.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: apiKey === undefined ? {} : { apiKey },
    retryAttempts: 0,
    lazy: false,
    // The default prints to the console; tests observe closes through on.closed.
    onNonLazyError: () => undefined,
    on: { closed: (e) => closed?.(e as { code: number; reason: string }) },
  });
}

const gql = async (query: string, variables: Record<string, unknown> = {}, apiKey = userKey) => data(await gqlAt(t.baseUrl, query, variables, apiKey));

const insert = async (key: string, apiKey = userKey) =>
  (await gql(`mutation { insertString(input: { network: "sepolia", key: "${key}", value: "v" }) { job { id status } } }`, {}, apiKey))['insertString'].job as {
    id: string;
    status: string;
  };

/** The WatchJobs streams open on the chain service now. */
const watches = () => t.chain!.openStreams('watchJobs');

/** The updates of `updates` up to the first one `done` accepts (its last). */
async function updatesUntil<T>(updates: AsyncIterator<{ data?: T | null }>, done: (update: T) => boolean): Promise<T[]> {
  const seen: T[] = [];
  for (;;) {
    const { value, done: ended } = await updates.next();
    assert.ok(!ended && value?.data, `the subscription ended after ${JSON.stringify(seen)}: ${JSON.stringify(value)}`);
    seen.push(value.data);
    if (done(value.data)) return seen;
  }
}

/** Waits until `check` holds, polling; for things that happen on another socket. */
async function until(check: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('jobUpdated', () => {
  test('with ids: the current state first, then each change; completing the subscription cancels the gRPC stream', async () => {
    const client = connect(userKey);
    await t.chainLevers!.stopWorker();
    try {
      const job = await insert('sub-1');
      const updates = client.iterate<{ jobUpdated: { id: string; status: string; txHash: string | null } }>({
        query: 'subscription($ids: [ID!]) { jobUpdated(ids: $ids) { id status txHash } }',
        variables: { ids: [job.id] },
      });
      const first = await updates.next();
      assert.deepEqual(first.value?.data?.jobUpdated, { id: job.id, status: 'QUEUED', txHash: null });
      await until(() => watches() === 1, 'the watch to open');
      await t.chainLevers!.startWorker();
      const changes = (await updatesUntil(updates, (u) => u.jobUpdated.status === 'COMPLETED')).map((u) => u.jobUpdated);
      // Each change in the order the job went through them (QUEUED again when the worker claims it).
      const order = ['QUEUED', 'SUBMITTED', 'COMPLETED'];
      const ranks = changes.map((c) => order.indexOf(c.status));
      assert.ok(changes.every((c) => c.id === job.id) && ranks.every((r, i) => r >= 0 && r >= (ranks[i - 1] ?? 0)), JSON.stringify(changes));
      assert.match(changes.at(-1)!.txHash ?? '', /^0x[0-9a-f]{64}$/);
      await updates.return?.();
      await until(() => watches() === 0, 'the gRPC stream to be cancelled');
    } finally {
      await t.chainLevers!.startWorker();
      await client.dispose();
    }
  });

  test("without ids: every new job of the caller's account, and none of another account's", async () => {
    const client = connect(userKey);
    // With the worker stopped each job changes once (queued), so the stream's events are exactly these
    // inserts in order: another account's jobs before, between and after the caller's must all be unseen.
    await t.chainLevers!.stopWorker();
    try {
      const updates = client.iterate<{ jobUpdated: { id: string; kind: string; status: string } }>({
        query: 'subscription { jobUpdated(kind: KV_INSERT_STRING) { id kind status } }',
      });
      await until(() => watches() === 1, 'the watch to open');
      await insert('other-account-1', other.apiKey);
      const mine = await insert('sub-2');
      await insert('other-account-2', other.apiKey);
      const last = await insert('sub-3');
      const seen = (await updatesUntil(updates, (u) => u.jobUpdated.id === last.id)).map((u) => u.jobUpdated);
      assert.deepEqual(seen, [
        { id: mine.id, kind: 'KV_INSERT_STRING', status: 'QUEUED' },
        { id: last.id, kind: 'KV_INSERT_STRING', status: 'QUEUED' },
      ]);
      await updates.return?.();
    } finally {
      await t.chainLevers!.startWorker();
      await client.dispose();
    }
    await until(() => watches() === 0, 'the gRPC stream to be cancelled on dispose');
  });

  test('a disconnecting client cancels its streams', async () => {
    const client = connect(userKey);
    const updates = client.iterate({ query: 'subscription { jobUpdated { id } }' });
    void updates.next().catch(() => undefined);
    await until(() => watches() === 1, 'the watch to open');
    await client.dispose();
    await until(() => watches() === 0, 'the gRPC stream to be cancelled');
  });

  test('bad arguments are answered as GraphQL errors with the /v1/call codes', async () => {
    const client = connect(userKey);
    try {
      const ids = Array.from({ length: 101 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
      // An error before the stream starts is the operation's one result (graphql-ws `next`, then `complete`).
      const updates = client.iterate({ query: 'subscription($ids: [ID!]) { jobUpdated(ids: $ids) { id } }', variables: { ids } });
      const { value } = await updates.next();
      assert.deepEqual(value?.errors?.map((e: GqlError) => [e.message, e.extensions?.['code']]), [
        ['ids must hold at most 100 job ids, got 101.', 'BAD_USER_INPUT'],
      ]);
      assert.equal((await updates.next()).done, true);
    } finally {
      await client.dispose();
    }
  });
});

describe('nftUpdated', () => {
  test('follows a mint from MINTING to CREATED', async () => {
    const client = connect(userKey);
    await t.chainLevers!.stopWorker();
    try {
      const updates = client.iterate<{ nftUpdated: { guid: string; status: string; nftId: string | null } }>({
        query: 'subscription { nftUpdated { guid status nftId } }',
      });
      await until(() => watches() === 1, 'the watch to open');
      const job = (
        await gql(
          `mutation($input: MintNftInput!) { mintNft(input: $input) { job { id nftGuid } } }`,
          { input: { network: 'sepolia', name: 'Certificate', description: 'Avoided emissions', image: image.url } },
        )
      )['mintNft'].job as { id: string; nftGuid: string };
      const minting = await updates.next();
      assert.deepEqual(minting.value?.data?.nftUpdated, { guid: job.nftGuid, status: 'MINTING', nftId: null });
      await t.chainLevers!.startWorker();
      const created = (await updatesUntil(updates, (u) => u.nftUpdated.status !== 'MINTING')).at(-1)!.nftUpdated;
      assert.equal(created.status, 'CREATED');
      assert.match(created.nftId ?? '', /^\d+$/);
      await updates.return?.();

      // With a guid, the current state comes first.
      const one = client.iterate<{ nftUpdated: { guid: string; status: string } }>({
        query: 'subscription($guid: ID) { nftUpdated(guid: $guid) { guid status } }',
        variables: { guid: job.nftGuid },
      });
      assert.deepEqual((await one.next()).value?.data?.nftUpdated, { guid: job.nftGuid, status: 'CREATED' });
      await one.return?.();
    } finally {
      await t.chainLevers!.startWorker();
      await client.dispose();
    }
  });

  test("another account's NFT is NOT_FOUND", async () => {
    const client = connect(other.apiKey);
    try {
      const updates = client.iterate({ query: 'subscription { nftUpdated(guid: "00000000-0000-4000-8000-000000000000") { guid } }' });
      const { value } = await updates.next();
      assert.deepEqual(value?.errors?.map((e: GqlError) => [e.message, e.extensions?.['code']]), [
        ['No NFT with guid 00000000-0000-4000-8000-000000000000.', 'NOT_FOUND'],
      ]);
      await until(() => watches() === 0, 'the watch opened before the read to be cancelled');
    } finally {
      await client.dispose();
    }
  });
});

describe('connection and limits', () => {
  for (const [label, key, reason] of [
    ['no key', undefined, 'Please submit client identifier.'],
    ['a bad key', 'nope', 'The API key is not valid.'],
  ] as const) {
    test(`${label}: the socket closes with 4401 and the reason`, async () => {
      let closed: { code: number; reason: string } | undefined;
      const client = connect(key, (e) => (closed = e));
      const updates = client.iterate({ query: 'subscription { jobUpdated { id } }' });
      await assert.rejects(updates.next(), (event: { code: number }) => event.code === 4401);
      await until(() => closed !== undefined, 'the close');
      assert.equal(closed!.code, 4401);
      assert.equal(closed!.reason, reason);
      await client.dispose();
    });
  }

  test('revoking the key through this gateway closes its sockets (4401) before the revoke is answered; their streams end', async () => {
    const issued = await gql('mutation { issueApiKey { apiKey key { id } } }');
    const { apiKey, key } = issued['issueApiKey'] as { apiKey: string; key: { id: string } };
    let closed: { code: number; reason: string } | undefined;
    const client = connect(apiKey, (e) => (closed = e));
    const bystander = connect(userKey);
    try {
      const first = client.iterate({ query: 'subscription { jobUpdated { id } }' });
      void first.next().catch(() => undefined);
      const other = bystander.iterate({ query: 'subscription { jobUpdated { id } }' });
      void other.next().catch(() => undefined);
      await until(() => watches() === 2, 'both watches');
      await gql('mutation($id: ID!) { revokeApiKey(keyId: $id) { key { revokedAt } } }', { id: key.id });
      await until(() => closed !== undefined, 'the socket to close');
      assert.deepEqual({ code: closed!.code, reason: closed!.reason }, { code: 4401, reason: 'The API key was revoked.' });
      await until(() => watches() === 1, "the revoked key's stream to be cancelled");
      await other.return?.();
    } finally {
      await client.dispose();
      await bystander.dispose();
    }
    await until(() => watches() === 0, 'all streams cancelled');
  });

  test('/metrics counts open connections, subscriptions and refusals', async () => {
    const metric = async (name: string) => {
      const text = await (await fetch(`${t.baseUrl}/metrics`)).text();
      const line = text.split('\n').find((l) => l.startsWith(name + ' ') || l.startsWith(name + '{'));
      return Number(line?.split(' ').at(-1) ?? NaN);
    };
    const client = connect(userKey);
    try {
      const updates = client.iterate({ query: 'subscription { jobUpdated { id } }' });
      void updates.next().catch(() => undefined);
      await until(() => watches() === 1, 'the watch');
      assert.ok((await metric('gateway_graphql_ws_connections')) >= 1);
      assert.ok((await metric('gateway_graphql_subscriptions')) >= 1);
      await updates.return?.();
    } finally {
      await client.dispose();
    }
    await until(() => watches() === 0, 'all streams cancelled');
    assert.ok((await metric('gateway_graphql_ws_refused_total')) >= 1, 'the bad-key tests above were refused');
  });

  test('the depth limit (GRAPHQL_MAX_DEPTH=3 here) applies to subscriptions too', async () => {
    const client = connect(userKey);
    try {
      const updates = client.iterate({ query: 'subscription Deep { jobUpdated { nft { nftJson { name } } } }' });
      await assert.rejects(updates.next(), (errors: { message: string; extensions: { code: string } }[]) => {
        assert.equal(errors[0]!.extensions.code, 'QUERY_TOO_COMPLEX');
        assert.equal(errors[0]!.message, 'Operation Deep is nested 4 levels deep; at most 3 are allowed.');
        return true;
      });
      assert.equal(watches(), 0);
    } finally {
      await client.dispose();
    }
  });

  test('the alias limit (GRAPHQL_MAX_ALIASES, 30) applies over the WebSocket too', async () => {
    const client = connect(userKey);
    try {
      const aliases = Array.from({ length: 31 }, (_, i) => `a${i}: id`).join(' ');
      const updates = client.iterate({ query: `subscription { jobUpdated { ${aliases} } }` });
      await assert.rejects(updates.next(), (errors: { message: string; extensions: { code: string } }[]) => {
        assert.equal(errors[0]!.extensions.code, 'QUERY_TOO_COMPLEX');
        assert.match(errors[0]!.message, /has 31 aliased fields; at most 30 are allowed \(GRAPHQL_MAX_ALIASES\)/);
        return true;
      });
      assert.equal(watches(), 0);
    } finally {
      await client.dispose();
    }
  });

  test('at most GRAPHQL_WS_MAX_SUBSCRIPTIONS subscriptions per connection', async () => {
    const client = connect(userKey);
    try {
      const open = [0, 1, 2].map(() => client.iterate({ query: 'subscription { jobUpdated { id } }' }));
      for (const o of open) void o.next().catch(() => undefined);
      await until(() => watches() === 3, 'three watches');
      const fourth = client.iterate({ query: 'subscription { jobUpdated { id } }' });
      await assert.rejects(fourth.next(), (errors: { message: string; extensions: { code: string } }[]) => {
        assert.equal(errors[0]!.extensions.code, 'TOO_MANY_REQUESTS');
        assert.equal(errors[0]!.message, 'A connection may hold at most 3 subscriptions.');
        return true;
      });
      for (const o of open) await o.return?.();
    } finally {
      await client.dispose();
    }
    await until(() => watches() === 0, 'all streams cancelled');
  });
});

describe('rate limits on sockets', () => {
  test('opening a connection and each subscription count against the key; beyond it, 4429 or TOO_MANY_REQUESTS', async () => {
    // One request a second per key, two at once: the connection takes one token, the first subscription the other.
    const own = await t.another({ RATE_LIMIT_PER_KEY: '1', RATE_LIMIT_KEY_BURST: '2' });
    const connectTo = (closed?: (e: { code: number; reason: string }) => void) => connect(userKey, closed, own.baseUrl);
    const client = connectTo();
    try {
      const first = client.iterate({ query: 'subscription { jobUpdated { id } }' });
      void first.next().catch(() => undefined);
      await until(() => watches() === 1, 'the first watch');
      // Refused before it starts: a graphql-ws `error` message, which the client's iterator rejects with.
      const second = client.iterate({ query: 'subscription { jobUpdated { id } }' });
      await assert.rejects(second.next(), (errors: GqlError[]) => {
        assert.equal(errors[0]!.extensions?.['code'], 'TOO_MANY_REQUESTS');
        assert.match(errors[0]!.message, /^Too many requests for this API key; retry in \d+ s\.$/);
        return true;
      });

      let closed: { code: number; reason: string } | undefined;
      const another = connectTo((e) => (closed = e));
      await until(() => closed !== undefined, 'the refused connection to close');
      assert.equal(closed!.code, 4429);
      assert.match(closed!.reason, /^Too many requests; retry in \d+ s\.$/);
      await another.dispose();
      await first.return?.();
    } finally {
      await client.dispose();
      await own.stop();
    }
  });
});

describe('socket lifetime', () => {
  test('the server closes a socket at GRAPHQL_WS_MAX_LIFETIME_MS with 4000 and a reason; its streams end with it', async () => {
    const own = await t.another({ GRAPHQL_WS_MAX_LIFETIME_MS: '1000' });
    let closed: { code: number; reason: string } | undefined;
    const client = connect(userKey, (e) => (closed = e), own.baseUrl);
    try {
      const jobs = client.iterate({ query: 'subscription { jobUpdated { id } }' });
      void jobs.next().catch(() => undefined);
      await until(() => watches() === 1, 'the watch to open');
      await until(() => closed !== undefined, 'the server to close the socket', 10_000);
      assert.equal(closed!.code, 4000);
      assert.equal(closed!.reason, 'The connection reached its maximum lifetime (1 s); reconnect.');
      await until(() => watches() === 0, 'the gRPC stream to be cancelled');
    } finally {
      await client.dispose();
      await own.stop();
    }
  });
});

describe('introspection over WebSocket', () => {
  const introspect = (client: Client) => client.iterate({ query: '{ __schema { queryType { name } } }' }).next();

  test('on outside production, as over HTTP', async () => {
    const client = connect(userKey);
    try {
      const { value } = await introspect(client);
      assert.deepEqual(value?.data, { __schema: { queryType: { name: 'Query' } } });
    } finally {
      await client.dispose();
    }
  });

  test('off in production, as over HTTP: __schema and __type are refused at validation', async () => {
    const prod = await t.another({ NODE_ENV: 'production', DOCUMENT_LINK_SECRET: 'NH88mkRWhyS8zi6REeYACEf1UbMTLCjR5S-9QZSKdug' });
    const client = connect(userKey, undefined, prod.baseUrl);
    try {
      for (const query of ['{ __schema { queryType { name } } }', '{ __type(name: "Query") { name } }']) {
        await assert.rejects(client.iterate({ query }).next(), (errors: GqlError[]) => {
          assert.equal(errors[0]!.extensions?.['code'], 'GRAPHQL_VALIDATION_FAILED', JSON.stringify(errors));
          assert.match(errors[0]!.message, /^GraphQL introspection has been disabled/);
          return true;
        });
      }
      // Only introspection: __typename still answers.
      const { value } = await client.iterate({ query: '{ __typename }' }).next();
      assert.deepEqual(value?.data, { __typename: 'Query' });
    } finally {
      await client.dispose();
      await prod.stop();
    }
  });
});

// Last: the file's chain service stops serving for good.
describe('the chain service going away', () => {
  test('each subscription ends with a SERVICE_UNAVAILABLE error; the socket stays open for the others', async () => {
    const own = t;
    let closed: { code: number } | undefined;
    // Not lazy (connect's default): a lazy client closes its socket itself once no subscription is left.
    const client = connect(userKey, (e) => (closed = e), own.baseUrl);
    try {
      const jobs = client.iterate({ query: 'subscription { jobUpdated { id } }' });
      const nfts = client.iterate({ query: 'subscription { nftUpdated { guid } }' });
      const nextJob = jobs.next();
      const nextNft = nfts.next();
      await until(() => watches() === 2, 'both watches');
      await own.chain!.stopServing();
      for (const [name, next] of [['jobUpdated', nextJob], ['nftUpdated', nextNft]] as const) {
        const { value } = await next;
        assert.equal(value?.data, null, name);
        assert.equal(value?.errors?.[0]?.extensions?.['code'], 'SERVICE_UNAVAILABLE', `${name}: ${JSON.stringify(value)}`);
      }
      assert.equal((await jobs.next()).done, true);
      assert.equal((await nfts.next()).done, true);
      // The connection is still there: a new subscription is answered (UNAVAILABLE: no chain service).
      const again = client.iterate({ query: 'subscription { jobUpdated { id } }' });
      const { value } = await again.next();
      assert.equal(value?.errors?.[0]?.extensions?.['code'], 'SERVICE_UNAVAILABLE', JSON.stringify(value));
      assert.equal(closed, undefined, 'the socket was not closed');
    } finally {
      await client.dispose();
    }
  });
});

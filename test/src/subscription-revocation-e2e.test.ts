import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { createEventBus } from '@green-impact/shared/bus/create-bus';
import type { EventBus } from '@green-impact/shared/bus/event-bus';
import { IDENTITY_EVENTS_TOPIC, identityEventMessage } from '@green-impact/shared/bus/identity-events';
import { createLogger } from '@green-impact/shared/logger';
import { startSystem, type RunningSystem } from '@green-impact/embedded/system';
import type { Gateway } from '@green-impact/gateway';
import { startSecondGateway } from './support/second-gateway.js';
import { createUserAccount, graphqlClient } from './support/system.js';

const OPERATOR = 'stream-revocation-operator';
/** The bound, measured from the moment the revoking call is answered. */

/**
 * An open subscription rests on the key its socket was authenticated with. The whole embedded system
 * (identity on PGlite, the in-process bus) and a second gateway on the same bus: a socket on each, with a
 * live jobUpdated and nftUpdated stream; revoking the key, rotating it away or an account change closes
 * both sockets, driven by identity's event (no polling: the auth cache's TTL is minutes away and the
 * sockets have an hour to live).
 */
describe('streams end when their key is revoked or their account changes, on every gateway', () => {
  const log = createLogger('stream-revocation-e2e', { level: 'silent' });
  let bus: EventBus;
  let system: RunningSystem;
  let gatewayB: Gateway;
  let urlA: string;
  let urlB: string;

  before(async () => {
    bus = createEventBus({ clientId: 'stream-revocation', logger: log });
    system = await startSystem({
      port: 0,
      host: '127.0.0.1',
      bootstrapApiKey: OPERATOR,
      bus,
      gatewayAuthCache: { ttlMs: 120_000, maxEntries: 1_000 },
      nodeEnv: 'test',
      log,
    });
    urlA = system.gatewayUrl;
    ({ gateway: gatewayB, url: urlB } = await startSecondGateway(system, bus, log, { AUTH_CACHE_TTL_MS: '120000' }));
  });

  after(async () => {
    await gatewayB?.close();
    await system?.stop();
    await bus?.close();
  });

  interface Watcher {
    client: Client;
    /** When and how the server closed the socket. */
    closed: Promise<{ code: number; reason: string; at: number }>;
    /** Resolves when both streams have ended (done, or failed with the socket). */
    streamsEnded: Promise<void>;
  }

  /** A socket to `url` with a live jobUpdated stream on `jobId` (its first event seen) and an nftUpdated stream. */
  async function watch(url: string, apiKey: string, jobId: string): Promise<Watcher> {
    let onClosed!: (e: { code: number; reason: string; at: number }) => void;
    const closed = new Promise<{ code: number; reason: string; at: number }>((r) => (onClosed = r));
    const client = createClient({
      url: `${url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { apiKey },
      retryAttempts: 0,
      on: {
        closed: (e) => {
          const { code, reason } = e as { code: number; reason: string };
          onClosed({ code, reason, at: performance.now() });
        },
      },
    });
    const jobs = client.iterate<{ jobUpdated: { id: string } }>({ query: 'subscription($ids: [ID!]) { jobUpdated(ids: $ids) { id status } }', variables: { ids: [jobId] } });
    const first = await jobs.next();
    assert.equal(first.value?.data?.jobUpdated.id, jobId, 'the job stream is live');
    const nfts = client.iterate({ query: 'subscription { nftUpdated { guid } }' });
    const drain = async (it: AsyncIterator<unknown>) => {
      try {
        while (!(await it.next()).done);
      } catch {
        // Ended by the socket closing under it: what these tests wait for.
      }
    };
    return { client, closed, streamsEnded: Promise.all([drain(jobs), drain(nfts)]).then(() => undefined) };
  }

  const newJob = async (apiKey: string, key: string) => {
    const r = await graphqlClient(urlA, apiKey)(`mutation { insertString(input: { network: "sepolia", key: "${key}", value: "v" }) { job { id } } }`);
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    return r.data.insertString.job.id as string;
  };
  const keyIdOf = async (apiKey: string) => (await graphqlClient(urlA, apiKey)('{ apiKeys { id } }')).data.apiKeys[0].id as string;

  /**
   * Asserts each socket closed with `code` and `reason`; answers the delays after `answeredAt` (reported,
   * not asserted: a loaded machine is slower). The auth cache's TTL is two minutes and a socket lives an
   * hour, so a close within this wait is the event's doing.
   */
  async function assertEndedWithin(watchers: Watcher[], answeredAt: number, code: number, reason: string): Promise<number[]> {
    const delays: number[] = [];
    for (const [i, w] of watchers.entries()) {
      let timer: NodeJS.Timeout | undefined;
      const gaveUp = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`socket ${i} was still open 10 s after the change`)), 10_000);
      });
      const closed = await Promise.race([w.closed, gaveUp]).finally(() => clearTimeout(timer));
      assert.deepEqual({ code: closed.code, reason: closed.reason }, { code, reason }, `socket ${i}`);
      const ms = closed.at - answeredAt;
      await w.streamsEnded;
      delays.push(Math.round(ms));
    }
    return delays;
  }

  it('revoking a key through gateway A closes its sockets on A and on B with 4401; other keys\' sockets stay', async (t) => {
    const key = await createUserAccount(urlA, OPERATOR, 'revoked-while-streaming');
    const jobId = await newJob(key, 'revoked-1');
    const watchers = [await watch(urlA, key, jobId), await watch(urlB, key, jobId)];
    const bystander = await watch(urlB, OPERATOR, await newJob(OPERATOR, 'bystander-1'));
    try {
      const revoked = await graphqlClient(urlA, key)('mutation($id: ID!) { revokeApiKey(keyId: $id) { key { revokedAt } } }', { id: await keyIdOf(key) });
      const answeredAt = performance.now();
      assert.equal(revoked.errors, undefined, JSON.stringify(revoked.errors));
      t.diagnostic(`closed after the answer (ms; A, B): ${await assertEndedWithin(watchers, answeredAt, 4401, 'The API key was revoked.')}`);
      // B closed the revoked key's socket, so it has handled the event: the bystander's socket on B, had
      // the event reached it, would be closed by now. It still answers an operation.
      const alive = await bystander.client.iterate({ query: '{ __typename }' }).next();
      assert.deepEqual(alive.value?.data, { __typename: 'Query' }, "another account's socket is not closed");
    } finally {
      for (const w of [...watchers, bystander]) await w.client.dispose();
    }
  });

  it('rotating keys through gateway B closes the old key\'s sockets on both with 4401; the new key connects', async (t) => {
    const key = await createUserAccount(urlA, OPERATOR, 'rotated-while-streaming');
    const jobId = await newJob(key, 'rotated-1');
    const watchers = [await watch(urlA, key, jobId), await watch(urlB, key, jobId)];
    try {
      const rotated = await graphqlClient(urlB, key)('mutation { rotateApiKey { apiKey } }');
      const answeredAt = performance.now();
      assert.equal(rotated.errors, undefined, JSON.stringify(rotated.errors));
      t.diagnostic(`closed after the answer (ms; A, B): ${await assertEndedWithin(watchers, answeredAt, 4401, 'The API key was revoked.')}`);
      const fresh = await watch(urlA, rotated.data.rotateApiKey.apiKey as string, jobId);
      await fresh.client.dispose();
    } finally {
      for (const w of watchers) await w.client.dispose();
    }
  });

  it("identity's account-changed event (a role change) closes the account's sockets on both gateways with 4403", async (t) => {
    const key = await createUserAccount(urlA, OPERATOR, 'changed-while-streaming');
    const jobId = await newJob(key, 'changed-1');
    const watchers = [await watch(urlA, key, jobId), await watch(urlB, key, jobId)];
    try {
      const accountId = (await graphqlClient(urlA, key)('{ me { id } }')).data?.me?.id as string | undefined;
      assert.ok(accountId, 'the account id');
      // Nothing in the API changes a role yet; identity publishes this event for any change of the account.
      await bus.publish(IDENTITY_EVENTS_TOPIC, [identityEventMessage({ type: 'account-changed', accountId })]);
      const publishedAt = performance.now();
      t.diagnostic(`closed after the event (ms; A, B): ${await assertEndedWithin(watchers, publishedAt, 4403, 'The account changed; reconnect to authenticate again.')}`);
      // The key itself still works: a client that reconnects is authenticated anew (with the new role).
      const again = await watch(urlB, key, jobId);
      await again.client.dispose();
    } finally {
      for (const w of watchers) await w.client.dispose();
    }
  });
});

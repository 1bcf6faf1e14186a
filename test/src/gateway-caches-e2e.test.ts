import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createEventBus } from '@green-impact/shared/bus/create-bus';
import type { EventBus } from '@green-impact/shared/bus/event-bus';
import { IDENTITY_EVENTS_TOPIC } from '@green-impact/shared/bus/identity-events';
import { TAXONOMY_EVENTS_TOPIC } from '@green-impact/shared/bus/taxonomy-events';
import { createLogger } from '@green-impact/shared/logger';
import { createScratchPostgresDatabase, skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { startKafkaMock, type KafkaMock } from '@green-impact/testing/shared/kafka-mock';
import { startSystem, type RunningSystem } from '@green-impact/embedded/system';
import type { Gateway } from '@green-impact/gateway';
import { createUserAccount, graphqlClient, v1Client } from './support/system.js';
import { until } from './support/poll.js';
import { startSecondGateway } from './support/second-gateway.js';

const ESG = 'SVC.ESG.Credits';
const OPERATOR = 'auth-cache-operator';
/** Far longer than any test waits: a key refused in time was refused because of the event, not the TTL. */
const TTL_MS = 120_000;

/**
 * API keys and shared reference reads are cached in every gateway replica (auth-cache.ts,
 * reference-cache.ts); identity's revocation events make every replica refuse a revoked key at once, and
 * the taxonomy service's change events make every replica drop the reference data a write changed. Two gateways over one set of services, on the in-process bus and
 * on Kafka (librdkafka's mock cluster over the wire protocol), on PGlite and on PostgreSQL.
 */
const buses = [
  { name: 'in-process bus', kafka: false },
  { name: 'Kafka', kafka: true },
] as const;

for (const db of testDatabases) {
  for (const transport of buses) {
    describe(`gateway caches across two gateways on ${db.name} over the ${transport.name}`, { skip: await skipReason(db) }, () => {
      let kafka: KafkaMock | undefined;
      let scratch: { url: string; stop(): Promise<void> } | undefined;
      let busA: EventBus;
      let busB: EventBus;
      let system: RunningSystem;
      let gatewayB: Gateway;
      let urlA: string;
      let urlB: string;
      const log = createLogger('auth-cache-e2e');

      before(async () => {
        if (transport.kafka) kafka = await startKafkaMock({ partitions: 3, topics: [IDENTITY_EVENTS_TOPIC, TAXONOMY_EVENTS_TOPIC] });
        const newBus = (clientId: string) =>
          createEventBus({
            clientId,
            logger: log,
            ...(kafka
              ? {
                  kafkaBrokers: kafka.brokers,
                  // librdkafka's mock: quick rebalances and fetches (see kafka-mock.ts).
                  consumer: { sessionTimeoutMs: 6_000, heartbeatIntervalMs: 500, maxWaitTimeMs: 100 },
                }
              : {}),
          });
        busA = newBus('system-a');
        // In process, both gateways share one bus as they share one process; on Kafka each has its own client.
        busB = kafka ? newBus('gateway-b') : busA;
        if (db.name === 'postgresql') scratch = await createScratchPostgresDatabase();
        system = await startSystem({
          port: 0,
          host: '127.0.0.1',
          databaseUrl: scratch?.url,
          bootstrapApiKey: OPERATOR,
          bus: busA,
          gatewayAuthCache: { ttlMs: TTL_MS, maxEntries: 1_000 },
          gatewayReferenceCache: { ttlMs: TTL_MS, maxEntries: 1_000 },
          nodeEnv: 'test',
          log,
        });
        urlA = system.gatewayUrl;
        ({ gateway: gatewayB, url: urlB } = await startSecondGateway(system, busB, log, {
          AUTH_CACHE_TTL_MS: String(TTL_MS),
          REFERENCE_CACHE_TTL_MS: String(TTL_MS),
        }));
      });

      after(async () => {
        await gatewayB?.close();
        await system?.stop();
        await busB?.close();
        if (busB !== busA) await busA?.close();
        await scratch?.stop();
        await kafka?.stop();
      });

      const op0 = (url: string, key: string) => v1Client(url, key)(ESG, 'getCurrencies');
      const works = async (url: string, key: string) => (await v1Client(url, key)(ESG, 'getGroups')).status;

      it('a key revoked through one gateway is refused by both, long before the cache TTL', async () => {
        const key = await createUserAccount(urlA, OPERATOR, 'revoked-through-a');
        // Both replicas now hold the key in their caches.
        for (let i = 0; i < 3; i++) {
          assert.equal(await works(urlA, key), 200);
          assert.equal(await works(urlB, key), 200);
        }
        const me = await graphqlClient(urlA, key)('{ apiKeys { id revokedAt } }');
        const keyId = me.data.apiKeys[0].id as string;
        const revoked = await graphqlClient(urlA, key)('mutation($id: ID!) { revokeApiKey(keyId: $id) { key { id revokedAt } } }', { id: keyId });
        assert.equal(revoked.errors, undefined);
        // The replica that forwarded the revocation forgot the key before answering it.
        assert.equal(await works(urlA, key), 401);
        // B's cached verdict lives two minutes (TTL_MS), far past this wait: a refusal within it is the
        // event's doing. How soon is a latency figure, not asserted here (a loaded machine is slower).
        await until(() => works(urlB, key), (s) => s === 401, 'gateway B refusing the revoked key', 10_000, 20);
        // Stays refused on both, whatever else is cached.
        assert.equal(await works(urlA, key), 401);
        assert.equal(await works(urlB, key), 401);
      });

      it('rotating keys through the other gateway makes both refuse every old key and accept the new one', async () => {
        const oldKey = await createUserAccount(urlA, OPERATOR, 'rotated-through-b');
        assert.equal(await works(urlA, oldKey), 200);
        assert.equal(await works(urlB, oldKey), 200);
        const rotated = await graphqlClient(urlB, oldKey)('mutation { rotateApiKey { apiKey revokedKeyIds } }');
        assert.equal(rotated.errors, undefined);
        const newKey = rotated.data.rotateApiKey.apiKey as string;
        assert.equal(rotated.data.rotateApiKey.revokedKeyIds.length, 1);
        assert.equal(await works(urlB, oldKey), 401);
        await until(() => works(urlA, oldKey), (s) => s === 401, 'gateway A refusing the rotated key', 10_000, 20);
        assert.equal(await works(urlA, newKey), 200);
        assert.equal(await works(urlB, newKey), 200);
      });

      it('an operator revoking another account\'s key reaches both replicas', async () => {
        const key = await createUserAccount(urlA, OPERATOR, 'revoked-by-operator');
        assert.equal(await works(urlA, key), 200);
        assert.equal(await works(urlB, key), 200);
        const keys = await graphqlClient(urlA, key)('{ apiKeys { id } }');
        const keyId = keys.data.apiKeys[0].id as string;
        // Through the identity service's own API (gateway B as the operator's entry), not gateway A.
        const r = await graphqlClient(urlB, OPERATOR)('mutation($id: ID!) { revokeApiKey(keyId: $id) { key { id } } }', { id: keyId });
        assert.equal(r.errors, undefined);
        await until(() => works(urlA, key), (s) => s === 401, 'gateway A refusing the revoked key', 10_000, 20);
        assert.equal(await works(urlB, key), 401);
      });

      it('a reference write through one gateway is read back at once there, and by the other after its event', async () => {
        const op = (url: string) => v1Client(url, OPERATOR);
        const year = 2031;
        const rates = async (url: string) => ((await op(url)(ESG, 'getFXrates', { reporting_year: year })).body as { fx_rate: number; numerator_currency_code: string; denominator_currency_code: string }[])
          .filter((r) => r.numerator_currency_code === 'SEK' && r.denominator_currency_code === 'EUR')
          .map((r) => r.fx_rate);
        assert.equal((await op(urlA)(ESG, 'addCurrency', { currency_code: 'SEK' })).status < 500, true);
        assert.equal((await op(urlA)(ESG, 'addFXrate', { currency_code_numerator: 'SEK', currency_code_denominator: 'EUR', currency_code_quota: 11, reporting_year: year })).status, 200);
        // Both replicas now hold the year's rates.
        assert.ok((await rates(urlA)).includes(11));
        assert.ok((await rates(urlB)).includes(11));
        const categoriesB = (await op(urlB)(ESG, 'getCategories', { reporting_year: year })).body;
        assert.equal((await op(urlA)(ESG, 'addFXrate', { currency_code_numerator: 'SEK', currency_code_denominator: 'EUR', currency_code_quota: 12, reporting_year: year })).status, 200);
        // The writer reads its own write through the gateway it wrote through, at once.
        assert.deepEqual(await rates(urlA), [12]);
        // Within a wait far shorter than B's two-minute TTL: the event's doing (how soon is not asserted).
        await until(() => rates(urlB), (r) => r.length === 1 && r[0] === 12, 'gateway B showing the new rate', 10_000, 20);
        // A reference write through B: a new category appears in A's answer.
        const added = await op(urlB)(ESG, 'addCategory', { category_name: 'Cache test category', reporting_year: year, language_code: 'en' });
        assert.equal(added.status, 200, JSON.stringify(added.body));
        const hasCategory = async (url: string) =>
          JSON.stringify((await op(url)(ESG, 'getCategories', { reporting_year: year })).body).includes('Cache test category');
        assert.equal(await hasCategory(urlB), true);
        assert.notDeepEqual((await op(urlB)(ESG, 'getCategories', { reporting_year: year })).body, categoriesB);
        await until(() => hasCategory(urlA), (has) => has, 'gateway A showing the new category', 10_000, 20);
      });

      it('reference reads still need a valid key: the cache never answers an unauthenticated caller', async () => {
        assert.equal((await op0(urlA, OPERATOR)).status, 200);
        assert.equal((await op0(urlA, 'not-a-key')).status, 401);
        assert.equal((await op0(urlB, 'not-a-key')).status, 401);
        const none = await fetch(`${urlA}/v1/call`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ solution: ESG, operation: 'getCurrencies' }),
        });
        assert.equal(none.status, 401);
      });
    });
  }
}

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createScratchPostgresDatabase, skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { countsOf, listInvestorIdentifiers } from './support/account-reads.js';
import { topologyEnv, topologyPorts } from './support/distributed.js';
import { assertGraphqlUnavailable, assertUnavailable, graphqlCall, succeeded, v1Call } from './support/outcomes.js';
import { until } from './support/poll.js';
import { startProcesses, type ProcessSet } from './support/processes.js';
import { createUserAccount } from './support/system.js';
import { retryFailed, startLoad, type Write } from './support/write-load.js';

const postgres = testDatabases.find((d) => d.name === 'postgresql')!;
const OPERATOR = 'gi_NpySCzbElX8ys6JTw-W28EOBV-_NreytroHDfst8w54'; // BOOTSTRAP_API_KEY: random (a weak one is refused at start)
/** The gateway's deadline per backend call: a failure must come well before it, never as a hang. */
const DEADLINE_MS = 8_000;
/**
 * How long the killed service stays away: as long as a restarted pod may take, and long enough that
 * grpc-js' default reconnect backoff (1 s × 1.6ⁿ up to 120 s) would leave the gateway waiting seconds
 * after the service is back.
 */
const DOWN_MS = 8_000;

/**
 * A service process killed (SIGKILL: no drain, no goodbye) behind the gateway and started again. Identity,
 * taxonomy, portfolio and the gateway run as their own processes on a scratch PostgreSQL database;
 * clients keep adding investors (portfolio) through /v1/call and GraphQL. While portfolio is gone its
 * operations answer 503 UNAVAILABLE at once, the others keep working and /readyz names the missing
 * backend; once it runs again the gateway reconnects by itself (no restart of the gateway), and after
 * the clients retried what failed every investor is stored exactly once.
 */
describe('a service process killed and restarted behind the gateway', { skip: await skipReason(postgres), timeout: 90_000 }, () => {
  let db: { url: string; stop(): Promise<void> };
  let procs: ProcessSet | undefined;
  let apiKey: string;
  let metricsUrl: string;

  before(async () => {
    db = await createScratchPostgresDatabase();
    const env = topologyEnv(await topologyPorts(), {
      DATABASE_URL: db.url,
      DATABASE_POOL_SIZE: '4',
      BOOTSTRAP_API_KEY: OPERATOR,
      GRPC_DEADLINE_MS: String(DEADLINE_MS),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
    });
    procs = await startProcesses(env, ['identity', 'taxonomy', 'portfolio', 'gateway']);
    metricsUrl = `http://127.0.0.1:${procs.ports('portfolio')['metrics']}/metrics`;
    apiKey = await createUserAccount(procs.url, OPERATOR, 'Faults Process Issuer');
  });

  after(async () => {
    const exits = await procs?.stop();
    await db?.stop();
    assert.deepEqual(exits?.filter((e) => e.code !== 0), [], procs?.output().slice(-4000));
  });

  it('answers 503 UNAVAILABLE for the dead service only, reconnects after its restart, and stores every write once', async (t) => {
    const url = procs!.url;
    const investor = (name: string, viaGraphql: boolean): Write => ({
      kind: viaGraphql ? 'graphql' : 'v1',
      name,
      send: () =>
        viaGraphql
          ? graphqlCall(url, apiKey, 'mutation($i: AddInvestorInput!) { addInvestor(input: $i) { message } }', {
              i: { identifier: name, name: `Investor ${name}`, currencyCode: 'EUR' },
            })
          : v1Call(url, apiKey, {
              solution: 'SVC.ESG.Credits',
              operation: 'addInvestor',
              parameters: { investor_identifier: name, investor_name: `Investor ${name}`, investor_currency_code: 'EUR' },
            }),
    });
    let n = 0;
    const load = startLoad(4, (loop) => investor(`kill${loop}-${n++}`, loop % 2 === 1));
    const readyz = async () => {
      const res = await fetch(`${url}/readyz`);
      return { status: res.status, body: (await res.json()) as { status: string; backends: Record<string, string> } };
    };
    let restartedAt = 0;
    try {
      await load.succeeded(12);
      const pid = procs!.pid('portfolio');
      const killedAt = Date.now();
      await procs!.kill('portfolio', 'SIGKILL');
      await until(
        async () => load.sent.filter((s) => s.startedAt >= killedAt && !succeeded(s.outcome)),
        // As long as a pod takes to come back: long enough for the gateway's reconnect attempts to back off.
        (failed) =>
          failed.some((s) => s.write.kind === 'v1') &&
          failed.some((s) => s.write.kind === 'graphql') &&
          failed.some((s) => s.startedAt - killedAt >= DOWN_MS),
        'failures of both APIs while portfolio is down',
        DOWN_MS + 30_000,
      );
      // The rest of the system serves: identity and taxonomy answer, readiness names the missing backend.
      const users = await v1Call(url, apiKey, { solution: 'SVC.ESG.Credits', operation: 'getUsers' });
      assert.ok(succeeded(users), JSON.stringify(users));
      const sdgs = await v1Call(url, apiKey, { solution: 'SVC.ESG.Credits', operation: 'getSDGs' });
      assert.ok(succeeded(sdgs), JSON.stringify(sdgs));
      // Still ready (a backend down must not take the gateway out of its Service): degraded, naming it.
      const notReady = await readyz();
      assert.equal(notReady.status, 200);
      assert.equal(notReady.body.status, 'degraded');
      assert.deepEqual(notReady.body.backends, { identity: 'SERVING', taxonomy: 'SERVING', portfolio: 'UNREACHABLE' });

      restartedAt = Date.now();
      await procs!.restart('portfolio');
      assert.notEqual(procs!.pid('portfolio'), pid);
      // Serving again (its metrics listener starts right after its gRPC server) ...
      await until(() => fetch(metricsUrl).then((r) => r.ok, () => false), Boolean, 'portfolio serving again', 30_000, 25);
      const servingAt = Date.now();
      // ... and the gateway's channel finds it by itself, within its reconnect backoff (shared/grpc/client.ts).
      await until(async () => load.sent.some((s) => s.startedAt >= servingAt && succeeded(s.outcome)), Boolean, 'a write after the restart', 15_000, 25);
      // How soon is reported, not asserted (a loaded machine is slower): the channel's backoff cap is
      // configuration (shared/grpc/client.ts), and the figure belongs to a benchmark.
      const reconnectMs = Date.now() - servingAt;
      t.diagnostic(`portfolio down ${restartedAt - killedAt} ms, serving ${servingAt - restartedAt} ms after its start, reached through the gateway ${reconnectMs} ms later`);
      await load.succeeded(12);
      assert.deepEqual(await readyz(), { status: 200, body: { status: 'ready', backends: { identity: 'SERVING', taxonomy: 'SERVING', portfolio: 'SERVING' } } });
    } finally {
      if (!restartedAt) await procs!.restart('portfolio').catch(() => undefined);
      await load.stop();
    }

    const failed = load.sent.filter((s) => !succeeded(s.outcome));
    assert.ok(failed.length > 0);
    for (const s of failed) {
      if (s.write.kind === 'graphql') assertGraphqlUnavailable(s.outcome, s.write.name);
      else assertUnavailable(s.outcome, s.write.name);
      assert.ok(s.endedAt - s.startedAt < DEADLINE_MS, `${s.write.name} answered after ${s.endedAt - s.startedAt} ms: a hang, not a refusal`);
    }
    assert.deepEqual(
      procs!.exits().map((e) => [e.name, e.signal]),
      [['portfolio', 'SIGKILL']],
      'only the killed process exited; the gateway was not restarted',
    );

    const retried = await retryFailed(load.sent);
    for (const r of retried) assert.ok(succeeded(r.outcome), `retry of ${r.write.name}: ${JSON.stringify(r.outcome)}`);
    const stored = countsOf(await listInvestorIdentifiers(url, apiKey));
    const wanted = new Set(load.sent.map((s) => s.write.name));
    for (const name of wanted) assert.equal(stored.get(name), 1, `investor ${name} stored ${stored.get(name) ?? 0} times`);
    assert.equal(stored.size, wanted.size, 'no investor the clients did not send');
    t.diagnostic(`${load.sent.length} writes, ${failed.length} failed while portfolio was down, ${retried.length} retried`);
  });
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScratchPostgresDatabase, skipReason, testDatabases, TEST_POSTGRES_URL } from '@green-impact/testing/shared/databases';
import { countsOf, listInvestorIdentifiers, listJobs, listUserIdentifiers } from './support/account-reads.js';
import { assertOneTransactionPerJobOnChain } from './support/chain-reads.js';
import { topologyEnv, topologyPorts } from './support/distributed.js';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy.js';
import { assertGraphqlUnavailable, assertUnavailable, graphqlCall, succeeded, v1Call, type Outcome } from './support/outcomes.js';
import { until, within } from './support/poll.js';
import { startProcesses, type ProcessSet } from './support/processes.js';
import { createUserAccount } from './support/system.js';
import { retryFailed, startLoad, type Sent, type Write } from './support/write-load.js';

const postgres = testDatabases.find((d) => d.name === 'postgresql')!;
const OPERATOR = 'gi_6Ley_jbLN4XB3TPt6p9BzchDKJCHmJCQwCdMEf5uXCs'; // BOOTSTRAP_API_KEY: random (a weak one is refused at start)
const POOL_SIZE = 4;
/** The pool's connect timeout (openServiceDataSource): a hanging database answers within it, plus margin. */
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * PostgreSQL taken away from running services and given back. Identity, portfolio, chain and the gateway
 * run as their own processes (scripts/topology.mjs) with DATABASE_URL pointing at a TCP fault proxy in
 * front of the server, a scratch database each run. Clients keep writing users (/v1/call), investors
 * (GraphQL) and chain jobs (/v1/call with Idempotency-Key) while the proxy cuts every connection and
 * refuses new ones, then hangs new ones (the pools' connect and checkout timeouts), then cuts single
 * transactions before and after their COMMIT. Every failure must be a clear 503 UNAVAILABLE; the same
 * processes must serve again once the database is back; and after clients retry what failed, every
 * write is stored exactly once and every chain job completes exactly once.
 */
describe('PostgreSQL lost and restored under running services', { skip: await skipReason(postgres), timeout: 150_000 }, () => {
  let db: { url: string; stop(): Promise<void> };
  let proxy: FaultProxy;
  let contentDir: string;
  let procs: ProcessSet | undefined;
  let apiKey: string;
  let pids: (number | undefined)[];

  before(async () => {
    const server = new URL(TEST_POSTGRES_URL);
    [db, proxy] = await Promise.all([createScratchPostgresDatabase(), startFaultProxy({ host: server.hostname, port: Number(server.port || 5432) })]);
    const viaProxy = new URL(db.url);
    viaProxy.hostname = proxy.host;
    viaProxy.port = String(proxy.port);
    contentDir = mkdtempSync(join(tmpdir(), 'gi-faults-pg-'));
    const env = topologyEnv(await topologyPorts(), {
      DATABASE_URL: viaProxy.toString(),
      DATABASE_POOL_SIZE: String(POOL_SIZE),
      CONTENT_DIR: contentDir,
      BOOTSTRAP_API_KEY: OPERATOR,
      // One transaction per insert job (batching is on by default): what the outage must not lose or double
      // is counted as one job, one transaction on the node (batched inserts' crash safety: faults-chain-crash).
      CHAIN_KV_BATCH: '1',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
    });
    procs = await startProcesses(env, ['identity', 'portfolio', 'chain', 'gateway']);
    apiKey = await createUserAccount(procs.url, OPERATOR, 'Faults PG Issuer');
    pids = (['identity', 'portfolio', 'chain', 'gateway'] as const).map((n) => procs!.pid(n));
  });

  after(async () => {
    await proxy?.up().catch(() => undefined);
    const exits = await procs?.stop();
    await proxy?.close();
    await db?.stop();
    if (contentDir) rmSync(contentDir, { recursive: true, force: true });
    // Every process survived the outages and stops cleanly (no pool error escaped as a crash).
    assert.deepEqual(exits?.filter((e) => e.code !== 0), [], procs?.output().slice(-4000));
  });

  const url = () => procs!.url;
  const user = (name: string): Write => ({
    kind: 'user',
    name,
    send: () => v1Call(url(), apiKey, { solution: 'SVC.ESG.Credits', operation: 'addUser', parameters: { user_identifier: name } }),
  });
  const investor = (name: string): Write => ({
    kind: 'investor',
    name,
    send: () =>
      graphqlCall(url(), apiKey, 'mutation($i: AddInvestorInput!) { addInvestor(input: $i) { message } }', {
        i: { identifier: name, name: `Investor ${name}`, currencyCode: 'EUR' },
      }),
  });
  const job = (name: string): Write => ({
    kind: 'job',
    name,
    send: () =>
      v1Call(
        url(),
        apiKey,
        { solution: 'SVC.Blockchain.Hash', version: 1, network: 'sepolia', operation: 'insertString', parameters: { key: name, value: `v-${name}` } },
        { 'idempotency-key': name },
      ),
  });
  const assertFailureIsUnavailable = (s: { write: Write; outcome: Outcome }) =>
    s.write.kind === 'investor' ? assertGraphqlUnavailable(s.outcome, s.write.name) : assertUnavailable(s.outcome, s.write.name);

  /**
   * The same processes serve (none exited, same pids); after the clients' retries every write is there
   * exactly once and every chain job completed once, with one transaction each.
   */
  async function assertNothingLostNothingDoubled(sent: Sent[], t: { diagnostic(m: string): void }) {
    assert.deepEqual(procs!.exits(), [], 'no process exited or was restarted');
    assert.deepEqual((['identity', 'portfolio', 'chain', 'gateway'] as const).map((n) => procs!.pid(n)), pids);
    for (const s of sent.filter((x) => !succeeded(x.outcome))) assertFailureIsUnavailable(s);
    const retried = await retryFailed(sent);
    for (const r of retried) assert.ok(succeeded(r.outcome), `retry of ${r.write.kind} ${r.write.name}: ${JSON.stringify(r.outcome)}`);
    t.diagnostic(`${sent.length} writes, ${sent.filter((s) => succeeded(s.outcome)).length} answered 200, ${retried.length} retried after the outage`);

    const wanted = (kind: string) => [...new Set(sent.filter((s) => s.write.kind === kind).map((s) => s.write.name))];
    const users = countsOf(await listUserIdentifiers(url(), apiKey));
    const investors = countsOf(await listInvestorIdentifiers(url(), apiKey));
    for (const name of wanted('user')) assert.equal(users.get(name), 1, `user ${name} stored ${users.get(name) ?? 0} times`);
    for (const name of wanted('investor')) assert.equal(investors.get(name), 1, `investor ${name} stored ${investors.get(name) ?? 0} times`);

    const keys = wanted('job');
    const jobs = await until(
      () => listJobs(url(), apiKey),
      (list) => list.filter((j) => keys.includes(j.key!)).every((j) => j.status === 'COMPLETED' || j.status === 'FAILED'),
      'every chain job final',
    );
    const byKey = countsOf(jobs.map((j) => j.key!));
    for (const key of keys) assert.equal(byKey.get(key), 1, `job ${key} exists ${byKey.get(key) ?? 0} times`);
    const mine = jobs.filter((j) => keys.includes(j.key!));
    assert.deepEqual(mine.filter((j) => j.status !== 'COMPLETED' || j.attempts !== 1), [], 'each job completed with one transaction');
    assert.equal(new Set(mine.map((j) => j.txHash)).size, mine.length, 'one transaction per job');
    // And on the node (the chain service's embedded chain, through the gateway's JSON-RPC relay), which
    // counts what was sent, whatever the table's unique constraints let through: every job of this run.
    await assertOneTransactionPerJobOnChain(url(), 'sepolia', jobs);
  }

  it('answers 503 UNAVAILABLE while connections are cut, refused and hanging, then serves again in the same processes', async (t) => {
    let n = 0;
    const kinds = [user, investor, job];
    const load = startLoad(3, (loop) => kinds[loop]!(`pg${loop}-${n++}`));
    try {
      await load.succeeded(15);

      // Cut: every open connection reset, every new one refused.
      const cutAt = Date.now();
      await proxy.down();
      await until(
        async () => load.sent.filter((s) => s.startedAt >= cutAt),
        (list) => kinds.every((_, loop) => list.filter((s) => s.write.name.startsWith(`pg${loop}-`) && !succeeded(s.outcome)).length >= 2),
        'failures of every kind of write while the database is cut off',
      );
      assertUnavailable(await v1Call(url(), apiKey, { solution: 'SVC.ESG.Credits', operation: 'getUsers' }), 'getUsers, database down');
      assertGraphqlUnavailable(await graphqlCall(url(), apiKey, '{ investors { nodes { identifier } } }'), 'investors, database down');
      // The processes are up and answer clearly; readiness stays (docs/decisions.md: a shared dependency
      // down does not take every replica out of its Service, which would turn clear 503s into refusals).
      assert.equal((await fetch(`${url()}/readyz`)).status, 200);

      // Hang: new connections are accepted and never answered. More concurrent reads than the pool holds:
      // some wait for a connection that never comes (connect timeout), the rest for a free pool slot.
      await proxy.blackhole();
      const started = Date.now();
      const hung = await Promise.all(
        Array.from({ length: POOL_SIZE * 2 }, () => v1Call(url(), apiKey, { solution: 'SVC.ESG.Credits', operation: 'getUsers' })),
      );
      const waited = Date.now() - started;
      hung.forEach((o, i) => assertUnavailable(o, `getUsers #${i}, database hanging`));
      assert.ok(waited < CONNECT_TIMEOUT_MS * 2 + 3_000, `answered after ${waited} ms`);
      t.diagnostic(`hanging database: ${hung.length} reads answered 503 within ${waited} ms`);

      const upAt = Date.now();
      await proxy.up();
      await load.succeeded(15);
      t.diagnostic(`writes succeed again ${Date.now() - upAt} ms after the database came back`);
    } finally {
      await proxy.up();
      await load.stop();
    }
    await assertNothingLostNothingDoubled(load.sent, t);
  });

  /**
   * A connection cut inside a transaction: the proxy takes the database away at the transaction's COMMIT,
   * either before the server got it (rolled back: nothing stored) or after it committed (stored, but the
   * client only saw the failure). Either way the client gets 503; its retry stores nothing twice.
   */
  for (const committed of [false, true]) {
    it(`a connection cut at COMMIT (${committed ? 'after the server committed' : 'before the server got it'}) loses and doubles nothing`, async (t) => {
      const sent: Sent[] = [];
      const cases: { write: Write; insert: string }[] = [
        { write: user(`commit-${committed}-user`), insert: 'INSERT INTO "identity"."users"' },
        { write: investor(`commit-${committed}-inv`), insert: 'INSERT INTO portfolio.investors' },
        { write: job(`commit-${committed}-job`), insert: 'INSERT INTO chain.jobs' },
      ];
      for (const { write, insert } of cases) {
        const insertedBy = new Set<number>();
        const cut = proxy.cutWhen(
          (chunk, conn) => {
            const text = chunk.toString('latin1');
            if (text.includes(insert)) insertedBy.add(conn);
            return insertedBy.has(conn) && /\bCOMMIT\b/.test(text);
          },
          { forward: committed },
        );
        const startedAt = Date.now();
        const outcome = await write.send();
        sent.push({ write, outcome, startedAt, endedAt: Date.now() });
        try {
          await within(cut, 2_000, `the COMMIT of ${write.name} (${JSON.stringify(outcome)})`);
        } finally {
          await proxy.up();
        }
        assertFailureIsUnavailable({ write, outcome });
      }
      // Before any retry: rolled back, or committed once, as the cut fell.
      const stored = {
        user: countsOf(await listUserIdentifiers(url(), apiKey)),
        investor: countsOf(await listInvestorIdentifiers(url(), apiKey)),
        job: countsOf((await listJobs(url(), apiKey)).map((j) => j.key!)),
      };
      for (const { write } of cases) {
        assert.equal(stored[write.kind as keyof typeof stored].get(write.name) ?? 0, committed ? 1 : 0, `${write.kind} ${write.name} before the retry`);
      }
      await assertNothingLostNothingDoubled(sent, t);
    });
  }
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { FailedPreconditionError } from './errors.js';
import { checkPublicLimit } from './public-items.js';
import { createScratchPostgresDatabase, skipReason, testDatabases } from '@green-impact/testing/shared/databases';

const postgres = testDatabases.find((d) => d.name === 'postgresql')!;

const ACCOUNT = 'a0000000-0000-4000-8000-000000000001';

/** A pg client as the stores' transactions query: answering rows, as TypeORM's EntityManager does. */
const rowsOf = (client: pg.Client) => ({ query: async (sql: string, params?: unknown[]) => (await client.query(sql, params)).rows });

/**
 * checkPublicLimit serializes one account's publications: a second transaction waits for the first's
 * advisory lock and then counts what the first published, so two cannot both pass at limit - 1. On
 * PostgreSQL only: PGlite has one connection, so its transactions never overlap. The wait is observed in
 * pg_locks (a lock not granted), not timed.
 */
describe('checkPublicLimit under concurrent publications', { skip: await skipReason(postgres) }, () => {
  let scratch: { url: string; stop(): Promise<void> };
  let first: pg.Client;
  let second: pg.Client;
  let observer: pg.Client;

  before(async () => {
    scratch = await createScratchPostgresDatabase();
    const connect = async () => {
      const c = new pg.Client({ connectionString: scratch.url });
      await c.connect();
      return c;
    };
    [first, second, observer] = [await connect(), await connect(), await connect()];
    await observer.query(`CREATE TABLE items (id serial PRIMARY KEY, account_id uuid NOT NULL, visibility varchar NOT NULL)`);
    await observer.query(`INSERT INTO items (account_id, visibility) VALUES ($1, 'public')`, [ACCOUNT]);
  });
  after(async () => {
    await Promise.all([first, second, observer].map((c) => c?.end()));
    await scratch?.stop();
  });

  it('makes the second publication wait for the first and then refuses it at the limit', async () => {
    await first.query('BEGIN');
    await checkPublicLimit(rowsOf(first), 'items', ACCOUNT, 'asset', 2);
    await first.query(`INSERT INTO items (account_id, visibility) VALUES ($1, 'public')`, [ACCOUNT]);

    await second.query('BEGIN');
    const secondCheck = checkPublicLimit(rowsOf(second), 'items', ACCOUNT, 'asset', 2).then(
      () => 'passed',
      (err: unknown) => err,
    );
    let settled = false;
    void secondCheck.then(() => (settled = true));
    let waiting = false;
    while (!settled && !waiting) {
      const { rows } = await observer.query(`SELECT count(*)::int AS n FROM pg_locks l JOIN pg_database d ON d.oid = l.database
         WHERE l.locktype = 'advisory' AND NOT l.granted AND d.datname = current_database()`);
      waiting = rows[0].n === 1;
    }
    assert.ok(waiting, 'the second publication went ahead while the first was open');
    await first.query('COMMIT');
    const outcome = await secondCheck;
    await second.query('ROLLBACK');
    assert.ok(outcome instanceof FailedPreconditionError, String(outcome));
    assert.match(outcome.message, /^This account already publishes 2 assets/);
  });
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { once } from 'node:events';
import pg from 'pg';
import { parse, serialize } from 'pg-protocol';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres.js';

describe('embedded PostgreSQL (PGlite behind a socket) under concurrent connections', () => {
  let db: EmbeddedPostgres;
  let pool: pg.Pool;

  before(async () => {
    db = await startEmbeddedPostgres({});
    pool = new pg.Pool({ connectionString: db.url, max: 12 });
    await pool.query('CREATE TABLE t (id serial PRIMARY KEY, a int NOT NULL, b text NOT NULL)');
  });
  after(async () => {
    await pool.end();
    await db.stop();
  });

  it('keeps each parameterized exchange whole across many connections', async () => {
    // Different statements with different parameter counts: interleaved Parse/Bind would mismatch them.
    const work = Array.from({ length: 400 }, (_, i) =>
      i % 2 === 0
        ? pool.query('INSERT INTO t (a, b) VALUES ($1, $2) RETURNING a, b', [i, `v${i}`]).then((r) => {
            assert.deepEqual(r.rows[0], { a: i, b: `v${i}` });
          })
        : pool.query('SELECT $1::int + 1 AS n', [i]).then((r) => assert.equal(r.rows[0].n, i + 1)),
    );
    await Promise.all(work);
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM t');
    assert.equal(rows[0].n, 200);
  });

  it('gives an open transaction the session until it ends, and rolls back a vanished client', async () => {
    const client = await pool.connect();
    await client.query('BEGIN');
    await client.query('INSERT INTO t (a, b) VALUES ($1, $2)', [-1, 'in-tx']);
    // Another connection's read waits for the transaction, then sees its result.
    const reader = pool.query('SELECT count(*)::int AS n FROM t WHERE a = -1');
    await waitUntil(() => db.waiting() > 0, 'the read held back by the transaction');
    await client.query('COMMIT');
    client.release();
    assert.equal((await reader).rows[0].n, 1);

    const lost = new pg.Client({ connectionString: db.url });
    await lost.connect();
    await lost.query('BEGIN');
    await lost.query('INSERT INTO t (a, b) VALUES (-2, $1)', ['never']);
    await lost.end();
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM t WHERE a = -2');
    assert.equal(rows[0].n, 0);
  });
});

/** Polls `condition` until it holds; fails naming `what` after 5 s. */
async function waitUntil(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`${what}: not within 5 s`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** A raw protocol connection, to send an extended-protocol exchange in pieces as a client may. */
async function rawConnection(url: string): Promise<{ send(buf: Buffer): void; until(name: string): Promise<any[]>; close(): void }> {
  const { port, hostname } = new URL(url);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  const inbox: any[] = [];
  let waiter: (() => void) | undefined;
  void parse(socket, (msg) => {
    inbox.push(msg);
    waiter?.();
  });
  const conn = {
    send: (buf: Buffer) => void socket.write(buf),
    async until(name: string): Promise<any[]> {
      for (;;) {
        const i = inbox.findIndex((m) => m.name === name);
        if (i >= 0) return inbox.splice(0, i + 1);
        await new Promise<void>((r) => (waiter = r));
      }
    },
    close: () => socket.destroy(),
  };
  conn.send(serialize.startup({ user: 'postgres', database: 'postgres' }));
  await conn.until('readyForQuery');
  return conn;
}

describe('embedded PostgreSQL: an extended-protocol exchange is never interleaved', () => {
  let db: EmbeddedPostgres;
  before(async () => {
    db = await startEmbeddedPostgres({});
  });
  after(() => db.stop());

  it('holds other connections back until the exchange reaches Sync', async () => {
    const a = await rawConnection(db.url);
    const b = await rawConnection(db.url);
    // A parses and binds the unnamed statement, then pauses before Execute.
    a.send(Buffer.concat([serialize.parse({ text: 'SELECT $1::int + 100 AS a', types: [] }), serialize.bind({ values: ['1'] }), serialize.flush()]));
    await a.until('bindComplete');
    // B runs a whole exchange with its own unnamed statement meanwhile.
    b.send(Buffer.concat([
      serialize.parse({ text: "SELECT $1::text || '-' || $2::text AS b", types: [] }),
      serialize.bind({ values: ['x', 'y'] }),
      serialize.execute({}),
      serialize.sync(),
    ]));
    await waitUntil(() => db.waiting() > 0, "B's exchange held back by A's");
    a.send(Buffer.concat([serialize.execute({}), serialize.sync()]));
    const fromA = await a.until('readyForQuery');
    const fromB = await b.until('readyForQuery');
    const rows = (msgs: any[]) => msgs.filter((m) => m.name === 'dataRow').map((m) => m.fields[0]);
    const errors = (msgs: any[]) => msgs.filter((m) => m.name === 'error').map((m) => m.message);
    assert.deepEqual([errors(fromA), rows(fromA)], [[], ['101']]);
    assert.deepEqual([errors(fromB), rows(fromB)], [[], ['x-y']]);
    a.close();
    b.close();
  });
});

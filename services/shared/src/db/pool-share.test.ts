import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DataSource, QueryRunner } from 'typeorm';
import { DomainError } from '../errors.js';
import { createScratchPostgresDatabase, skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { openServiceDataSource } from './data-source.js';
import { asPoolCaller, outsidePoolCaller, poolShareOf } from './pool-share.js';

/**
 * Each account's share of a service's pool (pool-share.ts), on the PostgreSQL server: with a pool of 4,
 * an account holds at most 2 connections; its third waits for one of its own, or is refused with
 * UNAVAILABLE and Retry-After, while another account still gets a connection at once.
 */
const postgres = testDatabases.find((d) => d.name === 'postgresql')!;
describe('a caller holds at most its share of the database pool', { skip: await skipReason(postgres) }, () => {
  let scratch: { url: string; stop(): Promise<void> };
  let ds: DataSource;
  before(async () => {
    scratch = await createScratchPostgresDatabase();
    ds = await openServiceDataSource({ url: scratch.url, schema: 'pool_share_test', entities: [], migrations: [], poolSize: 4 });
  });
  after(async () => {
    await ds?.destroy();
    await scratch?.stop();
  });

  /** A connection taken from the pool as `account`, held until released. */
  const hold = (account: string) =>
    asPoolCaller(account, async (): Promise<QueryRunner> => {
      const runner = ds.createQueryRunner();
      await runner.connect();
      await runner.query('SELECT 1');
      return runner;
    });

  test('half the pool per account: the third waits for its own, then is refused; another account is not held up', async () => {
    assert.deepEqual(poolShareOf(4), { limit: 2, maxQueue: 64, maxWaitMs: 1_000 });
    const held = [await hold('acc-greedy'), await hold('acc-greedy')];
    try {
      // The greedy account's third connection is refused after its brief wait, with a hint when to retry…
      await assert.rejects(hold('acc-greedy'), (err: unknown) => {
        assert.ok(err instanceof DomainError);
        assert.equal(err.code, 'UNAVAILABLE');
        assert.equal(err.retryAfterSeconds, 1);
        assert.equal(err.message, 'This account has too many requests waiting for the database, so it is temporarily unavailable; please retry.');
        return true;
      });
      // …while another account gets one at once, and internal work (no caller) is not counted.
      const other = await hold('acc-other');
      await other.release();
      assert.deepEqual(await ds.query('SELECT 1 AS one'), [{ one: 1 }]);
      // Work the account's call set going outside its share (a recompute job) is not counted either.
      assert.deepEqual(await asPoolCaller('acc-greedy', () => outsidePoolCaller(() => ds.query('SELECT 1 AS one'))), [{ one: 1 }]);
      // A waiting connection gets the place one of its account's gives back.
      const waiting = hold('acc-greedy');
      await held.shift()!.release();
      held.push(await waiting);
    } finally {
      await Promise.all(held.map((r) => r.release()));
    }
    // Everything given back: the account holds its full share again.
    const again = [await hold('acc-greedy'), await hold('acc-greedy')];
    await Promise.all(again.map((r) => r.release()));
  });
});

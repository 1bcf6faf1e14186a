import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource } from 'typeorm';
import { KeyedBulkheads, type BulkheadSettings } from '../bulkhead.js';

/**
 * Each caller's bounded share of a service's database pool. The gRPC server (grpc/server.ts) runs every
 * handler as its caller (the account the gateway signed); every connection the handler takes from the
 * pool then counts against that account's share. Beyond it, the connection waits briefly for one of the
 * account's own to come back, then the call is refused with 503 UNAVAILABLE and Retry-After, so that one
 * account's flood waits on itself instead of emptying the pool for everyone (where pg-pool's own
 * connection timeout would fail every caller alike).
 */
const callers = new AsyncLocalStorage<string>();

/** Runs `fn` (and every query it starts) as `accountId`'s; without one (internal work) nothing is counted. */
export function asPoolCaller<T>(accountId: string | undefined, fn: () => T): T {
  return accountId === undefined ? fn() : callers.run(accountId, fn);
}

/**
 * Runs `fn` (and every query it starts) as nobody's, even inside a call: work a call only set going, which
 * outlives it and is bounded by its own design (a replica's recompute runner), so it neither counts against
 * nor waits on the caller's share.
 */
export function outsidePoolCaller<T>(fn: () => T): T {
  return callers.exit(fn);
}

/**
 * Half the pool per account, so at least half always remains for the others; at least one connection.
 * Waiters hold nothing, and one gateway sends an account's calls at most BACKEND_CALLS_PER_CALLER at a
 * time: the queue is generous (a load test of one key on PGlite's pool of 4 must wait, not be refused);
 * the 1 s wait is what bounds a flood.
 */
export function poolShareOf(poolSize: number): BulkheadSettings {
  const limit = Math.max(1, Math.floor(poolSize / 2));
  return { limit, maxQueue: Math.max(64, 8 * limit), maxWaitMs: 1_000 };
}

type Release = (err?: unknown) => void;
interface ObtainsConnections {
  obtainMasterConnection(): Promise<[unknown, Release]>;
}

/**
 * Makes every connection taken from `ds`'s pool on behalf of a caller count against that caller's share.
 * TypeORM's PostgreSQL driver takes every connection through obtainMasterConnection (queries, query
 * runners, transactions), and gives it back through the release it answered.
 */
export function sharePoolPerCaller(ds: DataSource, share: BulkheadSettings): void {
  const driver = ds.driver as unknown as ObtainsConnections;
  const obtain = driver.obtainMasterConnection.bind(driver);
  const shares = new KeyedBulkheads(
    share,
    // Says what the caller can act on (its own requests, retry) and nothing of the service's insides.
    'This account has too many requests waiting for the database, so it is temporarily unavailable; please retry.',
    'db_pool_share',
  );
  driver.obtainMasterConnection = async () => {
    const caller = callers.getStore();
    if (caller === undefined) return obtain();
    const free = await shares.acquire(caller);
    try {
      const [connection, release] = await obtain();
      return [
        connection,
        (err?: unknown) => {
          free();
          return release(err);
        },
      ];
    } catch (err) {
      free();
      throw err;
    }
  };
}

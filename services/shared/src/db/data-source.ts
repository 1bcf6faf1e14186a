import { DataSource, type EntitySchema, type MigrationInterface } from 'typeorm';
import type { Logger } from '../logger.js';
import { statementCounter } from './statement-counter.js';
import { poolShareOf, sharePoolPerCaller } from './pool-share.js';

export interface ServiceDataSourceOptions {
  /** postgres:// URL (a PostgreSQL server, or the embedded PGlite socket). */
  url: string;
  /** The PostgreSQL schema this service owns; no service reads another's tables. */
  schema: string;
  entities: EntitySchema[];
  migrations: (new () => MigrationInterface)[];
  poolSize?: number;
  log?: Logger;
}

/**
 * A TypeORM data source for one service's schema. Migrations (never `synchronize`) create and evolve
 * the tables; each runs in its own transaction so a failed migration leaves nothing half-applied.
 *
 * Nothing may rely on session state such as `search_path`: behind pglite-socket every connection shares
 * PGlite's single session. Entities carry the schema, and migrations name it in their SQL. For the same
 * reason, code inside a transaction must use only that transaction's manager: a query on another
 * connection waits for the transaction to end, which waits for the query (a deadlock on PGlite).
 */
export async function openServiceDataSource(opts: ServiceDataSourceOptions): Promise<DataSource> {
  if (!/^[a-z_][a-z0-9_]*$/.test(opts.schema)) throw new Error(`Invalid schema name ${opts.schema}`);
  const poolSize = Math.max(opts.poolSize ?? 10, 2);
  const ds = new DataSource({
    type: 'postgres',
    url: opts.url,
    schema: opts.schema,
    entities: opts.entities,
    migrations: opts.migrations,
    migrationsTableName: 'typeorm_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    logger: statementCounter(opts.schema),
    extra: {
      // At least two: migrations run beside the connection holding the migration lock.
      max: poolSize,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
    },
  });
  await ds.initialize();
  // Replicas starting together on a fresh database take turns: one migrates, the others then find
  // nothing to do. The advisory lock is held on its own connection for the duration.
  const lock = ds.createQueryRunner();
  let applied: { name: string }[];
  try {
    await lock.query('SELECT pg_advisory_lock(hashtext($1))', [`green-impact/migrations/${opts.schema}`]);
    await ds.query(`CREATE SCHEMA IF NOT EXISTS "${opts.schema}"`);
    applied = await ds.runMigrations({ transaction: 'each' });
    await lock.query('SELECT pg_advisory_unlock(hashtext($1))', [`green-impact/migrations/${opts.schema}`]);
  } catch (err) {
    await ds.destroy().catch(() => undefined);
    throw err;
  } finally {
    await lock.release().catch(() => undefined);
  }
  sharePoolPerCaller(ds, poolShareOf(poolSize));
  if (applied.length > 0) {
    opts.log?.info({ schema: opts.schema, migrations: applied.map((m) => m.name) }, 'migrations applied');
  }
  return ds;
}

import { DataSource, type EntitySchema, type MigrationInterface } from 'typeorm';
import type { Logger } from '../logger.js';

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
    extra: {
      max: opts.poolSize ?? 10,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
    },
  });
  await ds.initialize();
  await ds.query(`CREATE SCHEMA IF NOT EXISTS "${opts.schema}"`);
  const applied = await ds.runMigrations({ transaction: 'each' });
  if (applied.length > 0) {
    opts.log?.info({ schema: opts.schema, migrations: applied.map((m) => m.name) }, 'migrations applied');
  }
  return ds;
}

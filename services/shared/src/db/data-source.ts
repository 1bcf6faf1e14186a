import { DataSource, type EntitySchema, type MigrationInterface } from 'typeorm';
import type { Logger } from '../logger.js';
import { statementCounter } from './statement-counter.js';
import { poolShareOf, sharePoolPerCaller } from './pool-share.js';
import { reportPool } from './pool-metrics.js';

export interface ServiceDataSourceOptions {
  /** postgres:// URL (a PostgreSQL server, or the embedded PGlite socket). */
  url: string;
  /** The PostgreSQL schema this service owns; no service reads another's tables. */
  schema: string;
  entities: EntitySchema[];
  migrations: (new () => MigrationInterface)[];
  poolSize?: number;
  log?: Logger;
  /**
   * `apply` (default; npm start, start:distributed): run pending migrations at start. `check` (MIGRATIONS=check,
   * the Kubernetes base): only the migrations Job migrates; the service compares the schema's applied
   * migrations with its own and refuses to start on an older or a newer schema (SchemaVersionError).
   * `allow-newer`: as check, but serves a newer schema (a rollback).
   */
  migrate?: MigrationMode;
}

/** `allow-newer`: as `check`, but a newer schema is served (a rollback onto backward-compatible migrations). */
export type MigrationMode = 'apply' | 'check' | 'allow-newer';

/** The schema is not the one this build was made for: thrown at start under MIGRATIONS=check, with what to do. */
export class SchemaVersionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SchemaVersionError';
  }
}

/**
 * What is wrong with a schema whose applied migrations are `applied` for a build that knows `known` (both
 * in order), or undefined when they are the same: older (some pending), newer (some unknown), or both.
 */
export function schemaVersionProblem(schema: string, applied: string[], known: string[], allowNewer = false): string | undefined {
  const pending = known.filter((n) => !applied.includes(n));
  const unknown = applied.filter((n) => !known.includes(n));
  if (unknown.length > 0 && !allowNewer) {
    return (
      `The ${schema} schema is newer than this version: it has migration(s) ${unknown.join(', ')} that this version does not know ` +
      '(a later release migrated it). Deploy that release; to roll back onto it (its migrations are backward-compatible), set MIGRATIONS=allow-newer.'
    );
  }
  if (pending.length > 0) {
    return (
      `The ${schema} schema is older than this version: migration(s) ${pending.join(', ')} not applied. Run the ${schema}-migrate Job ` +
      `(node services/${schema}/dist/migrate.js) first; with MIGRATIONS=check this service does not migrate.`
    );
  }
  return undefined;
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
  if (opts.migrate === 'check' || opts.migrate === 'allow-newer') {
    try {
      await checkSchemaVersion(ds, opts);
    } catch (err) {
      await ds.destroy().catch(() => undefined);
      throw err;
    }
    sharePoolPerCaller(ds, poolShareOf(poolSize));
    reportPool(opts.schema, ds, poolSize);
    return ds;
  }
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
  reportPool(opts.schema, ds, poolSize);
  if (applied.length > 0) {
    opts.log?.info({ schema: opts.schema, migrations: applied.map((m) => m.name) }, 'migrations applied');
  }
  return ds;
}

/** MIGRATIONS=check: the schema's applied migrations must be exactly this build's. */
async function checkSchemaVersion(ds: DataSource, opts: ServiceDataSourceOptions): Promise<void> {
  const [table] = (await ds.query(`SELECT to_regclass($1) AS name`, [`"${opts.schema}".typeorm_migrations`])) as { name: string | null }[];
  const applied = table?.name
    ? ((await ds.query(`SELECT name FROM "${opts.schema}".typeorm_migrations ORDER BY id`)) as { name: string }[]).map((r) => r.name)
    : [];
  const known = ds.migrations.map((m) => m.name ?? m.constructor.name);
  const problem = schemaVersionProblem(opts.schema, applied, known, opts.migrate === 'allow-newer');
  if (problem) throw new SchemaVersionError(problem);
  opts.log?.info({ schema: opts.schema, migrations: applied.length }, 'schema version checked');
}

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startEmbeddedPostgres } from '@green-impact/shared/db/embedded-postgres';
import { skipUnless } from './skip-rule.js';

/**
 * The two databases every persistence test runs on: PGlite (the embedded default) and the PostgreSQL
 * server (TEST_DATABASE_URL, default the machine's server). Each start() gives a fresh, empty database.
 * Without a reachable PostgreSQL the PostgreSQL variant is skipped with a reason, except in CI, where it
 * fails: CI provides every part.
 */
export interface TestDatabase {
  name: 'pglite' | 'postgresql';
  start(): Promise<{ url: string; stop(): Promise<void> }>;
}

export const TEST_POSTGRES_URL = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export async function postgresAvailable(url = TEST_POSTGRES_URL): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (err) {
    return `PostgreSQL at ${url.replace(/\/\/[^@]*@/, '//')} is unreachable: ${(err as Error).message}`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function createScratchPostgresDatabase(serverUrl = TEST_POSTGRES_URL): Promise<{ url: string; stop(): Promise<void> }> {
  const name = `gi_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async stop() {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export const testDatabases: TestDatabase[] = [
  { name: 'pglite', start: () => startEmbeddedPostgres({}) },
  { name: 'postgresql', start: () => createScratchPostgresDatabase() },
];

/** For node:test's `skip` option: a reason to skip the PostgreSQL variant, or false. Throws in CI. */
export async function skipReason(db: TestDatabase): Promise<string | false> {
  if (db.name !== 'postgresql') return false;
  const reason = await postgresAvailable();
  return skipUnless(!reason, reason ?? '');
}

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { createScratchPostgresDatabase, skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { openServiceDataSource, SchemaVersionError } from '@green-impact/shared/db/data-source';
import { metricsRegistry } from '@green-impact/shared/metrics';
import { taxonomySchema } from '@green-impact/taxonomy/service';
import { topologyEnv, topologyPorts } from './support/distributed.js';

const run = promisify(execFile);
const topology = (await import(pathToFileURL(join(fileURLToPath(new URL('../../', import.meta.url)), 'scripts/topology.mjs')).href)) as {
  topologyProcesses(env: NodeJS.ProcessEnv): { name: string; env(listening: object): Record<string, string> }[];
};
const root = fileURLToPath(new URL('../../', import.meta.url));
const postgres = testDatabases.find((d) => d.name === 'postgresql')!;
const services = ['identity', 'taxonomy', 'portfolio', 'chain'];

describe('migration entry points (the Kubernetes migrations Job)', { skip: await skipReason(postgres) }, () => {
  it('migrate each schema once, and a second run changes nothing', async () => {
    const db = await createScratchPostgresDatabase();
    try {
      for (const svc of services) {
        await run(process.execPath, [join(root, `services/${svc}/dist/migrate.js`)], { env: { ...process.env, DATABASE_URL: db.url } });
      }
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      const count = async () => {
        const counts: Record<string, number> = {};
        for (const svc of services) {
          counts[svc] = (await client.query(`SELECT count(*)::int AS n FROM "${svc}".typeorm_migrations`)).rows[0].n;
        }
        return counts;
      };
      const first = await count();
      for (const svc of services) assert.ok(first[svc]! >= 1, `${svc} has migrations applied`);
      for (const svc of services) {
        await run(process.execPath, [join(root, `services/${svc}/dist/migrate.js`)], { env: { ...process.env, DATABASE_URL: db.url } });
      }
      assert.deepEqual(await count(), first);
      await client.end();
    } finally {
      await db.stop();
    }
  });

  it('refuses to run without DATABASE_URL, naming it', async () => {
    const env = { ...process.env };
    delete env['DATABASE_URL'];
    await assert.rejects(run(process.execPath, [join(root, 'services/identity/dist/migrate.js')], { env }), (err: { code?: number; stderr?: string }) => {
      assert.equal(err.code, 78);
      assert.match(err.stderr ?? '', /DATABASE_URL is required/);
      return true;
    });
  });
});

/**
 * MIGRATIONS=check (the Kubernetes base): only the migrations Job migrates. A service compares the schema's
 * applied migrations with its own at start and refuses an older schema (naming the pending migrations and
 * the Job) or a newer one (naming the migrations it does not know), on both databases.
 */
for (const db of testDatabases) {
  describe(`MIGRATIONS=check on ${db.name}`, { skip: await skipReason(db) }, () => {
    it('refuses an unmigrated and a newer schema, serves exactly its own version', async () => {
      const started = await db.start();
      try {
        const open = (migrate: 'apply' | 'check' | 'allow-newer') => openServiceDataSource({ url: started.url, ...taxonomySchema, poolSize: 2, migrate });
        const names = taxonomySchema.migrations.map((m) => m.name);
        await assert.rejects(open('check'), (err: Error) => {
          assert.ok(err instanceof SchemaVersionError);
          assert.equal(err.message, `The taxonomy schema is older than this version: migration(s) ${names.join(', ')} not applied. Run the taxonomy-migrate Job (node services/taxonomy/dist/migrate.js) first; with MIGRATIONS=check this service does not migrate.`);
          return true;
        });
        const before = await (await open('apply')).destroy();
        assert.equal(before, undefined);
        const checked = await open('check');
        // Its pool is reported at each scrape (db_pool_connections: the saturation alert's series).
        const pool = (await metricsRegistry.getSingleMetric('db_pool_connections')!.get()).values.filter((v) => v.labels['schema'] === 'taxonomy');
        assert.deepEqual(pool.map((v) => v.labels['state']).sort(), ['idle', 'in_use', 'max', 'waiting']);
        assert.equal(pool.find((v) => v.labels['state'] === 'max')!.value, 2);
        assert.deepEqual((await checked.query('SELECT name FROM taxonomy.typeorm_migrations ORDER BY id')).map((r: { name: string }) => r.name), names);
        // A later release's migration, applied by its Job: this version refuses to serve the schema.
        await checked.query('INSERT INTO taxonomy.typeorm_migrations ("timestamp", name) VALUES ($1, $2)', [9_999_999_999_999, 'FromTheFuture9999999999999']);
        await checked.destroy();
        await assert.rejects(open('check'), /^SchemaVersionError: The taxonomy schema is newer than this version: it has migration\(s\) FromTheFuture9999999999999 that this version does not know.*set MIGRATIONS=allow-newer\.$/);
        // A rollback onto it, said so explicitly: served; an older schema is still refused.
        await (await open('allow-newer')).destroy();
      } finally {
        await started.stop();
      }
    });
  });
}

describe('a service process under MIGRATIONS=check', { skip: await skipReason(postgres) }, () => {
  it('exits 75 on an unmigrated database, saying which Job to run; after the Job its check passes', async () => {
    const db = await createScratchPostgresDatabase();
    try {
      const parent = topologyEnv(await topologyPorts(), { DATABASE_URL: db.url, MIGRATIONS: 'check', NODE_ENV: 'test' });
      // The taxonomy process as start-distributed.mjs starts it (its caller keys, its ports).
      const taxonomy = topology.topologyProcesses(parent).find((p) => p.name === 'taxonomy')!;
      const env = { ...parent, ...taxonomy.env({}) };
      await assert.rejects(run(process.execPath, [join(root, 'services/taxonomy/dist/index.js')], { env }), (err: { code?: number; stderr?: string }) => {
        assert.equal(err.code, 75);
        assert.match(err.stderr ?? '', /^taxonomy: The taxonomy schema is older than this version: .* Run the taxonomy-migrate Job/m);
        return true;
      });
      await run(process.execPath, [join(root, 'services/taxonomy/dist/migrate.js')], { env });
      // Now it serves: checked, not migrated (the schema holds exactly the Job's migrations).
      const ds = await openServiceDataSource({ url: db.url, ...taxonomySchema, poolSize: 2, migrate: 'check' });
      await ds.destroy();
    } finally {
      await db.stop();
    }
  });
});

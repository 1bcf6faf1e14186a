import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DataSource } from 'typeorm';
import { openServiceDataSource } from '@green-impact/shared/db/data-source';
import type { ServiceSchema } from '@green-impact/shared/migrate-main';
import { chainSchema } from '@green-impact/chain/service';
import { identitySchema } from '@green-impact/identity/service';
import { portfolioSchema } from '@green-impact/portfolio/service';
import { taxonomySchema } from '@green-impact/taxonomy/service';
import { skipReason, testDatabases } from '@green-impact/testing/shared/databases';

/**
 * Every service's migrations both ways, on both databases: applied one at a time, each on the tables (and
 * the rows the seed migrations put there) the one before it left; every down() run, newest first, each
 * leaving exactly the schema its up() found (columns, types, defaults, nullability, indexes, constraints);
 * up again to the newest; and the newest version is the one a service opening the database (the same
 * openServiceDataSource it runs at start) finds with nothing left to apply.
 */
const services: Record<string, ServiceSchema> = { identity: identitySchema, taxonomy: taxonomySchema, portfolio: portfolioSchema, chain: chainSchema };
const skips = await Promise.all(testDatabases.map((db) => skipReason(db)));

/** What a schema holds, as text that two equal schemas share: tables' columns, indexes, constraints. */
async function shapeOf(ds: DataSource, schema: string): Promise<string[]> {
  const columns: { t: string; c: string; type: string; nullable: string; dflt: string | null }[] = await ds.query(
    `SELECT table_name AS t, column_name AS c, data_type || coalesce('(' || character_maximum_length || ')', '') AS type,
       is_nullable AS nullable, column_default AS dflt
     FROM information_schema.columns WHERE table_schema = $1 AND table_name <> 'typeorm_migrations'`,
    [schema],
  );
  const indexes: { t: string; def: string }[] = await ds.query(
    `SELECT tablename AS t, indexdef AS def FROM pg_indexes WHERE schemaname = $1 AND tablename <> 'typeorm_migrations'`,
    [schema],
  );
  const constraints: { t: string; name: string; def: string }[] = await ds.query(
    `SELECT cl.relname AS t, co.conname AS name, pg_get_constraintdef(co.oid) AS def
     FROM pg_constraint co JOIN pg_class cl ON cl.oid = co.conrelid JOIN pg_namespace n ON n.oid = cl.relnamespace
     WHERE n.nspname = $1 AND cl.relname <> 'typeorm_migrations'`,
    [schema],
  );
  return [
    ...columns.map((r) => `column ${r.t}.${r.c} ${r.type} null=${r.nullable} default=${r.dflt}`),
    ...indexes.map((r) => `index ${r.t}: ${r.def}`),
    ...constraints.map((r) => `constraint ${r.t}.${r.name}: ${r.def}`),
  ].sort();
}

/** Rows per table of the schema (what the migrations must carry across). */
async function rowsOf(ds: DataSource, schema: string): Promise<Record<string, number>> {
  const tables: { t: string }[] = await ds.query(
    `SELECT table_name AS t FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' AND table_name <> 'typeorm_migrations' ORDER BY 1`,
    [schema],
  );
  const counts: Record<string, number> = {};
  for (const { t } of tables) counts[t] = Number((await ds.query(`SELECT count(*)::int AS n FROM "${schema}"."${t}"`))[0].n);
  return counts;
}

for (const [i, db] of testDatabases.entries()) {
  describe(`migrations both ways on ${db.name}`, { skip: skips[i]!, timeout: 300_000 }, () => {
    for (const [name, definition] of Object.entries(services)) {
      it(`${name}: each up() on what the one before left, each down() back to exactly that, up again, and the newest is what the service finds`, async () => {
        const database = await db.start();
        const { schema, migrations } = definition;
        // A data source per step: migrations 0..k, as a database deployed at that version knows them.
        const at = async (k: number) => {
          const ds = new DataSource({ type: 'postgres', url: database.url, schema, migrations: migrations.slice(0, k), migrationsTableName: 'typeorm_migrations', extra: { max: 2 } });
          await ds.initialize();
          return ds;
        };
        try {
          const shapes: string[][] = [];
          const rows: Record<string, number>[] = [];
          {
            const ds = await at(0);
            await ds.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
            shapes.push(await shapeOf(ds, schema));
            rows.push(await rowsOf(ds, schema));
            await ds.destroy();
          }
          for (let k = 1; k <= migrations.length; k++) {
            const ds = await at(k);
            try {
              const applied = await ds.runMigrations({ transaction: 'each' });
              assert.deepEqual(applied.map((m) => m.name), [new migrations[k - 1]!().name ?? migrations[k - 1]!.name], `step ${k}`);
              shapes.push(await shapeOf(ds, schema));
              rows.push(await rowsOf(ds, schema));
              // The rows the versions before held are still there (a migration may add rows, never lose them).
              for (const [table, n] of Object.entries(rows[k - 1]!)) {
                if (table in rows[k]!) assert.ok(rows[k]![table]! >= n, `${table} lost rows at step ${k}: ${n} -> ${rows[k]![table]}`);
              }
            } finally {
              await ds.destroy();
            }
          }
          assert.notDeepEqual(shapes.at(-1), shapes[0], 'the migrations made tables');
          {
            // What a service finds at start: the newest version, nothing to apply.
            const ds = await openServiceDataSource({ url: database.url, ...definition, poolSize: 2 });
            try {
              assert.equal(await ds.showMigrations(), false, 'nothing pending for the service');
              const [last] = await ds.query(`SELECT name FROM "${schema}".typeorm_migrations ORDER BY id DESC LIMIT 1`);
              assert.equal(last.name, migrations.at(-1)!.name);
            } finally {
              await ds.destroy();
            }
          }
          for (let k = migrations.length; k >= 1; k--) {
            const ds = await at(k);
            try {
              await ds.undoLastMigration({ transaction: 'each' });
              assert.deepEqual(await shapeOf(ds, schema), shapes[k - 1], `down() of ${migrations[k - 1]!.name} leaves what its up() found`);
              const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM "${schema}".typeorm_migrations`);
              assert.equal(n, k - 1);
            } finally {
              await ds.destroy();
            }
          }
          {
            const ds = await at(migrations.length);
            try {
              await ds.runMigrations({ transaction: 'each' });
              assert.deepEqual(await shapeOf(ds, schema), shapes.at(-1), 'up again to the same newest schema');
            } finally {
              await ds.destroy();
            }
          }
        } finally {
          await database.stop();
        }
      });
    }
  });
}

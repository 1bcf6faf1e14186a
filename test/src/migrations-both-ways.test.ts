import { describe, it } from 'node:test';
import { randomUUID } from 'node:crypto';
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

/** A value of a column's type for a row made up here; `check` is a CHECK on the column (a list's first value is taken). */
function valueFor(column: string, type: string, length: number | null, check: string | undefined): unknown {
  // A list of allowed values (status IN (…)): its first.
  const literal = check && /ANY \(\(?ARRAY\[/.test(check) ? check.match(/'([^']*)'/)?.[1] : undefined;
  if (literal !== undefined) return literal;
  if (/int|numeric|double|real/.test(type)) return column.includes('year') ? 2024 : 9_001; // far from the ids seeds give (1, 2, …)
  if (type === 'uuid') return randomUUID();
  if (type === 'boolean') return false;
  if (type === 'json' || type === 'jsonb') return '{}';
  if (type === 'bytea') return Buffer.from('migrated');
  if (type.startsWith('timestamp')) return new Date('2024-06-30T12:00:00Z');
  if (type === 'date') return '2024-06-30';
  if (type === 'ARRAY') return '{}';
  return 'QQQ-migrated'.slice(0, length ?? 12); // QQQ: no ISO 4217 code, so in no seed
}

/**
 * Gives every empty table of the schema a row made up from its columns' types, so the next migration runs
 * on a database that holds data: NOT NULL columns without a default get a value of their type (a CHECK's
 * first literal, a foreign key's first referenced value), passes repeated so parents fill before children.
 * A table whose rules a made-up row cannot meet stays empty; answers the tables that hold rows.
 */
async function fill(ds: DataSource, schema: string): Promise<string[]> {
  const columns: { t: string; c: string; type: string; length: number | null }[] = await ds.query(
    `SELECT table_name AS t, column_name AS c, data_type AS type, character_maximum_length AS length
     FROM information_schema.columns WHERE table_schema = $1 AND table_name <> 'typeorm_migrations'
       AND is_nullable = 'NO' AND column_default IS NULL AND is_generated = 'NEVER' AND identity_generation IS NULL
     ORDER BY table_name, ordinal_position`,
    [schema],
  );
  const rules: { t: string; c: string; kind: string; def: string; ft: string | null; fc: string | null }[] = await ds.query(
    `SELECT cl.relname AS t, a.attname AS c, co.contype AS kind, pg_get_constraintdef(co.oid) AS def, fcl.relname AS ft, fa.attname AS fc
     FROM pg_constraint co JOIN pg_class cl ON cl.oid = co.conrelid JOIN pg_namespace n ON n.oid = cl.relnamespace
     JOIN pg_attribute a ON a.attrelid = co.conrelid AND a.attnum = co.conkey[1]
     LEFT JOIN pg_class fcl ON fcl.oid = co.confrelid LEFT JOIN pg_attribute fa ON fa.attrelid = co.confrelid AND fa.attnum = co.confkey[1]
     WHERE n.nspname = $1 AND co.contype IN ('c', 'f') AND cardinality(co.conkey) = 1`,
    [schema],
  );
  for (let pass = 0; pass < 4; pass++) {
    for (const [table, n] of Object.entries(await rowsOf(ds, schema))) {
      if (n > 0) continue;
      const cols = columns.filter((c) => c.t === table);
      const values: unknown[] = [];
      for (const col of cols) {
        const fk = rules.find((r) => r.t === table && r.c === col.c && r.kind === 'f');
        if (fk) {
          const [ref] = await ds.query(`SELECT "${fk.fc}" AS v FROM "${schema}"."${fk.ft}" LIMIT 1`);
          values.push(ref?.v ?? null);
        } else {
          values.push(valueFor(col.c, col.type, col.length, rules.find((r) => r.t === table && r.c === col.c && r.kind === 'c')?.def));
        }
      }
      const sql = cols.length === 0
        ? `INSERT INTO "${schema}"."${table}" DEFAULT VALUES`
        : `INSERT INTO "${schema}"."${table}" (${cols.map((c) => `"${c.c}"`).join(', ')}) VALUES (${cols.map((_, k) => `$${k + 1}`).join(', ')})`;
      await ds.query(sql, values).catch(() => undefined);
    }
  }
  return Object.entries(await rowsOf(ds, schema)).filter(([, n]) => n > 0).map(([t]) => t);
}

/**
 * Seed migrations whose down() removes reference rows (languages, currencies, goals) that the other tables'
 * rows refer to: on a database holding data it can only run once those rows are gone, so the test empties
 * the other tables first. Every other down() runs on the data as the versions before left it.
 */
const DOWN_ON_SEEDS_ONLY: Record<string, string> = {
  SeedReferenceData1763856000001: 'removes the languages, currencies, SDGs and EU objectives that every taxonomy row names',
};

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
          const filled: string[][] = [];
          const seeded: string[][] = [[]];
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
              // The rows the versions before held are still there (a migration may add rows, never lose them).
              const now = await rowsOf(ds, schema);
              for (const [table, n] of Object.entries(rows[k - 1]!)) {
                if (table in now) assert.ok(now[table]! >= n, `${table} lost rows at step ${k}: ${n} -> ${now[table]}`);
              }
              // The tables this migration itself put rows in (a seed's).
              seeded.push(Object.keys(now).filter((t) => now[t]! > (rows[k - 1]![t] ?? 0)));
              // The next migration (and every down()) runs on a database holding data of this version.
              filled.push(await fill(ds, schema));
              rows.push(await rowsOf(ds, schema));
            } finally {
              await ds.destroy();
            }
          }
          assert.notDeepEqual(shapes.at(-1), shapes[0], 'the migrations made tables');
          const tables = Object.keys(rows.at(-1)!);
          assert.ok(filled.at(-1)!.length * 2 >= tables.length, `most tables hold rows before the downs: ${filled.at(-1)!.join(', ')} of ${tables.join(', ')}`);
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
              const name = migrations[k - 1]!.name;
              if (name in DOWN_ON_SEEDS_ONLY) {
                // Rows of other tables refer to the seed's rows: emptied first, as an operator must (DOWN_ON_SEEDS_ONLY).
                const others = Object.keys(await rowsOf(ds, schema)).filter((t) => !seeded[k]!.includes(t));
                if (others.length > 0) await ds.query(`TRUNCATE ${others.map((t) => `"${schema}"."${t}"`).join(', ')} CASCADE`);
              }
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

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createScratchPostgresDatabase, skipReason, testDatabases } from '@green-impact/testing/shared/databases';

const run = promisify(execFile);
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

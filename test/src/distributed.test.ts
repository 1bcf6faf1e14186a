import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScratchPostgresDatabase, skipReason, testDatabases } from '@green-impact/testing/shared/databases';
import { v1Client } from './support/system.js';
import { startTopology, topologyEnv, topologyPorts, type Topology } from './support/distributed.js';

// Random, as a BOOTSTRAP_API_KEY read from the environment must be (weak ones are refused at start).
const OPERATOR = `gi_${randomBytes(32).toString('base64url')}`;

const postgres = testDatabases.find((d) => d.name === 'postgresql')!;

describe('npm run start:distributed (each service its own process, on PostgreSQL)', { skip: await skipReason(postgres) }, () => {
  let topology: Topology;
  let db: { url: string; stop(): Promise<void> };
  let contentDir: string;

  before(async () => {
    db = await createScratchPostgresDatabase();
    contentDir = mkdtempSync(join(tmpdir(), 'gi-dist-content-'));
    // Every port 0: each process binds a free one and the launcher passes the real ones on.
    topology = await startTopology(
      topologyEnv(await topologyPorts(), { DATABASE_URL: db.url, CONTENT_DIR: contentDir, BOOTSTRAP_API_KEY: OPERATOR, LOG_LEVEL: 'warn' }),
      30_000,
    );
  });

  after(async () => {
    await topology?.stop();
    await db?.stop();
    if (contentDir) rmSync(contentDir, { recursive: true, force: true });
  });

  it('serves /v1/call through the gateway process backed by the identity process', async () => {
    const call = v1Client(topology.url, OPERATOR);
    const groups = await call('SVC.ESG.Credits', 'getGroups');
    assert.equal(groups.status, 200);
    assert.equal(groups.body.length, 7);
    assert.equal((await call('SVC.ESG.Credits', 'addUser', { user_identifier: 'd1' })).status, 200);
    assert.deepEqual((await call('SVC.ESG.Credits', 'getUsers', {})).body.map((u: { user_identifier: string }) => u.user_identifier), ['d1']);
  });

  it('names the ports every process bound, each a port of its own', () => {
    const { gateway, identity, taxonomy, portfolio, chain, metrics } = topology.ports;
    const all = [gateway, identity, taxonomy, portfolio, chain, ...Object.values(metrics)];
    assert.ok(all.every((p) => p > 0), JSON.stringify(topology.ports));
    assert.equal(new Set(all).size, all.length);
    assert.match(topology.output(), /^topology listening \{.*"gateway":\{"http":\d+\}/m);
  });

  it('stops every process on SIGTERM', async () => {
    assert.equal(await topology.stop(), 0);
    const output = topology.output();
    for (const name of ['identity', 'gateway', 'taxonomy', 'portfolio', 'chain']) assert.match(output, new RegExp(`\\[${name}\\] exited \\(0\\)`));
  });
});

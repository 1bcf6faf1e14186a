import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createScratchPostgresDatabase, skipReason, testDatabases } from '@green-impact/shared/testing/databases';
import { v1Client } from './support/system.js';
import { everyBackendServing } from './support/http-probe.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const postgres = testDatabases.find((d) => d.name === 'postgresql')!;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

async function waitReady(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await everyBackendServing(url)) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} not ready within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('npm run start:distributed (each service its own process, on PostgreSQL)', { skip: await skipReason(postgres) }, () => {
  let child: ChildProcess;
  let output = '';
  let db: { url: string; stop(): Promise<void> };
  let url: string;
  let contentDir: string;

  before(async () => {
    db = await createScratchPostgresDatabase();
    contentDir = mkdtempSync(join(tmpdir(), 'gi-dist-content-'));
    const port = await freePort();
    const identityPort = await freePort();
    const taxonomyPort = await freePort();
    const portfolioPort = await freePort();
    const chainPort = await freePort();
    url = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, [join(root, 'scripts/start-distributed.mjs')], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: db.url,
        PORT: String(port),
        IDENTITY_GRPC_PORT: String(identityPort),
        TAXONOMY_GRPC_PORT: String(taxonomyPort),
        PORTFOLIO_GRPC_PORT: String(portfolioPort),
        CHAIN_GRPC_PORT: String(chainPort),
        CONTENT_DIR: contentDir,
        BOOTSTRAP_API_KEY: 'distributed-key',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (c) => (output += c));
    child.stderr!.on('data', (c) => (output += c));
    await waitReady(url, 30_000).catch((err: Error) => {
      throw new Error(`${err.message}\n${output}`);
    });
  });

  after(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    await db?.stop();
    if (contentDir) rmSync(contentDir, { recursive: true, force: true });
  });

  it('serves /v1/call through the gateway process backed by the identity process', async () => {
    const call = v1Client(url, 'distributed-key');
    const groups = await call('SVC.ESG.Credits', 'getGroups');
    assert.equal(groups.status, 200);
    assert.equal(groups.body.length, 7);
    assert.equal((await call('SVC.ESG.Credits', 'addUser', { user_identifier: 'd1' })).status, 200);
    assert.deepEqual((await call('SVC.ESG.Credits', 'getUsers', {})).body.map((u: { user_identifier: string }) => u.user_identifier), ['d1']);
  });

  it('stops every process on SIGTERM', async () => {
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    await exited;
    assert.match(output, /\[identity\] exited/);
    assert.match(output, /\[gateway\] exited/);
    assert.match(output, /\[taxonomy\] exited/);
    assert.match(output, /\[portfolio\] exited/);
    assert.match(output, /\[chain\] exited/);
  });
});

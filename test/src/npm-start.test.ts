import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const main = join(root, 'embedded/dist/main.js');
/** BOOTSTRAP_API_KEY: random, made once for this test (a weak one is refused at start). */
const KEY = 'gi_6wvUk5SuEpF5Z-sz8BQJUeR-AqII-gBu6B7rhG9XUuA';

interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
}

/** Starts the real `npm start` entry point as a child process and waits for its banner. */
async function start(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, [main], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'warn', PORT: '0', GRPC_BASE_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (out += c));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner within 60 s:\n${out}`)), 60_000);
    const check = () => {
      const m = /POST (http:\/\/[^\s]+)\/v1\/call/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before the banner:\n${out}`));
    });
  });
  return { child, url, output: () => out };
}

async function stop(s: Started): Promise<number | null> {
  if (s.child.exitCode !== null) return s.child.exitCode;
  const exited = new Promise<number | null>((resolve) => s.child.once('exit', (code) => resolve(code)));
  s.child.kill('SIGTERM');
  return exited;
}

async function call(url: string, key: string, body: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${url}/v1/call`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

describe('npm start (embedded default, as a real process)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gi-start-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('serves /v1/call with BOOTSTRAP_API_KEY, stops on SIGTERM and keeps its data across a restart', async () => {
    const first = await start({ DATA_DIR: dataDir, BOOTSTRAP_API_KEY: KEY });
    try {
      const groups = await call(first.url, KEY, { solution: 'SVC.ESG.Credits', operation: 'getGroups' });
      assert.equal(groups.status, 200);
      assert.equal(groups.json.length, 7);
      const added = await call(first.url, KEY, {
        solution: 'SVC.ESG.Credits',
        operation: 'addUser',
        parameters: { user_identifier: 'persisted-user' },
      });
      assert.equal(added.status, 200, JSON.stringify(added.json));
      const health = await fetch(`${first.url}/readyz`);
      assert.equal(health.status, 200);
    } finally {
      assert.equal(await stop(first), 0, first.output());
    }

    const second = await start({ DATA_DIR: dataDir, BOOTSTRAP_API_KEY: KEY });
    try {
      const users = await call(second.url, KEY, { solution: 'SVC.ESG.Credits', operation: 'getUsers', parameters: {} });
      assert.equal(users.status, 200);
      assert.deepEqual(users.json.map((u: { user_identifier: string }) => u.user_identifier), ['persisted-user']);
    } finally {
      assert.equal(await stop(second), 0, second.output());
    }
  });

  it('makes and keeps a first operator key when BOOTSTRAP_API_KEY is not set', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gi-start-'));
    try {
      const s = await start({ DATA_DIR: dir, BOOTSTRAP_API_KEY: '' });
      try {
        const keyFile = join(dir, 'operator-api-key');
        assert.equal(statSync(keyFile).mode & 0o777, 0o600);
        const key = readFileSync(keyFile, 'utf8').trim();
        assert.match(s.output(), /operator-api-key/);
        const groups = await call(s.url, key, { solution: 'SVC.ESG.Credits', operation: 'getGroups' });
        assert.equal(groups.status, 200);
      } finally {
        assert.equal(await stop(s), 0, s.output());
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const refusal = async (env: Record<string, string>): Promise<{ code: number | null; out: string }> => {
    const child = spawn(process.execPath, [main], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    // Should it start after all, stop it rather than hang the run (its exit code then fails the test).
    const guard = setTimeout(() => child.kill('SIGTERM'), 60_000);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    clearTimeout(guard);
    return { code, out };
  };

  it('refuses a bad configuration with a message naming the variable', async () => {
    const { code, out } = await refusal({ PORT: 'eighty' });
    assert.equal(code, 78);
    assert.match(out, /PORT must be an integer/);
  });

  it('refuses weak secrets at start: a short or made-up BOOTSTRAP_API_KEY, a placeholder DOCUMENT_LINK_SECRET', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gi-start-'));
    try {
      for (const [env, message] of [
        [{ BOOTSTRAP_API_KEY: 'k' }, /BOOTSTRAP_API_KEY is too weak: it has 1 characters/],
        [{ BOOTSTRAP_API_KEY: 'dev-operator-key-not-for-production' }, /BOOTSTRAP_API_KEY is too weak: it contains "operator"/],
        [{ BOOTSTRAP_API_KEY: KEY, DOCUMENT_LINK_SECRET: 'dev-only-document-link-secret-not-for-production' }, /DOCUMENT_LINK_SECRET is too weak/],
      ] as const) {
        const { code, out } = await refusal({ DATA_DIR: dir, PORT: '0', GRPC_BASE_PORT: '0', ...env });
        assert.equal(code, 78, out);
        assert.match(out, message);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

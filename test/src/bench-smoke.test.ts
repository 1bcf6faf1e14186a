import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { postgresAvailable } from '@green-impact/testing/shared/databases';

/**
 * `npm run bench` and `npm run load` keep working: each runs end to end with tiny settings (a broken
 * bench would go unnoticed until someone needs its figures; one did, when production started to require
 * a document-link secret). The figures themselves are not judged here: they are benchmarks, not tests.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function run(script: string, env: Record<string, string>, timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, script)], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (output += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (output += c));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not finish within ${timeoutMs} ms:\n${output.slice(-3000)}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('benchmarks run end to end', { timeout: 300_000, skip: (await postgresAvailable()) ?? false }, () => {
  it('npm run bench writes its report with every section', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bench-smoke-'));
    try {
      const { code, output } = await run(
        'bench/run.mjs',
        { BENCH_REPORT_DIR: dir, BENCH_SECONDS: '0.3', BENCH_CHAIN_N: '5', BENCH_RECOMPUTE_N: '5', BENCH_SCALE_N: '200', BENCH_CHAIN_REPLICA_N: '0', BENCH_CONCURRENCY: '4' },
        240_000,
      );
      assert.equal(code, 0, output.slice(-3000));
      const report = JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8')) as {
        overhead: Record<string, { read: string; v1: { errors: number; rps: number }; graphql: { errors: number }; grpc: { errors: number } }[]>;
        impacts: { scale?: { positions: number } };
        chain: Record<string, { completed?: number; succeeded?: number }>;
      };
      assert.deepEqual(Object.keys(report.overhead).sort(), ['pglite', 'postgresql', 'postgresql, gateway and services in processes of their own']);
      for (const rows of Object.values(report.overhead)) {
        for (const r of rows) {
          assert.deepEqual([r.v1.errors, r.graphql.errors, r.grpc.errors], [0, 0, 0], r.read);
          assert.ok(r.v1.rps > 0, r.read);
        }
      }
      assert.equal(report.impacts.scale?.positions, 200);
      assert.deepEqual([report.chain['pglite']?.completed, report.chain['postgresql']?.completed, report.chain['raw']?.succeeded], [5, 5, 5]);
      assert.match(readFileSync(path.join(dir, 'report.md'), 'utf8'), /## \(a\) Gateway overhead/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('npm run load answers every request of its mix', async () => {
    const { code, output } = await run('bench/load.mjs', { LOAD_DURATION: '2', LOAD_CONNECTIONS: '4', LOAD_DATABASE: 'postgresql' }, 120_000);
    assert.equal(code, 0, output.slice(-3000));
    assert.match(output, /errors {8}0 \(/);
  });
});

#!/usr/bin/env node
// Runs every compiled test file (dist/**/*.test.js) of every workspace with node's test runner.
// Node 20's --test takes no globs, so the files are listed here. Extra args filter by path substring:
//   npm test -- identity gateway
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const roots = ['services', 'gateway', 'embedded', 'testing', 'test'].map((d) => join(root, d));

function walk(dir, out) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    if (name === 'node_modules' || name === 'src') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith('.test.js') && p.includes(`${'/'}dist${'/'}`)) out.push(p);
  }
  return out;
}

const filters = process.argv.slice(2);
const files = roots
  .flatMap((r) => walk(r, []))
  .filter((f) => filters.length === 0 || filters.some((s) => relative(root, f).includes(s)))
  .sort();
if (files.length === 0) {
  console.error('No test files found (did the build run?).');
  process.exit(1);
}
console.log(`Running ${files.length} test files:\n${files.map((f) => '  ' + relative(root, f)).join('\n')}`);
const concurrency = process.env.TEST_CONCURRENCY ?? '2';
// A test file whose tests have all finished exits even if a leaked handle (a client's retry timer, say)
// would keep it alive: one leak must not hang CI until its deadline. TEST_FIND_LEAKS=1 turns this off, so
// such a file hangs where it can be inspected (node --inspect, then the open handles).
const forceExit = process.env.TEST_FIND_LEAKS === '1' ? [] : ['--test-force-exit'];
// The suite's skip rule (testing/src/shared/skip-rule.ts): a test skipped with a reason that did not come
// through it fails the run, so a file cannot go silent by deciding on its own to skip (under CI above all).
const skipDir = mkdtempSync(join(tmpdir(), 'skip-rule-'));
const skipLog = join(skipDir, 'skips.jsonl');
const reporters = ['--test-reporter=spec', '--test-reporter-destination=stdout', `--test-reporter=${join(root, 'scripts/skip-rule-reporter.mjs')}`, `--test-reporter-destination=${skipLog}`];
const child = spawn(process.execPath, ['--test', ...forceExit, `--test-concurrency=${concurrency}`, ...reporters, ...files], {
  stdio: 'inherit',
  env: { NODE_ENV: 'test', ...process.env },
});
child.on('exit', (code, signal) => {
  let outside = [];
  try {
    outside = readFileSync(skipLog, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
  } catch {}
  rmSync(skipDir, { recursive: true, force: true });
  for (const s of outside) console.error(`✖ ${relative(root, s.file ?? '?')}: "${s.name}" skipped outside the suite's skip rule (${s.reason}); skip through testing/src/shared/skip-rule.ts`);
  process.exit(outside.length > 0 ? 1 : (code ?? (signal ? 1 : 0)));
});

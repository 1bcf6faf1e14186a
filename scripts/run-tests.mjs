#!/usr/bin/env node
// Runs every compiled test file (dist/**/*.test.js) of every workspace with node's test runner.
// Node 20's --test takes no globs, so the files are listed here. Extra args filter by path substring:
//   npm test -- identity gateway
import { readdirSync, statSync } from 'node:fs';
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
const child = spawn(process.execPath, ['--test', ...forceExit, `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files], {
  stdio: 'inherit',
  env: { NODE_ENV: 'test', ...process.env },
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

#!/usr/bin/env node
// Generates TypeScript from proto/ with buf + ts-proto into proto/gen, touching only files whose content
// changed, so `tsc --build` stays incremental and `npm start`/`npm test` don't recompile everything.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, existsSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const protoDir = fileURLToPath(new URL('../proto/', import.meta.url));
const gen = join(protoDir, 'gen');
const tmp = mkdtempSync(join(tmpdir(), 'proto-gen-'));
const files = (dir) =>
  readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]));

try {
  const buf = join(protoDir, '..', 'node_modules', '.bin', 'buf');
  execFileSync(buf, ['generate', '--output', tmp], { cwd: protoDir, stdio: 'inherit' });
  const fresh = new Set();
  let changed = 0;
  for (const f of files(join(tmp, 'gen'))) {
    const rel = relative(join(tmp, 'gen'), f);
    fresh.add(rel);
    const target = join(gen, rel);
    const content = readFileSync(f);
    if (existsSync(target) && readFileSync(target).equals(content)) continue;
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
    changed++;
  }
  if (existsSync(gen)) for (const f of files(gen)) if (!fresh.has(relative(gen, f))) (unlinkSync(f), changed++);
  if (changed) console.log(`proto: ${changed} generated file(s) updated`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

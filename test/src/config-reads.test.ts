import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { productionSources } from './support/sources.js';
import { environmentReads, parseSource } from './support/source-graph.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The one module that reads the process's environment (processEnvironment()); every process's main hands its snapshot to its loader. */
const SANCTIONED = new Set(['services/shared/src/config.ts']);

/** What runs as (or in) a process of the system: every workspace's shipped sources, and the distributed starter's scripts. */
function processSources(): string[] {
  const services = readdirSync(join(root, 'services')).map((s) => join(root, 'services', s, 'src'));
  return [
    ...[join(root, 'gateway', 'src'), join(root, 'embedded', 'src'), ...services].flatMap((dir) => productionSources(dir)),
    ...['start-distributed.mjs', 'topology.mjs', 'caller-keys.mjs'].map((name) => join(root, 'scripts', name)),
  ];
}

/**
 * Configuration is read once per process, by one module (services/shared/src/config.ts: the snapshot each
 * main takes and hands to its loader), and reaches everything else as typed values: a `process.env` read
 * anywhere else is a setting nobody validates at start and docs/configuration.md may not name.
 */
describe('configuration is read from the environment in one module', () => {
  it('no production source but the config module reads process.env', () => {
    const files = processSources();
    assert.ok(files.length > 100, `found only ${files.length} production sources under ${root}`);
    const found = files
      .filter((f) => !SANCTIONED.has(relative(root, f)))
      .flatMap((f) => environmentReads(parseSource(f)).map((read) => `${relative(root, f)}:${read}`));
    assert.deepEqual(found, [], 'read the setting in the process\'s config loader and pass it on as a parameter');
  });

  it('the config module is where the reads are (the check looks at the right files)', () => {
    const reads = [...SANCTIONED].flatMap((f) => environmentReads(parseSource(join(root, f))));
    assert.ok(reads.length > 0, 'processEnvironment() reads process.env');
  });

  it('finds each way of reading the environment (the check itself)', () => {
    const source = (text: string) => ts.createSourceFile('sample.ts', text, ts.ScriptTarget.Latest, true);
    const cases: [string, number][] = [
      ["const level = process.env['LOG_LEVEL'];", 1],
      ['const level = process.env.LOG_LEVEL ?? "info";', 1],
      ['export function load(env = process.env) { return env; }', 1],
      ["const e = process['env'];", 1],
      ['const e = globalThis.process.env;', 1],
      ['const { env, argv } = process;', 1],
      ["import { env } from 'node:process';", 1],
      ["import proc from 'node:process'; const e = proc.env;", 1],
      ["import * as p from 'process'; const x = p.env['X'];", 1],
      ['const env = load(environment); const x = env.string("X"); process.exitCode = 1;', 0],
    ];
    for (const [text, reads] of cases) assert.equal(environmentReads(source(text)).length, reads, text);
  });
});

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { importSpecifiers } from './image-layout.js';
import { repoRoot } from './manifests.js';

/** infra/docker/assemble.mjs: the image's own rule for what a production dependency reaches (it prunes the rest). */
const assemble = (await import(pathToFileURL(join(repoRoot, 'infra/docker/assemble.mjs')).href)) as {
  unreachedPackages(image: string, workspaceDirs: string[]): string[];
};

/** The test support workspace: a devDependency of the workspaces whose tests use it, in no image. */
export const TESTING_PACKAGE = '@green-impact/testing';

/**
 * What a workspace's TypeScript projects emit, as repository-relative .js paths: `production` from its
 * tsconfig.json (what an image may hold), `test` from its tsconfig.test.json (its tests and test-only code,
 * emitted into the same dist/ so that a test imports its neighbours by relative path). Read from the tsconfig
 * files themselves with TypeScript's own parser, so a change of include/exclude is seen here.
 */
export interface WorkspaceOutputs {
  production: Set<string>;
  test: Set<string>;
}

function emitted(root: string, config: string): Set<string> {
  const out = new Set<string>();
  if (!existsSync(config)) return out;
  const host: ts.ParseConfigFileHost = {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(`${config}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    },
  };
  const parsed = ts.getParsedCommandLineOfConfigFile(config, {}, host);
  if (!parsed) throw new Error(`${config}: not a TypeScript project`);
  const { rootDir, outDir } = parsed.options;
  if (!rootDir || !outDir) throw new Error(`${config}: needs rootDir and outDir`);
  for (const f of parsed.fileNames) {
    if (f.endsWith('.d.ts')) continue;
    out.add(relative(root, join(outDir, relative(rootDir, f))).replace(/\.ts$/, '.js'));
  }
  return out;
}

/** Workspace folder → its projects' outputs, for every workspace of the root package.json under `root`. */
export function workspaceOutputs(root: string): Map<string, WorkspaceOutputs> {
  const workspaces = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces;
  return new Map(
    workspaces.map((dir) => [dir, { production: emitted(root, join(root, dir, 'tsconfig.json')), test: emitted(root, join(root, dir, 'tsconfig.test.json')) }]),
  );
}

/**
 * Workspace package name → folder, for resolving `@green-impact/<name>/<sub>` to a compiled file: those
 * present under `root` (an image holds only its service's closure, under the root manifest naming them all).
 */
function workspaceNames(root: string): Map<string, string> {
  const workspaces = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces;
  return new Map(
    workspaces
      .filter((dir) => existsSync(join(root, dir, 'package.json')))
      .map((dir) => [(JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as { name: string }).name, dir]),
  );
}

/** The compiled file a specifier names, repository-relative (workspace exports are `./*` → `./dist/*.js`). */
function resolveSpecifier(from: string, spec: string, names: Map<string, string>): string | undefined {
  if (spec.startsWith('.')) return normalize(join(dirname(from), spec));
  const m = /^(@green-impact\/[^/]+)\/(.+)$/.exec(spec);
  const dir = m ? names.get(m[1] as string) : undefined;
  return dir && m ? join(dir, 'dist', `${m[2]}.js`) : undefined;
}

/**
 * Everything in an image that is testing code, as readable problems (empty: none). `files` are the image's
 * own files, relative to `root` (the image's root, where the workspaces' manifests lie as in the repository;
 * node_modules aside); `projects` the outputs of the workspaces' projects as built from the same sources.
 * Testing code is: a file under a testing/ folder or the test support workspace, a *.test.* file, a compiled
 * file that is not an output of its workspace's production project (a test project's output above all), a
 * file importing the test support package or a test project's output, and a manifest depending on it.
 */
export function testingCodeIn(root: string, files: string[], projects: Map<string, WorkspaceOutputs>): string[] {
  const problems: string[] = [];
  const names = workspaceNames(root);
  const testOutputs = new Set([...projects.values()].flatMap((p) => [...p.test]));
  const testingDir = names.get(TESTING_PACKAGE);
  for (const file of files) {
    const parts = file.split('/');
    if (parts.includes('testing') || (testingDir !== undefined && file.startsWith(`${testingDir}/`))) problems.push(`${file}: test support (a testing/ folder)`);
    if (/\.test\.[^/]*$/.test(file)) problems.push(`${file}: a test`);
    const ws = [...projects.keys()].find((dir) => file.startsWith(`${dir}/dist/`));
    if (ws !== undefined && file.endsWith('.js')) {
      const { production, test } = projects.get(ws) as WorkspaceOutputs;
      if (test.has(file)) problems.push(`${file}: an output of the test project ${ws}/tsconfig.test.json`);
      else if (!production.has(file)) problems.push(`${file}: not an output of the production project ${ws}/tsconfig.json`);
    }
    if (file.endsWith('package.json')) {
      const pkg = JSON.parse(readFileSync(join(root, file), 'utf8')) as Record<string, Record<string, string> | undefined>;
      for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies']) {
        if (pkg[field]?.[TESTING_PACKAGE] !== undefined) problems.push(`${file}: ${TESTING_PACKAGE} in ${field}`);
      }
    }
    if (/\.(m?js)$/.test(file)) {
      for (const spec of importSpecifiers(readFileSync(join(root, file), 'utf8'))) {
        const target = resolveSpecifier(file, spec, names);
        if (spec === TESTING_PACKAGE || spec.startsWith(`${TESTING_PACKAGE}/`)) problems.push(`${file} imports ${spec} (test support)`);
        else if (target !== undefined && testOutputs.has(target)) problems.push(`${file} imports ${spec}, an output of a test project`);
      }
    }
  }
  return problems;
}

/**
 * Production modules that only tests use: compiled files of a production project that some compiled file
 * imports, and only files of test projects or of the test support workspace do. Such a module is test support
 * that ships; it belongs in testing/ (or in the test project). Entry points (imported by nothing) are not
 * counted, nor is a module that production code imports too.
 */
export function testOnlyModules(root: string, projects: Map<string, WorkspaceOutputs>): string[] {
  const names = workspaceNames(root);
  const testingDir = names.get(TESTING_PACKAGE);
  const production = new Set([...projects.entries()].filter(([dir]) => dir !== testingDir).flatMap(([, p]) => [...p.production]));
  const importers = new Map<string, { test: number; production: number }>();
  for (const [dir, p] of projects) {
    for (const [file, isTest] of [...[...p.production].map((f) => [f, dir === testingDir] as const), ...[...p.test].map((f) => [f, true] as const)]) {
      if (!existsSync(join(root, file))) continue;
      for (const spec of importSpecifiers(readFileSync(join(root, file), 'utf8'))) {
        const target = resolveSpecifier(file, spec, names);
        if (target === undefined || !production.has(target) || target === file) continue;
        const counts = importers.get(target) ?? { test: 0, production: 0 };
        if (isTest) counts.test++;
        else counts.production++;
        importers.set(target, counts);
      }
    }
  }
  return [...importers].filter(([, c]) => c.production === 0 && c.test > 0).map(([f]) => f).sort();
}

/**
 * The packages installed under an image's node_modules that no production dependency needs: each package
 * found (scoped or not, at any depth) must be reachable from the image's workspaces' `dependencies` through
 * the installed packages' own dependencies, optional and peer dependencies, resolved as Node resolves them
 * (the nearest node_modules upwards). A devDependency installed in the image shows up here.
 */
export function unneededPackages(image: string, workspaceDirs: string[]): string[] {
  return assemble.unreachedPackages(image, workspaceDirs).map((p) => relative(image, p)).sort();
}

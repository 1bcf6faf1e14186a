#!/usr/bin/env node
// Lays out what one service's image holds, in the repository's own layout (so the workspace links that npm
// writes into node_modules, ../../services/<name>, still resolve):
//   package.json                      the root manifest
//   <workspace>/package.json + dist/  for the service and every workspace it depends on (not dev)
//   proto/greenimpact/**/*.proto      read at run time by proto-loader and server reflection
//   services/chain/generated/         the compiled contracts
//   node_modules/                     the production dependencies, from --deps (npm ci --omit=dev --workspace)
//   healthcheck.mjs                   the image's HEALTHCHECK
// Only the output of each workspace's production project (its tsconfig.json) goes in: the test projects
// (tsconfig.test.json: the *.test.ts files, nothing else) emit into the same dist/ so that tests
// import their neighbours by relative path, and are left out here, as are type declarations and source maps.
// The test support workspace (testing/, @green-impact/testing) is a devDependency only, so no closure holds
// it; test/src/image-build.test.ts proves no testing code reaches an image. Run after `npm run build`:
//   node infra/docker/assemble.mjs --service identity --out /out/identity [--deps /deps/identity]
// With --list it prints the files it would copy instead (the manifest test uses that).
import { cpSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** `shared` is the PDF renderer's image (services/shared/dist/pdf/main.js). */
const SERVICES = ['identity', 'taxonomy', 'portfolio', 'chain', 'gateway', 'shared'];
/** Files a workspace reads at run time besides its compiled code. */
const RUNTIME_ASSETS = {
  '@green-impact/proto': [{ dir: 'greenimpact', keep: (f) => f.endsWith('.proto') }],
  '@green-impact/chain': [{ dir: 'generated', keep: (f) => f.endsWith('.json') }],
};
/** A compiled file (its path inside dist/) of the production project: not a test, not under a testing/ folder. */
export const keepCompiled = (f) => f.endsWith('.js') && !f.endsWith('.test.js') && !f.split(/[\\/]/).includes('testing');

/** Workspace package name → its folder, from the root package.json. */
export function workspaceDirs(repoRoot = root) {
  const rootPkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  const dirs = new Map();
  for (const dir of rootPkg.workspaces) {
    const pkg = JSON.parse(readFileSync(join(repoRoot, dir, 'package.json'), 'utf8'));
    dirs.set(pkg.name, dir);
  }
  return dirs;
}

/** The service's workspace and every workspace it depends on at run time (dependencies, not dev). */
export function workspaceClosure(service, repoRoot = root) {
  const dirs = workspaceDirs(repoRoot);
  const start = `@green-impact/${service}`;
  if (!dirs.has(start)) throw new Error(`No workspace named ${start}.`);
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name)) return;
    seen.add(name);
    const pkg = JSON.parse(readFileSync(join(repoRoot, dirs.get(name), 'package.json'), 'utf8'));
    for (const dep of Object.keys(pkg.dependencies ?? {})) if (dirs.has(dep)) visit(dep);
  };
  visit(start);
  return [...seen].map((name) => ({ name, dir: dirs.get(name) }));
}

function walk(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

/** Repository-relative paths of the files the image of `service` holds (node_modules aside). */
export function imageFiles(service, repoRoot = root) {
  const files = ['package.json'];
  for (const { name, dir } of workspaceClosure(service, repoRoot)) {
    files.push(join(dir, 'package.json'));
    const dist = join(repoRoot, dir, 'dist');
    if (!existsSync(dist)) throw new Error(`${dir}/dist is missing: run npm run build first.`);
    files.push(...walk(dist).filter((f) => keepCompiled(relative(dist, f))).map((f) => relative(repoRoot, f)));
    for (const asset of RUNTIME_ASSETS[name] ?? []) {
      const found = walk(join(repoRoot, dir, asset.dir)).filter(asset.keep);
      if (found.length === 0) throw new Error(`${dir}/${asset.dir} holds nothing the image needs: run npm run build first.`);
      files.push(...found.map((f) => relative(repoRoot, f)));
    }
  }
  return files.sort();
}

/**
 * The installed packages under `image`'s node_modules (any depth, scoped or not) that no production
 * dependency of its workspaces reaches, following dependencies, installed optionalDependencies and
 * peerDependencies as Node resolves them (the nearest node_modules upwards). npm's `--omit=optional` drops
 * an optional package but keeps the dependencies it shares with packages of other workspaces (the chain's
 * hardhat with the gateway's express), which nothing of the chain reaches.
 */
export function unreachedPackages(image, workspaceDirs) {
  const installed = [];
  const scan = (nm) => {
    if (!existsSync(nm)) return;
    for (const name of readdirSync(nm)) {
      if (name.startsWith('.')) continue;
      const p = join(nm, name);
      if (name.startsWith('@')) for (const sub of readdirSync(p)) visit(join(p, sub));
      else visit(p);
    }
  };
  const visit = (p) => {
    installed.push(p);
    if (!lstatSync(p).isSymbolicLink()) scan(join(p, 'node_modules'));
  };
  for (const dir of ['.', ...workspaceDirs]) scan(join(image, dir, 'node_modules'));
  const find = (fromDir, name) => {
    for (let d = fromDir; ; d = dirname(d)) {
      const candidate = join(d, 'node_modules', name);
      if (existsSync(join(candidate, 'package.json')) || (existsSync(candidate) && lstatSync(candidate).isSymbolicLink())) return candidate;
      if (d === image || !d.startsWith(image)) return undefined;
    }
  };
  const own = new Set(workspaceDirs.map((d) => join(image, d)));
  const reached = new Set(installed.filter((p) => lstatSync(p).isSymbolicLink() && own.has(resolvePath(dirname(p), readlinkSync(p)))));
  const queue = [...own];
  while (queue.length > 0) {
    const dir = queue.shift();
    const manifest = join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
    for (const name of ['dependencies', 'optionalDependencies', 'peerDependencies'].flatMap((f) => Object.keys(pkg[f] ?? {}))) {
      const found = find(dir, name);
      if (found === undefined || reached.has(found)) continue;
      reached.add(found);
      if (!lstatSync(found).isSymbolicLink()) queue.push(found);
    }
  }
  return installed.filter((p) => !reached.has(p));
}

/** Removes what unreachedPackages finds; answers it. */
export function pruneUnreached(image, workspaceDirs) {
  const unreached = unreachedPackages(image, workspaceDirs);
  for (const p of unreached) rmSync(p, { recursive: true, force: true });
  return unreached;
}

function main() {
  const { values } = parseArgs({
    options: { service: { type: 'string' }, out: { type: 'string' }, deps: { type: 'string' }, list: { type: 'boolean' } },
  });
  const service = values.service;
  if (!service || !SERVICES.includes(service)) throw new Error(`--service must be one of ${SERVICES.join(', ')}.`);
  const files = imageFiles(service);
  if (values.list) {
    process.stdout.write(files.join('\n') + '\n');
    return;
  }
  if (!values.out) throw new Error('--out is required.');
  for (const f of files) {
    mkdirSync(dirname(join(values.out, f)), { recursive: true });
    cpSync(join(root, f), join(values.out, f));
  }
  cpSync(join(root, 'infra/docker/healthcheck.mjs'), join(values.out, 'healthcheck.mjs'));
  if (values.deps) {
    // node_modules of the root and of any workspace npm had to give its own copy of a package.
    for (const dir of ['.', ...workspaceClosure(service).map((w) => w.dir)]) {
      const nm = join(values.deps, dir, 'node_modules');
      if (existsSync(nm)) cpSync(nm, join(values.out, dir, 'node_modules'), { recursive: true, verbatimSymlinks: true });
    }
    const pruned = pruneUnreached(values.out, workspaceClosure(service).map((w) => w.dir));
    if (pruned.length) process.stdout.write(`${service}: left out ${pruned.length} packages no production dependency reaches\n`);
  }
  process.stdout.write(`${service}: ${files.length} files${values.deps ? ' and node_modules' : ''} in ${values.out}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    main();
  } catch (err) {
    process.stderr.write(`assemble: ${err.message}\n`);
    process.exitCode = 1;
  }
}

import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';
import { createRequire } from 'node:module';
import { parseDockerfile, type Stage } from './dockerfile.js';
import { repoRoot } from './manifests.js';

// A CommonJS module whose typings declare a default export it does not have: load it as CommonJS.
const ignore = createRequire(import.meta.url)('@balena/dockerignore') as typeof import('@balena/dockerignore').default;

/**
 * The build context `docker build -f infra/docker/Dockerfile .` sends: the repository's files (tracked and
 * untracked-but-not-gitignored, as a checkout holds them) that <Dockerfile>.dockerignore keeps, matched as
 * Docker matches (case-sensitive, `!` exceptions, last rule wins) by @balena/dockerignore.
 */
export function contextFiles(dockerignore: string): string[] {
  const git = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: repoRoot, encoding: 'utf8' });
  if (git.status !== 0) throw new Error(`git ls-files failed: ${git.stderr}`);
  const files = git.stdout.split('\0').filter((f) => f !== '' && existsSync(join(repoRoot, f)));
  return ignore({ ignorecase: false }).add(readFileSync(dockerignore, 'utf8')).filter(files);
}

export function copyContext(files: string[], into: string): void {
  for (const f of files) {
    mkdirSync(dirname(join(into, f)), { recursive: true });
    cpSync(join(repoRoot, f), join(into, f), { verbatimSymlinks: true });
  }
}

// Absolute paths of the image's own filesystem (/src, /deps, /out …) map into the stage's folder; those of
// the base image's system stay as they are (the host has the same tools).
const SYSTEM_DIRS = new Set(['bin', 'dev', 'etc', 'lib', 'proc', 'sys', 'tmp', 'usr', 'var', 'nodejs']);
const ABSOLUTE = /(^|[\s"'=:])\/([\w.-]+)/g;

/**
 * Runs the build stages of a Dockerfile (those on the build image and the stages derived from them) on this
 * host, each in its own folder standing for its filesystem: WORKDIR, COPY (from the context or --from an
 * earlier stage) and RUN (its --mount options dropped: npm's own cache stands in for the cache mount).
 * Anything else in a build stage is refused, so the Dockerfile cannot grow a step this runner skips.
 * Answers the folder of each stage.
 */
export async function runBuildStages(dockerfileText: string, context: string, work: string, buildImageArg: string, log: (line: string) => void): Promise<Map<string, string>> {
  const { stages } = parseDockerfile(dockerfileText);
  const roots = new Map<string, string>();
  const workdirs = new Map<string, string>(); // a stage starts in its parent's WORKDIR, as in Docker
  const runnable = stages.filter((s, i) => s.from === `\${${buildImageArg}}` || stages.slice(0, i).some((e) => e.name === s.from));
  for (const [i, stage] of runnable.entries()) {
    const root = join(work, stage.name);
    const parent = roots.get(stage.from);
    if (parent === undefined) mkdirSync(root, { recursive: true });
    else if (runnable.slice(i + 1).some((s) => s.from === stage.from)) cpSync(parent, root, { recursive: true, verbatimSymlinks: true });
    else renameSync(parent, root); // its last child: nothing reads the parent's folder any more
    roots.set(stage.name, root);
    workdirs.set(stage.name, await runStage(stage, root, workdirs.get(stage.from) ?? '/', context, roots, log));
  }
  return roots;
}

/** Runs one stage's instructions in its folder; answers its WORKDIR at the end. */
async function runStage(stage: Stage, root: string, workdir: string, context: string, roots: Map<string, string>, log: (line: string) => void): Promise<string> {
  const inStage = (p: string) => p.replace(ABSOLUTE, (whole, pre: string, top: string) => (SYSTEM_DIRS.has(top) ? whole : `${pre}${root}/${top}`));
  let cwd = join(root, workdir);
  for (const { keyword, args } of stage.instructions) {
    log(`[${stage.name}] ${keyword} ${args}`);
    if (keyword === 'WORKDIR') {
      cwd = isAbsolute(args) ? join(root, args) : join(cwd, args);
      mkdirSync(cwd, { recursive: true });
    } else if (keyword === 'COPY') {
      copy(args, root, cwd, context, roots);
    } else if (keyword === 'RUN') {
      await sh(inStage(args.replace(/^(--mount=\S+\s+)+/, '')), cwd);
    } else {
      throw new Error(`${stage.name}: ${keyword} in a build stage is not run by this test; teach test/src/support/infra/image-build.ts what it means`);
    }
  }
  return '/' + relative(root, cwd);
}

function copy(args: string, root: string, cwd: string, context: string, roots: Map<string, string>): void {
  const words = args.split(/\s+/);
  const from = words.find((w) => w.startsWith('--from='))?.slice('--from='.length);
  const paths = words.filter((w) => !w.startsWith('--'));
  const dest = paths.pop() as string;
  const base = from === undefined ? context : roots.get(from);
  if (base === undefined) throw new Error(`COPY --from=${from}: no such stage was run`);
  const target = isAbsolute(dest) ? join(root, dest) : join(cwd, dest);
  for (const src of paths) {
    const source = join(base, src);
    // A directory's contents go into the destination; a file goes into it when it ends with / (or is .).
    const isDir = lstatSync(source).isDirectory();
    const into = !isDir && (dest.endsWith('/') || dest === '.') ? join(target, basename(src)) : target;
    mkdirSync(isDir ? into : dirname(into), { recursive: true });
    cpSync(source, into, { recursive: true, verbatimSymlinks: true });
  }
}

/** The environment of a RUN step: this one without the settings `npm test` hands its scripts. */
function runEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('npm_') || k === 'npm_config_cache'));
  // npm answers from its cache where it can (the registry is reachable for what is not there).
  delete env['NODE_ENV']; // the build image sets none
  return { ...env, npm_config_prefer_offline: 'true' };
}

function sh(script: string, cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', script], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: runEnv() });
    let output = '';
    const keep = (c: Buffer) => (output = (output + c.toString()).slice(-8000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`RUN exited with ${code}: ${script}\n${output}`))));
  });
}

import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contextFiles, copyContext, runBuildStages } from './support/infra/image-build.js';
import { repoRoot } from './support/infra/manifests.js';

const DOCKERFILE = join(repoRoot, 'infra/docker/Dockerfile');
const ENTRIES: Record<string, string> = {
  identity: 'services/identity/dist/index.js',
  taxonomy: 'services/taxonomy/dist/index.js',
  portfolio: 'services/portfolio/dist/index.js',
  chain: 'services/chain/dist/index.js',
  gateway: 'gateway/dist/index.js',
};

/**
 * No Docker engine runs here, so the image build is replayed on the host: the context exactly as
 * Dockerfile.dockerignore filters it, then every RUN of the build stages (npm ci, npm run build, the
 * per-service production installs, assemble.mjs) in folders standing for the stages' filesystems. A file
 * the build needs but the context leaves out, or a step that fails, fails here as it would in `docker build`.
 * Slow (a full npm ci and build): it is the one test that proves the images can be built.
 */
describe('container image build (infra/docker/Dockerfile replayed on its own build context)', () => {
  const work = mkdtempSync(join(tmpdir(), 'image-build-'));
  after(() => rmSync(work, { recursive: true, force: true }));

  it('the context leaves out dependencies, build output, Git and secrets but keeps what the build reads', () => {
    const files = contextFiles(`${DOCKERFILE}.dockerignore`);
    assert.ok(files.includes('package-lock.json') && files.includes('docs/schema.graphql'), 'the lock file and the schema the build checks');
    const leaked = files.filter((f) => /(^|\/)(node_modules|dist|\.git|\.env)(\/|$)/.test(f) || f.startsWith('infra/k8s/') || f.startsWith('.ci/'));
    assert.deepEqual(leaked, []);
  });

  it('npm ci, npm run build and assemble succeed in that context, and each service gets its entry and production dependencies', { timeout: 30 * 60_000 }, async () => {
    const context = join(work, 'context');
    copyContext(contextFiles(`${DOCKERFILE}.dockerignore`), context);
    const steps: string[] = [];
    const roots = await runBuildStages(readFileSync(DOCKERFILE, 'utf8'), context, join(work, 'stages'), 'NODE_BUILD_IMAGE', (l) => steps.push(l));
    assert.ok(steps.some((s) => /RUN .*npm run build/.test(s)) && steps.some((s) => /RUN .*assemble\.mjs/.test(s)), steps.join('\n'));
    const out = join(roots.get('assemble') as string, 'out');
    for (const [service, entry] of Object.entries(ENTRIES)) {
      const image = join(out, service);
      assert.ok(existsSync(join(image, entry)), `${service}: ${entry}`);
      assert.ok(existsSync(join(image, 'healthcheck.mjs')), `${service}: healthcheck.mjs`);
      // Every production dependency of the service's workspace is installed, where Node looks for it (the
      // workspace's own node_modules, then the root's); the workspaces' own files are checked import by
      // import in manifests.test.ts.
      const dir = entry.replace(/\/dist\/index\.js$/, '');
      const deps = Object.keys((JSON.parse(readFileSync(join(image, dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> }).dependencies ?? {});
      const missing = deps.filter((d) => !d.startsWith('@green-impact/') && ![join(image, dir), image].some((at) => existsSync(join(at, 'node_modules', d, 'package.json'))));
      assert.deepEqual(missing, [], `${service}: production dependencies missing from the image`);
      // Only the chain runs hardhat (its in-process EVM); the others never carry it (--workspace installs).
      assert.equal(existsSync(join(image, 'node_modules/hardhat')), deps.includes('hardhat'), `${service}: hardhat in the image unless it depends on it`);
    }
    assert.ok(existsSync(join(out, 'chain/services/chain/generated/contracts.json')), 'chain: compiled contracts');
  });
});

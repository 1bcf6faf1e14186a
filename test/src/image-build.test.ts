import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { contextFiles, copyContext, runBuildStages } from './support/infra/image-build.js';
import { TESTING_PACKAGE, testingCodeIn, testOnlyModules, unneededPackages, workspaceOutputs } from './support/infra/image-contents.js';
import { imageFileList } from './support/infra/image-layout.js';
import { repoRoot, skipUnbuilt } from './support/infra/manifests.js';

const DOCKERFILE = join(repoRoot, 'infra/docker/Dockerfile');
const ENTRIES: Record<string, string> = {
  identity: 'services/identity/dist/index.js',
  taxonomy: 'services/taxonomy/dist/index.js',
  portfolio: 'services/portfolio/dist/index.js',
  chain: 'services/chain/dist/index.js',
  gateway: 'gateway/dist/index.js',
};

/** Every file under `dir` but node_modules (symbolic links as files), relative to it. */
function filesUnder(dir: string, at = dir): string[] {
  return readdirSync(at).flatMap((name) => {
    const p = join(at, name);
    if (name === 'node_modules') return [];
    return lstatSync(p).isDirectory() ? filesUnder(dir, p) : [relative(dir, p)];
  });
}

/**
 * What an image holds is the output of its workspaces' production projects (tsconfig.json) and nothing of
 * their test projects (tsconfig.test.json) or of the test support workspace (testing/). Checked here on the
 * local build, through assemble.mjs --list, and below on the images the replayed Dockerfile assembles.
 */
describe('no testing code in any image', { skip: skipUnbuilt('gateway/dist/index.js') }, () => {
  const projects = workspaceOutputs(repoRoot);

  it('each image lists only outputs of production projects, none importing test support', () => {
    for (const service of Object.keys(ENTRIES)) {
      const files = imageFileList(service);
      assert.ok(files.length > 0 && files.includes(ENTRIES[service] as string), service);
      assert.deepEqual(testingCodeIn(repoRoot, files, projects), [], `${service}: testing code in the image`);
    }
  });

  it('no production output imports test support or a test project, and no production module serves only tests', () => {
    const production = [...projects].filter(([dir]) => dir !== 'testing' && dir !== 'test').flatMap(([, p]) => [...p.production]);
    assert.ok(production.length > 100 && production.every((f) => existsSync(join(repoRoot, f))), 'every production output is built');
    assert.deepEqual(testingCodeIn(repoRoot, production, projects), []);
    assert.deepEqual(testOnlyModules(repoRoot, projects), [], 'modules only tests import: move them to testing/');
    // Test-only code of a workspace's own (its tsconfig.test.json) is its tests and nothing else: any support
    // they share lives in the test support workspace.
    const support = [...projects].flatMap(([, p]) => [...p.test]).filter((f) => !/\.test\.js$/.test(f));
    assert.deepEqual(support, [], 'test support outside testing/: move it there');
  });

  it('only the root package depends on the test support (a workspace devDependency would put its closure in images)', () => {
    const workspaces = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces;
    const listing = workspaces.filter((dir) => {
      const pkg = JSON.parse(readFileSync(join(repoRoot, dir, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
      return ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'].some((f) => pkg[f]?.[TESTING_PACKAGE] !== undefined);
    });
    assert.deepEqual(listing, [], `npm ci --omit=dev --workspace=<w> installs the production closure of a workspace <w> lists even under devDependencies`);
  });

  it('the checks find testing code when there is some (the checks themselves)', () => {
    const harness = 'testing/dist/taxonomy/harness.js';
    const gatewayTest = 'gateway/dist/v1/call-route.test.js';
    // The gateway's test support (the real services behind a test gateway) is the test support workspace's.
    const gatewayHarness = 'testing/dist/gateway/real-gateway.js';
    assert.ok(projects.get('testing')?.production.has(gatewayHarness), 'the gateway harness is built by the test support workspace');
    const found = testingCodeIn(repoRoot, [harness, gatewayTest, gatewayHarness], projects);
    for (const f of [harness, gatewayTest, gatewayHarness]) assert.ok(found.some((p) => p.startsWith(`${f}:`)), `${f} is flagged: ${found.join('\n')}`);
    // The e2e suite's support module imports the test support package: a file like it in an image is flagged.
    assert.ok(testingCodeIn(repoRoot, ['test/dist/support/system.js'], projects).some((p) => p.includes(`imports ${TESTING_PACKAGE}/`)), 'an import of the test support package');
  });
});

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
      // No image carries Hardhat (the embedded EVM: the chain's optional dependency, omitted) or solc (build time only).
      for (const tool of ['hardhat', 'solc', '@openzeppelin/contracts']) assert.ok(!existsSync(join(image, 'node_modules', tool)), `${service}: ${tool} in a production image`);
      // No testing code: every file of the image (node_modules aside) is an output of a production project
      // built from the context's own sources, none imports test support, no testing/ folder, no test; no
      // test support package and no dependency that production does not need (a devDependency) is installed.
      const src = join(roots.get('assemble') as string, 'src'); // the build stage's /src, which assemble runs on
      const own = filesUnder(image).filter((f) => f !== 'healthcheck.mjs');
      assert.deepEqual(testingCodeIn(image, own, workspaceOutputs(src)), [], `${service}: testing code in the image`);
      assert.ok(!existsSync(join(image, 'testing')), `${service}: the test support workspace`);
      const workspaces = own.filter((f) => f.endsWith('/package.json')).map((f) => f.slice(0, -'/package.json'.length));
      assert.deepEqual(unneededPackages(image, workspaces), [], `${service}: packages no production dependency needs`);
    }
    assert.ok(existsSync(join(out, 'chain/services/chain/generated/contracts.json')), 'chain: compiled contracts');
    // The dev overlay's chain-embedded target: the chain's files plus Hardhat for the embedded networks.
    assert.ok(existsSync(join(out, 'chain-embedded/node_modules/hardhat/package.json')), 'chain-embedded: hardhat');
    assert.ok(!existsSync(join(out, 'chain-embedded/node_modules/solc')), 'chain-embedded: no solc');
  });
});

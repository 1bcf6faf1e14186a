import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { skipUnless } from '@green-impact/testing/shared/skip-rule';

const root = fileURLToPath(new URL('../../', import.meta.url));

interface Machine { node: string; ciNode: boolean; switched: boolean; setupRan: boolean; root: boolean; debian: boolean; missing: string[] }
type Step = { action: 'switch' | 'setup' | 'run' } | { action: 'stop'; message: string };
const { nextStep } = (await import(pathToFileURL(join(root, 'scripts/test.mjs')).href)) as { nextStep(m: Machine): Step };

const fresh: Machine = { node: '20.19.0', ciNode: false, switched: false, setupRan: false, root: true, debian: true, missing: ['Node.js 22.18 or later', 'promtool'] };

/**
 * `npm test` on a fresh machine (scripts/test.mjs): as root on Debian it installs what is missing with
 * scripts/setup-test-machine.sh and runs under the Node 22 that put in .ci/node, with no PATH export;
 * anywhere else it says exactly what to run.
 */
describe('npm test on a fresh machine', () => {
  it('as root on Debian: the setup, then a switch to .ci/node\'s Node, then the run', () => {
    assert.deepEqual(nextStep(fresh), { action: 'setup' });
    const afterSetup = { ...fresh, setupRan: true, ciNode: true, missing: ['Node.js 22.18 or later'] };
    assert.deepEqual(nextStep(afterSetup), { action: 'switch' });
    assert.deepEqual(nextStep({ ...afterSetup, node: '22.18.0', switched: true, missing: [] }), { action: 'run' });
  });

  it('never loops: a setup that did not help, or a switch that did not, stops with the list', () => {
    const failed = nextStep({ ...fresh, setupRan: true });
    assert.equal(failed.action, 'stop');
    assert.match((failed as { message: string }).message, /promtool[\s\S]*setup-test-machine.sh ran but did not provide them/);
    assert.equal(nextStep({ ...fresh, ciNode: true, switched: true, setupRan: true }).action, 'stop');
  });

  it('elsewhere it says exactly what to run', () => {
    const user = nextStep({ ...fresh, root: false });
    assert.equal(user.action, 'stop');
    assert.match((user as { message: string }).message, /- promtool\n[\s\S]*Run, then npm test again \(it uses the Node 22 the script installs by itself\):\n {2}sudo bash scripts\/setup-test-machine.sh\n$/);
    const mac = nextStep({ ...fresh, debian: false });
    assert.match((mac as { message: string }).message, /This is not Debian, so npm test cannot install them/);
  });

  it('a recent Node with nothing missing runs at once', () => {
    assert.deepEqual(nextStep({ ...fresh, node: '24.1.0', missing: [] }), { action: 'run' });
  });

  const oldNode = '/usr/bin/node';
  const oldVersion = existsSync(oldNode) ? execFileSync(oldNode, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim() : undefined;
  const old = oldVersion !== undefined && Number(oldVersion.split('.')[0]) < 22;
  const ready = existsSync(join(root, '.ci/node/node_modules/.bin/node'));
  it('under the machine\'s older Node, without a PATH export, it runs under .ci/node\'s Node 22', {
    // Through the suite's skip rule: a machine whose only Node is 22 has no older one to start from.
    skip: skipUnless(old, `no Node older than 22 at ${oldNode}`, 'optional') || skipUnless(ready, 'no Node in .ci/node (scripts/setup-test-machine.sh puts it there)'),
  }, () => {
    const r = spawnSync(oldNode, [join(root, 'scripts/test.mjs'), '--check'], { cwd: root, encoding: 'utf8', env: { ...process.env, PATH: '/usr/sbin:/usr/bin:/sbin:/bin' } });
    assert.equal(r.status, 0, r.stderr + r.stdout);
    assert.match(r.stderr, new RegExp(`this Node is v${oldVersion!.replace(/\./g, '\\.')}; running under the Node 22 in \\.ci/node`));
    assert.match(r.stdout, /npm test: ready, under Node v22\.\d+\.\d+ \(.*\.ci\/node\//);
  });
});

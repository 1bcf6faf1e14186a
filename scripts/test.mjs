#!/usr/bin/env node
// `npm test [-- words]`: one command on a fresh machine. Checks the machine (check-test-prerequisites.mjs);
// run as root on Debian, installs what it lacks itself (scripts/setup-test-machine.sh, the script CI runs);
// runs under the Node 22 in .ci/node when the machine's Node is older (put there by that script), without a
// PATH export; then builds, lints the contracts and runs the tests (run-tests.mjs, the words filter them).
// Anywhere else it stops and says exactly what to run. `--check`: everything up to the build, then says
// which Node the suite would run under. Plain Node, no dependencies: it runs on an old Node too.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { missingPrerequisites, nodeIsRecentEnough, SETUP } from './check-test-prerequisites.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const CI_NODE_BIN = join(root, '.ci', 'node', 'node_modules', '.bin');
/** Set in the child started under .ci/node's Node, and after the setup ran: neither happens twice. */
const SWITCHED = 'GREEN_IMPACT_TEST_NODE_SWITCHED';
const SET_UP = 'GREEN_IMPACT_TEST_SETUP_RAN';

/**
 * The next step, from what is known about the machine: pure, so the test can walk every case.
 * - `switch`: re-run this script under .ci/node's Node (the machine's is older, .ci/node has one);
 * - `setup`: run the setup script (root on Debian, something missing, not tried yet);
 * - `stop`: print `message` and exit 1;
 * - `run`: build and test.
 */
export function nextStep(m) {
  if (!nodeIsRecentEnough(m.node) && m.ciNode && !m.switched) return { action: 'switch' };
  if (m.missing.length === 0) return { action: 'run' };
  if (m.root && m.debian && !m.setupRan) return { action: 'setup' };
  const list = `npm test: this machine lacks what the tests need:\n${m.missing.map((x) => `  - ${x}`).join('\n')}\n`;
  if (m.setupRan) return { action: 'stop', message: `${list}scripts/setup-test-machine.sh ran but did not provide them; see its output above.` };
  if (m.debian) return { action: 'stop', message: `${list}Run, then npm test again (it uses the Node 22 the script installs by itself):\n  ${SETUP}\n` };
  return {
    action: 'stop',
    message:
      `${list}This is not Debian, so npm test cannot install them: install each (scripts/setup-test-machine.sh shows how on Debian), ` +
      'or point TEST_DATABASE_URL / TEST_REDIS_URL / CHROMIUM_PATH at your own, then run npm test again.\n',
  };
}

function run(command, args, env = process.env) {
  const r = spawnSync(command, args, { stdio: 'inherit', cwd: root, env });
  return r.status ?? 1;
}

async function main() {
  const args = process.argv.slice(2);
  const check = args[0] === '--check';
  for (;;) {
    const step = nextStep({
      node: process.versions.node,
      ciNode: existsSync(join(CI_NODE_BIN, 'node')),
      switched: process.env[SWITCHED] === '1',
      setupRan: process.env[SET_UP] === '1',
      root: process.getuid?.() === 0,
      debian: existsSync('/etc/debian_version'),
      missing: await missingPrerequisites(),
    });
    if (step.action === 'switch') {
      const node = join(CI_NODE_BIN, 'node');
      console.error(`npm test: this Node is ${process.version}; running under the Node 22 in .ci/node (${node}).`);
      const env = { ...process.env, [SWITCHED]: '1', PATH: `${CI_NODE_BIN}:${process.env['PATH'] ?? ''}` };
      return run(node, [fileURLToPath(import.meta.url), ...args], env);
    }
    if (step.action === 'setup') {
      console.error('npm test: installing what this machine lacks (root on Debian): bash scripts/setup-test-machine.sh');
      const code = run('bash', [join(root, 'scripts', 'setup-test-machine.sh')]);
      process.env[SET_UP] = '1';
      if (code !== 0) {
        console.error(`npm test: scripts/setup-test-machine.sh failed (exit ${code}).`);
        return code;
      }
      continue;
    }
    if (step.action === 'stop') {
      process.stderr.write(step.message);
      return 1;
    }
    break;
  }
  if (check) {
    console.log(`npm test: ready, under Node ${process.version} (${process.execPath}).`);
    return 0;
  }
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  return run(npm, ['run', 'build', '--silent']) || run(npm, ['run', 'lint:proto', '--silent']) || run(process.execPath, [join(root, 'scripts', 'run-tests.mjs'), ...args]);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = await main();

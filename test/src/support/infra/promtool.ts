import { spawnSync } from 'node:child_process';
import { hasCommand } from './manifests.js';

/**
 * promtool, Prometheus's own rule checker and unit tester (Debian's `prometheus` package; the setup script
 * installs it). Required under CI; a developer without it gets the rule tests skipped with this reason.
 */
export const promtool = hasCommand('promtool', ['--version']);
if (!promtool && process.env['CI']) throw new Error('promtool is required under CI (apt-get install prometheus; scripts/setup-test-machine.sh)');
export const PROMTOOL_MISSING = 'promtool is not on PATH (sudo bash scripts/setup-test-machine.sh installs Debian\'s prometheus package)';

/** Runs promtool in `cwd`; its exit status and everything it printed. */
export function runPromtool(args: string[], cwd: string): { status: number | null; output: string } {
  const res = spawnSync('promtool', args, { cwd, encoding: 'utf8' });
  if (res.error) throw res.error;
  return { status: res.status, output: `${res.stdout}${res.stderr}` };
}

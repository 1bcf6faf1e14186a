import { spawnSync } from 'node:child_process';
import { skipUnless } from '@green-impact/testing/shared/skip-rule';
import { hasCommand } from './manifests.js';

/**
 * promtool, Prometheus's own rule checker and unit tester (Debian's `prometheus` package; the setup script
 * installs it). Required under CI; a developer without it gets the rule tests skipped with this reason.
 */
export const promtool = hasCommand('promtool', ['--version']);
/** The `skip` option of a promtool test (under CI, which installs it, a missing promtool throws). */
export const skipWithoutPromtool = skipUnless(promtool, 'promtool is not on PATH (sudo bash scripts/setup-test-machine.sh installs Debian\'s prometheus package)');

/** Runs promtool in `cwd`; its exit status and everything it printed. */
export function runPromtool(args: string[], cwd: string): { status: number | null; output: string } {
  const res = spawnSync('promtool', args, { cwd, encoding: 'utf8' });
  if (res.error) throw res.error;
  return { status: res.status, output: `${res.stdout}${res.stderr}` };
}

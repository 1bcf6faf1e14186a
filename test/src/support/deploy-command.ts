import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

export interface CommandRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the deployment command (services/chain/dist/contracts/deploy-main.js) as an operator would. */
export function runDeployCommand(env: Record<string, string>, args: string[] = []): Promise<CommandRun> {
  const child = spawn(process.execPath, [join(root, 'services/chain/dist/contracts/deploy-main.js'), ...args], {
    cwd: root,
    env: { PATH: process.env['PATH'] ?? '', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}


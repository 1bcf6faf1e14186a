import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './manifests.js';

/**
 * A copy of infra/k8s whose dev overlay has its Secrets made, as a deployment makes them
 * (infra/k8s/overlays/dev/make-secrets.mjs): the repository holds no secret values, so the overlay
 * renders only after that script ran, and the tests run it in a copy rather than write into the tree.
 */
export function devOverlayWithSecrets(): { overlay: string; makeSecrets: () => string; remove: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'k8s-dev-'));
  cpSync(join(repoRoot, 'infra/k8s'), join(root, 'k8s'), { recursive: true, filter: (src) => !src.endsWith('/secrets') });
  const overlay = join(root, 'k8s/overlays/dev');
  const makeSecrets = () => {
    const res = spawnSync(process.execPath, [join(overlay, 'make-secrets.mjs'), overlay], { encoding: 'utf8' });
    if (res.status !== 0) throw new Error(`make-secrets.mjs failed (${res.status}):\n${res.stderr}`);
    return res.stdout;
  };
  return { overlay, makeSecrets, remove: () => rmSync(root, { recursive: true, force: true }) };
}

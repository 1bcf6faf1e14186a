import { after } from 'node:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { renderWith, repoRoot, type K8sObject } from './manifests.js';

/** The base with the optional monitoring and Gateway API components, rendered by kubectl kustomize. */
export function renderWithComponents(): K8sObject[] {
  const dir = mkdtempSync(join(tmpdir(), 'k8s-components-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const k8s = relative(dir, join(repoRoot, 'infra/k8s')); // kustomize takes relative paths only
  writeFileSync(
    join(dir, 'kustomization.yaml'),
    `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [${k8s}/base]\ncomponents: [${k8s}/components/monitoring, ${k8s}/components/gateway-api]\n`,
  );
  return renderWith('kubectl', ['kustomize', dir], 'components');
}

/**
 * An overlay of the test's own, rendered by kubectl kustomize: the given bases and components (paths under
 * infra/k8s) and extra kustomization lines, as an operator's overlay would combine them.
 */
export function renderOverlay(resources: string[], components: string[], extra = ''): K8sObject[] {
  const dir = mkdtempSync(join(tmpdir(), 'k8s-overlay-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const k8s = relative(dir, join(repoRoot, 'infra/k8s'));
  const list = (paths: string[]) => `[${paths.map((p) => `${k8s}/${p}`).join(', ')}]`;
  writeFileSync(
    join(dir, 'kustomization.yaml'),
    `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: ${list(resources)}\ncomponents: ${list(components)}\n${extra}`,
  );
  return renderWith('kubectl', ['kustomize', dir], 'overlay');
}

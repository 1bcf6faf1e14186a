import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { skipUnless } from '@green-impact/testing/shared/skip-rule';

/** The repository root (this file runs as test/dist/support/infra/manifests.js). */
export const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/** A Kubernetes object as parsed from YAML: only apiVersion, kind and metadata.name are relied on. */
export type K8sObject = Record<string, any> & { apiVersion: string; kind: string; metadata: { name: string } & Record<string, any> };

/** Every document of a YAML text, as plain objects; a syntax error throws with the file name. */
export function parseYamlDocuments(text: string, source: string): K8sObject[] {
  const objects: K8sObject[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) throw new Error(`${source}: ${doc.errors.map((e) => e.message).join('; ')}`);
    const value = doc.toJS() as unknown;
    if (value !== null && value !== undefined) objects.push(value as K8sObject);
  }
  return objects;
}

export function readYamlFile(path: string): K8sObject[] {
  return parseYamlDocuments(readFileSync(path, 'utf8'), path);
}

export function readKustomization(dir: string): Record<string, any> {
  const file = join(dir, 'kustomization.yaml');
  const [doc] = readYamlFile(file);
  if (!doc) throw new Error(`${file} is empty`);
  return doc;
}

/** The objects a kustomization lists under resources (files and directories, recursively), unpatched. */
export function kustomizationResources(dir: string): K8sObject[] {
  const k = readKustomization(dir);
  const out: K8sObject[] = [];
  for (const entry of [...((k['resources'] as string[] | undefined) ?? [])]) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...kustomizationResources(path));
    else out.push(...readYamlFile(path));
  }
  for (const component of (k['components'] as string[] | undefined) ?? []) out.push(...kustomizationResources(join(dir, component)));
  return out;
}

/**
 * The ConfigMaps and Secrets a kustomization's generators make from literals, unhashed and unmerged: what
 * the reference checks need when kubectl is not there to render (values of generated Secrets are blanked).
 */
export function generatedObjects(dir: string): K8sObject[] {
  const k = readKustomization(dir);
  const make = (kind: 'ConfigMap' | 'Secret', g: { name: string; literals?: string[]; behavior?: string }): K8sObject => {
    const data: Record<string, string> = {};
    for (const literal of g.literals ?? []) {
      const i = literal.indexOf('=');
      data[literal.slice(0, i)] = kind === 'Secret' ? '' : literal.slice(i + 1);
    }
    return { apiVersion: 'v1', kind, metadata: { name: g.name }, data };
  };
  return [
    ...((k['configMapGenerator'] ?? []) as { name: string }[]).map((g) => make('ConfigMap', g)),
    ...((k['secretGenerator'] ?? []) as { name: string }[]).map((g) => make('Secret', g)),
  ];
}

/** kubectl, which CI does not install: the tests that render with it run where it is (suite skip rule, optional part). */
export const kubectl = hasCommand('kubectl', ['version', '--client']);
export const skipWithoutKubectl = skipUnless(kubectl, 'kubectl is not on PATH', 'optional');

/** The `skip` option of a test that reads the build's output (npm test builds first; under CI a missing build fails). */
export const skipUnbuilt = (file: string) => skipUnless(existsSync(join(repoRoot, file)), `needs npm run build (no ${file})`);

/** Whether a command is on PATH (it answers `<cmd> <probe>` with exit 0). */
export function hasCommand(cmd: string, probe: string[]): boolean {
  const res = spawnSync(cmd, probe, { stdio: 'ignore' });
  return res.error === undefined && res.status === 0;
}

/** Runs a command and parses its stdout as YAML; a non-zero exit throws with its stderr. */
export function renderWith(cmd: string, args: string[], source: string): K8sObject[] {
  const res = spawnSync(cmd, args, { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (res.error) throw res.error;
  if (res.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${res.status}):\n${res.stderr}`);
  return parseYamlDocuments(res.stdout, source);
}

export function fileExists(relativePath: string): boolean {
  return existsSync(join(repoRoot, relativePath));
}

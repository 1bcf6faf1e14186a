import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { secretWeakness } from '@green-impact/shared/secret-strength';
import { devOverlayWithSecrets } from './support/infra/dev-secrets.js';
import { hasCommand, readKustomization, renderWith, repoRoot, type K8sObject } from './support/infra/manifests.js';

const overlay = join(repoRoot, 'infra/k8s/overlays/dev');
/** What may stay written in the overlay: names, not secrets. */
const PLAIN = ['POSTGRES_USER', 'POSTGRES_DB'];
const kubectl = hasCommand('kubectl', ['version', '--client']);

type Generator = { name: string; literals?: string[]; envs?: string[]; files?: string[] };

/** The rendered Secrets' values, decoded, by Secret name without kustomize's hash suffix. */
function secretValues(objects: K8sObject[]): Record<string, Record<string, string>> {
  return Object.fromEntries(objects.filter((o) => o.kind === 'Secret').map((o) => [
    o.metadata.name.replace(/-[a-z0-9]{10}$/, ''),
    Object.fromEntries(Object.entries((o['data'] ?? {}) as Record<string, string>).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')])),
  ]));
}

describe('dev overlay secrets (infra/k8s/overlays/dev)', () => {
  it('commits no secret value: generators take only names as literals, the rest from git-ignored files made at deploy time', () => {
    const generators = (readKustomization(overlay)['secretGenerator'] ?? []) as Generator[];
    assert.ok(generators.length >= 6);
    for (const g of generators) {
      const literal = (g.literals ?? []).map((l) => l.slice(0, l.indexOf('='))).filter((k) => !PLAIN.includes(k));
      assert.deepEqual(literal, [], `${g.name}: secret literals in Git`);
      assert.deepEqual(g.files ?? [], [], `${g.name}: files`);
      for (const env of g.envs ?? []) {
        assert.match(env, /^secrets\/[a-z-]+\.env$/, `${g.name}: ${env}`);
        const ignored = spawnSync('git', ['check-ignore', '-q', join('infra/k8s/overlays/dev', env)], { cwd: repoRoot });
        assert.equal(ignored.status, 0, `${env} must be git-ignored`);
      }
    }
    // Nothing committed under the overlay carries the old known values either.
    const committed = readdirSync(overlay).filter((f) => statSync(join(overlay, f)).isFile()).map((f) => readFileSync(join(overlay, f), 'utf8')).join('\n');
    assert.doesNotMatch(committed, /dev-only-password|dev-operator-key|dev-only-document-link-secret|BOOTSTRAP_API_KEY=|DOCUMENT_LINK_SECRET=|POSTGRES_PASSWORD=/);
  });

  it('make-secrets.mjs writes random values once (0600) and keeps them on a re-run; two deployments share none', () => {
    const [a, b] = [devOverlayWithSecrets(), devOverlayWithSecrets()];
    try {
      a.makeSecrets();
      b.makeSecrets();
      const read = (o: string, f: string) => readFileSync(join(o, 'secrets', f), 'utf8');
      const first = read(a.overlay, 'identity.env');
      assert.match(a.makeSecrets(), /Kept the dev Secrets/);
      assert.equal(read(a.overlay, 'identity.env'), first, 'a re-run keeps the values (PostgreSQL keeps its password)');
      for (const f of ['postgres.env', 'identity.env', 'gateway.env']) {
        assert.notEqual(read(a.overlay, f), read(b.overlay, f), f);
        assert.equal(statSync(join(a.overlay, 'secrets', f)).mode & 0o777, 0o600, f);
      }
    } finally {
      a.remove();
      b.remove();
    }
  });

  it('rendered: every Secret has its values; keys are strong enough to start with, the password matches every DATABASE_URL', { skip: kubectl ? false : 'kubectl is not on PATH' }, () => {
    const dev = devOverlayWithSecrets();
    try {
      dev.makeSecrets();
      const values = secretValues(renderWith('kubectl', ['kustomize', dev.overlay], dev.overlay));
      assert.deepEqual(Object.keys(values).sort(), ['chain-secrets', 'gateway-secrets', 'identity-secrets', 'portfolio-secrets', 'postgres-secrets', 'taxonomy-secrets']);
      assert.equal(secretWeakness(values['identity-secrets']!['BOOTSTRAP_API_KEY']!), undefined);
      assert.equal(secretWeakness(values['gateway-secrets']!['DOCUMENT_LINK_SECRET']!), undefined);
      const pg = values['postgres-secrets']!;
      assert.equal(pg['POSTGRES_USER'], 'green_impact');
      assert.match(pg['POSTGRES_PASSWORD']!, /^[0-9a-f]{48}$/);
      for (const s of ['identity', 'taxonomy', 'portfolio', 'chain']) {
        assert.equal(values[`${s}-secrets`]!['DATABASE_URL'], `postgres://green_impact:${pg['POSTGRES_PASSWORD']}@postgres:5432/green_impact`, s);
      }
    } finally {
      dev.remove();
    }
  });

  it('without the files the overlay does not render: no deployment falls back to known values', { skip: kubectl ? false : 'kubectl is not on PATH' }, () => {
    const dev = devOverlayWithSecrets();
    try {
      assert.throws(() => renderWith('kubectl', ['kustomize', dev.overlay], dev.overlay), /secrets\/postgres\.env|no such file/);
    } finally {
      dev.remove();
    }
  });
});

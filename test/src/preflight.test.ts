import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { hasCommand, repoRoot } from './support/infra/manifests.js';

const kubectl = hasCommand('kubectl', ['version', '--client']);
const b64 = (s: string) => Buffer.from(s).toString('base64');
const secret = (name: string, data: Record<string, string>) => ({ metadata: { name }, data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])) });
const ADDRESS = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const CRDS = ['httproutes.gateway.networking.k8s.io', 'kafkatopics.kafka.strimzi.io', 'servicemonitors.monitoring.coreos.com', 'prometheusrules.monitoring.coreos.com'];

/** The Secrets production provides (docs/operations.md), as `kubectl get secrets -o json` lists them. */
function completeSecrets(networks: unknown[]) {
  return [
    secret('identity-secrets', { DATABASE_URL: 'postgres://i', BOOTSTRAP_API_KEY: 'k' }),
    secret('taxonomy-secrets', { DATABASE_URL: 'postgres://t' }),
    secret('portfolio-secrets', { DATABASE_URL: 'postgres://p', CALLER_SIGNING_KEY: 'k' }),
    secret('chain-secrets', { DATABASE_URL: 'postgres://c' }),
    secret('chain-networks', { 'networks.json': JSON.stringify(networks) }),
    secret('chain-signer-keys', { sepolia: 'k' }),
    secret('gateway-secrets', { CALLER_SIGNING_KEY: 'k', DOCUMENT_LINK_SECRET: 's' }),
  ];
}

/**
 * scripts/preflight.mjs against the real overlays (rendered by kubectl kustomize) and a namespace's Secrets
 * as `kubectl get secrets -o json` prints them (no cluster runs here: the listing is given as a file, the
 * command's --secrets / --crds).
 */
describe('preflight: what the cluster lacks before kubectl apply -k', { skip: kubectl ? false : 'kubectl is not on PATH' }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'preflight-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const run = (overlay: string, secrets: unknown[], crds = CRDS) => {
    writeFileSync(join(dir, 'secrets.json'), JSON.stringify({ items: secrets }));
    writeFileSync(join(dir, 'crds.json'), JSON.stringify({ items: crds.map((name) => ({ metadata: { name } })) }));
    const r = spawnSync(process.execPath, [join(repoRoot, 'scripts/preflight.mjs'), overlay, '--secrets', join(dir, 'secrets.json'), '--crds', join(dir, 'crds.json')], { cwd: repoRoot, encoding: 'utf8' });
    return { code: r.status, lines: r.stdout.trim().split('\n'), out: r.stdout + r.stderr };
  };
  /** An overlay of the test's own on top of `base` that sets what the operator must set (CALLER_TRUSTED_KEYS). */
  const configured = (base: string) => {
    const d = mkdtempSync(join(dir, 'overlay-'));
    writeFileSync(join(d, 'kustomization.yaml'), `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [${relative(d, join(repoRoot, base))}]\nconfigMapGenerator:\n  - name: green-impact-config\n    behavior: merge\n    literals: [CALLER_TRUSTED_KEYS=gateway=${'A'.repeat(43)}]\n`);
    return d;
  };

  it('on an empty namespace lists every required Secret with its keys, the empty CALLER_TRUSTED_KEYS and the missing CRDs', () => {
    const r = run('infra/k8s/overlays/prod', [], []);
    assert.equal(r.code, 1, r.out);
    for (const line of [
      'MISSING Secret chain-networks is missing (read by Deployment/chain): keys networks.json',
      'MISSING Secret chain-secrets is missing (read by Deployment/chain, Job/chain-migrate): keys DATABASE_URL (optional: SMTP_URL)',
      'MISSING Secret gateway-secrets is missing (read by Deployment/gateway): keys CALLER_SIGNING_KEY, DOCUMENT_LINK_SECRET, REDIS_URL',
      'MISSING Secret identity-secrets is missing (read by Deployment/identity, Job/identity-migrate): keys DATABASE_URL (optional: BOOTSTRAP_API_KEY)',
      'MISSING the cluster has no CRD servicemonitors.monitoring.coreos.com for the overlay\'s ServiceMonitor objects (install its operator, or leave its component out)',
    ]) assert.ok(r.lines.includes(line), `${line}\n${r.out}`);
    assert.ok(r.lines.some((l) => /^MISSING ConfigMap green-impact-config-\w+: CALLER_TRUSTED_KEYS is empty/.test(l)), r.out);
    assert.match(r.lines.at(-1)!, /^\d+ missing: fix them before kubectl apply -k infra\/k8s\/overlays\/prod \(namespace green-impact\)\.$/);
  });

  it('small-prod needs no REDIS_URL; with every Secret and the settings in place nothing required is missing', () => {
    const networks = [{ name: 'sepolia', chainId: 11155111, rpcUrl: 'https://rpc.example', signerKeyFile: '/var/run/secrets/chain/sepolia',
      contracts: { keyValueStore: ADDRESS, documentRegistry: ADDRESS, documentRoots: ADDRESS, nft: ADDRESS } }];
    const r = run(configured('infra/k8s/overlays/small-prod'), completeSecrets(networks));
    assert.equal(r.code, 0, r.out);
    assert.ok(!r.lines.some((l) => l.startsWith('MISSING')), r.out);
    assert.ok(r.lines.includes('ok      Secret gateway-secrets: present with CALLER_SIGNING_KEY, DOCUMENT_LINK_SECRET'), r.out);
    assert.ok(r.lines.some((l) => l.startsWith('warning image registry.example.com/')), 'the example registry is said');
    // The same Secrets for prod: its Redis needs REDIS_URL.
    const prod = run(configured('infra/k8s/overlays/prod'), completeSecrets(networks));
    assert.equal(prod.code, 1);
    assert.ok(prod.lines.includes('MISSING Secret gateway-secrets has no key REDIS_URL (read by Deployment/gateway)'), prod.out);
  });

  it('reads networks.json: a network without its contracts is a warning, a signer key file not in chain-signer-keys is missing', () => {
    const networks = [{ name: 'amoy', chainId: 80002, rpcUrl: 'https://rpc.example', signerKeyFile: '/var/run/secrets/chain/amoy', contracts: { keyValueStore: ADDRESS } }, { name: 'mumbai', aliasOf: 'amoy' }];
    const r = run(configured('infra/k8s/overlays/small-prod'), completeSecrets(networks));
    assert.equal(r.code, 1, r.out);
    assert.ok(r.lines.includes('warning network amoy: no documentRegistry, documentRoots, nft address; deploy them first (components/deploy-contracts, docs/chain.md)'), r.out);
    assert.ok(r.lines.includes('MISSING network amoy: signerKeyFile /var/run/secrets/chain/amoy, but Secret chain-signer-keys has no key amoy'), r.out);
  });

  it('without-chain needs no chain Secret', () => {
    const d = mkdtempSync(join(dir, 'overlay-'));
    writeFileSync(join(d, 'kustomization.yaml'), `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [${relative(d, configured('infra/k8s/overlays/small-prod'))}]\ncomponents: [${relative(d, join(repoRoot, 'infra/k8s/components/without-chain'))}]\n`);
    const r = run(d, completeSecrets([]).filter((s) => !s.metadata.name.startsWith('chain-')));
    assert.equal(r.code, 0, r.out);
  });
});

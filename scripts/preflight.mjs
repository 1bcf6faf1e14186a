#!/usr/bin/env node
// Before `kubectl apply -k <overlay>`: what the cluster lacks for that overlay.
//
//   node scripts/preflight.mjs infra/k8s/overlays/prod [--namespace green-impact] [--secrets secrets.json]
//
// Renders the overlay (kubectl kustomize), collects every Secret its workloads read (env secretKeyRef,
// envFrom secretRef, secret volumes: name, keys, optional or not) and compares them with the Secrets of the
// namespace (`kubectl get secrets -o json`, or --secrets with that command's output saved to a file; only
// names and key names are read, except chain-networks' networks.json, whose networks are checked for
// contract addresses and for signer key files present in chain-signer-keys). Also names the settings the
// overlay leaves empty that a service refuses to start without (CALLER_TRUSTED_KEYS), example values left
// in (registry.example.com, impact.example.com) and the CRDs the rendered objects need. Prints one line per
// finding; exit 0 when nothing required is missing, 1 otherwise, 2 on usage.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { parseAllDocuments } from 'yaml';

const USAGE = 'usage: node scripts/preflight.mjs <overlay dir> [--namespace <ns>] [--secrets <kubectl get secrets -o json output>] [--crds <kubectl get crd -o json output>]';

/** Every Secret the rendered workloads read: name → { optional, keys: Map<key, optional>, users: Set }. */
export function secretReferences(objects) {
  const refs = new Map();
  const ref = (name, user, optional) => {
    let r = refs.get(name);
    if (!r) refs.set(name, (r = { optional: true, keys: new Map(), users: new Set() }));
    r.optional &&= optional;
    r.users.add(user);
    return r;
  };
  for (const o of objects) {
    const pod = o.spec?.template?.spec ?? o.spec?.jobTemplate?.spec?.template?.spec;
    if (!pod) continue;
    const user = `${o.kind}/${o.metadata.name}`;
    for (const c of [...(pod.initContainers ?? []), ...(pod.containers ?? [])]) {
      for (const e of c.env ?? []) {
        const s = e.valueFrom?.secretKeyRef;
        if (!s) continue;
        const r = ref(s.name, user, s.optional === true);
        r.keys.set(s.key, (r.keys.get(s.key) ?? true) && s.optional === true);
      }
      for (const e of c.envFrom ?? []) if (e.secretRef) ref(e.secretRef.name, user, e.secretRef.optional === true);
    }
    for (const v of pod.volumes ?? []) {
      if (!v.secret) continue;
      const r = ref(v.secret.secretName, user, v.secret.optional === true);
      for (const item of v.secret.items ?? []) r.keys.set(item.key, (r.keys.get(item.key) ?? true) && v.secret.optional === true);
    }
  }
  // Secrets the overlay generates itself (the dev overlay) need nothing from the cluster.
  for (const o of objects) if (o.kind === 'Secret') refs.delete(o.metadata.name);
  return refs;
}

/** The CRDs (plural.group) the rendered objects need, beyond Kubernetes' own kinds. */
const CRDS = {
  HTTPRoute: 'httproutes.gateway.networking.k8s.io',
  KafkaTopic: 'kafkatopics.kafka.strimzi.io',
  ServiceMonitor: 'servicemonitors.monitoring.coreos.com',
  PrometheusRule: 'prometheusrules.monitoring.coreos.com',
};

/**
 * Findings for `objects` (the rendered overlay) against `secrets` (kubectl's Secret list) and `crds` (names of
 * the cluster's CRDs, or undefined when unknown): [{ level: 'missing' | 'warning' | 'ok', message }].
 */
export function preflight(objects, secrets, crds) {
  const findings = [];
  const missing = (message) => findings.push({ level: 'missing', message });
  const warning = (message) => findings.push({ level: 'warning', message });
  const byName = new Map(secrets.map((s) => [s.metadata.name, s]));
  for (const [name, r] of [...secretReferences(objects)].sort(([a], [b]) => a.localeCompare(b))) {
    const users = [...r.users].sort().join(', ');
    const secret = byName.get(name);
    if (!secret) {
      if (r.optional) warning(`Secret ${name} is absent (optional; read by ${users})`);
      else {
        const required = [...r.keys].filter(([, optional]) => !optional).map(([k]) => k).sort();
        const optional = [...r.keys].filter(([, o]) => o).map(([k]) => k).sort();
        missing(`Secret ${name} is missing (read by ${users})${required.length ? `: keys ${required.join(', ')}` : ''}${optional.length ? ` (optional: ${optional.join(', ')})` : ''}`);
      }
      continue;
    }
    const present = new Set(Object.keys({ ...(secret.data ?? {}), ...(secret.stringData ?? {}) }));
    for (const [key, optional] of [...r.keys].sort(([a], [b]) => a.localeCompare(b))) {
      if (present.has(key)) continue;
      if (optional) warning(`Secret ${name} has no key ${key} (optional; read by ${users})`);
      else missing(`Secret ${name} has no key ${key} (read by ${users})`);
    }
    findings.push({ level: 'ok', message: `Secret ${name}: present${r.keys.size ? ` with ${[...r.keys.keys()].filter((k) => present.has(k)).sort().join(', ') || 'none of its keys'}` : ''}` });
  }
  findings.push(...networkFindings(byName));
  for (const o of objects) {
    if (o.kind !== 'ConfigMap') continue;
    for (const [key, value] of Object.entries(o.data ?? {})) {
      if (key === 'CALLER_TRUSTED_KEYS' && value === '') missing(`ConfigMap ${o.metadata.name}: CALLER_TRUSTED_KEYS is empty; the services refuse to start (node scripts/caller-keys.mjs, docs/operations.md "Caller keys")`);
      if (typeof value === 'string' && /\bexample\.com\b/.test(value)) warning(`ConfigMap ${o.metadata.name}: ${key}=${value} is the example value`);
    }
  }
  const images = new Set(objects.flatMap((o) => (o.spec?.template?.spec?.containers ?? []).map((c) => c.image)));
  for (const image of [...images].sort()) if (/(^|\/)registry\.example\.com\//.test(image)) warning(`image ${image}: set your registry in the overlay's images:`);
  if (crds) {
    for (const kind of [...new Set(objects.map((o) => o.kind))].filter((k) => CRDS[k]).sort()) {
      if (!crds.includes(CRDS[kind])) missing(`the cluster has no CRD ${CRDS[kind]} for the overlay's ${kind} objects (install its operator, or leave its component out)`);
    }
  }
  return findings;
}

/** chain-networks' networks.json: every network has its four contracts and, with signerKeyFile, its key in chain-signer-keys. */
function networkFindings(byName) {
  const findings = [];
  const networks = byName.get('chain-networks');
  const raw = networks?.data?.['networks.json'] ?? networks?.stringData?.['networks.json'];
  if (!raw) return findings;
  let list;
  try {
    list = JSON.parse(networks.data?.['networks.json'] ? Buffer.from(raw, 'base64').toString('utf8') : raw);
  } catch (err) {
    return [{ level: 'missing', message: `Secret chain-networks: networks.json is not JSON (${err.message})` }];
  }
  const keys = new Set(Object.keys(byName.get('chain-signer-keys')?.data ?? {}));
  for (const n of Array.isArray(list) ? list : []) {
    if (n.aliasOf) continue;
    const lacking = ['keyValueStore', 'documentRegistry', 'documentRoots', 'nft'].filter((c) => !n.contracts?.[c]);
    if (lacking.length) findings.push({ level: 'warning', message: `network ${n.name}: no ${lacking.join(', ')} address; deploy them first (components/deploy-contracts, docs/chain.md)` });
    if (typeof n.signerKeyFile === 'string') {
      const key = n.signerKeyFile.replace(/^\/var\/run\/secrets\/chain\//, '');
      if (key !== n.signerKeyFile && !keys.has(key)) findings.push({ level: 'missing', message: `network ${n.name}: signerKeyFile ${n.signerKeyFile}, but Secret chain-signer-keys has no key ${key}` });
    }
  }
  return findings;
}

function kubectlJson(args) {
  return JSON.parse(execFileSync('kubectl', [...args, '-o', 'json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 }));
}

function main() {
  let parsed;
  try {
    parsed = parseArgs({ allowPositionals: true, options: { namespace: { type: 'string' }, secrets: { type: 'string' }, crds: { type: 'string' } } });
  } catch (err) {
    console.error(`${err.message}\n${USAGE}`);
    return 2;
  }
  const [overlay] = parsed.positionals;
  if (!overlay) {
    console.error(USAGE);
    return 2;
  }
  const objects = parseAllDocuments(execFileSync('kubectl', ['kustomize', overlay], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }))
    .map((d) => d.toJS())
    .filter(Boolean);
  const namespace = parsed.values.namespace ?? objects.find((o) => o.metadata?.namespace)?.metadata.namespace ?? 'default';
  const secrets = (parsed.values.secrets ? JSON.parse(readFileSync(parsed.values.secrets, 'utf8')) : kubectlJson(['-n', namespace, 'get', 'secrets'])).items ?? [];
  let crds;
  try {
    crds = (parsed.values.crds ? JSON.parse(readFileSync(parsed.values.crds, 'utf8')) : kubectlJson(['get', 'crd'])).items.map((c) => c.metadata.name);
  } catch {
    crds = undefined; // no right to list CRDs: not checked
  }
  const findings = preflight(objects, secrets, crds);
  for (const f of findings) console.log(`${f.level === 'missing' ? 'MISSING' : f.level === 'warning' ? 'warning' : 'ok     '} ${f.message}`);
  const count = findings.filter((f) => f.level === 'missing').length;
  console.log(count ? `${count} missing: fix them before kubectl apply -k ${overlay} (namespace ${namespace}).` : `Nothing required is missing for ${overlay} in namespace ${namespace}.`);
  return count ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = main();

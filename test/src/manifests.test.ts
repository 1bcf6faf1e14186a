import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execForm, parseDockerfile } from './support/infra/dockerfile.js';
import { devOverlayWithSecrets } from './support/infra/dev-secrets.js';
import { gatewayEnvOf, gatewaySettings, type GatewayEnv } from './support/infra/gateway-settings.js';
import { accessLogProblems } from './support/infra/access-log-invariants.js';
import { ingressProblems, type IngressSpec } from './support/infra/ingress-invariants.js';
import { imageFileList, missingAtRuntime } from './support/infra/image-layout.js';
import {
  generatedObjects, kustomizationResources, readKustomization, readYamlFile, renderWith, repoRoot, skipUnbuilt, skipWithoutKubectl, type K8sObject,
} from './support/infra/manifests.js';
import { allowedEdges, egressTo, openEgressRules, reachableFrom, STRANGER, workloadsOf, type Outsider, type Workload } from './support/infra/network-policy.js';
import { runtimeProblems, type RuntimeSpec } from './support/infra/runtime-invariants.js';
import { IDENTITY_EVENTS_TOPIC } from '@green-impact/shared/bus/identity-events';
import { TAXONOMY_EVENTS_TOPIC } from '@green-impact/shared/bus/taxonomy-events';
import { kafkaTopicErrors, schemaErrors } from './support/infra/schema.js';
import { envReader } from '@green-impact/shared/config';
import { parsePrivateKey } from '@green-impact/shared/callers/caller-keys';
import { callerTrust } from '@green-impact/shared/callers/caller-trust';
import { loadCallerTrust } from '@green-impact/shared/callers/caller-trust-config';
import { systemProblems, type SystemSpec } from './support/infra/system-invariants.js';
import { renderOverlay } from './support/infra/components.js';
import { CONTRACT_VERSION } from '@green-impact/gateway/v1/openapi';
import { brokerPorts, managedKafkaProblems } from './support/infra/managed-kafka.js';

// The system as the issue describes it; every check below compares the manifests with this.
// Metrics: each gRPC service on its gRPC port + 1000 (services/shared/src/service-main.ts), the gateway on its HTTP port.
const WORKLOADS: RuntimeSpec['workloads'] = {
  identity: { port: 50051, probe: 'grpc', metricsPort: 51051 },
  taxonomy: { port: 50052, probe: 'grpc', metricsPort: 51052 },
  portfolio: { port: 50053, probe: 'grpc', metricsPort: 51053 },
  chain: { port: 50054, probe: 'grpc', metricsPort: 51054 },
  gateway: { port: 8080, probe: 'http', metricsPort: 8080 },
};
const WORKLOAD_DIR: Record<string, string> = { identity: 'services/identity', taxonomy: 'services/taxonomy', portfolio: 'services/portfolio', chain: 'services/chain', gateway: 'gateway' };
const MIGRATIONS = ['identity', 'taxonomy', 'portfolio', 'chain'];
const CALLS = ['gateway -> chain:50054', 'gateway -> identity:50051', 'gateway -> portfolio:50053', 'gateway -> taxonomy:50052', 'portfolio -> taxonomy:50052'];
const EXTERNAL_SECRETS = ['identity-secrets', 'taxonomy-secrets', 'portfolio-secrets', 'chain-secrets', 'chain-networks', 'chain-signer-keys', 'gateway-secrets'];
const CANDIDATE_PORTS = ['53/UDP', '53/TCP', '80/TCP', '443/TCP', '465/TCP', '587/TCP', '4317/TCP', '4318/TCP', '5001/TCP', '5432/TCP', '6379/TCP', '8080/TCP', '9092/TCP'];
const DNS = ['53/UDP', '53/TCP'];
// The parties outside the namespace the policies name (as the overlays set them).
const KUBE_DNS: Outsider = { namespace: { 'kubernetes.io/metadata.name': 'kube-system' }, pod: { 'k8s-app': 'kube-dns' } };
const PROMETHEUS: Outsider = { namespace: { 'kubernetes.io/metadata.name': 'monitoring' }, pod: { 'app.kubernetes.io/name': 'prometheus' } };
const COLLECTOR: Outsider = { namespace: { 'kubernetes.io/metadata.name': 'observability' }, pod: { 'app.kubernetes.io/name': 'opentelemetry-collector' } };
// The external Redis the prod overlay and rateLimit.redis assume (namespace redis, port 6379).
const REDIS: Outsider = { namespace: { 'kubernetes.io/metadata.name': 'redis' }, pod: { 'app.kubernetes.io/name': 'redis' } };
const RUNTIME: RuntimeSpec = { workloads: WORKLOADS, collector: COLLECTOR, closeMarginSeconds: 5 };
// GraphQL subscriptions are WebSockets on /graphql; through the Ingress they may stay quiet for an hour.
const INGRESS: IngressSpec = { websocketPaths: ['/graphql'], websocketTimeoutSeconds: 3600 };

// PostgreSQL as base/network-policies.yaml names it (label app.kubernetes.io/name=postgres, any namespace).
const POSTGRES: Outsider = { namespace: { 'kubernetes.io/metadata.name': 'databases' }, pod: { 'app.kubernetes.io/name': 'postgres' } };
// A broker of the Strimzi cluster green-impact in the namespace (KAFKA_BROKERS).
const KAFKA: Workload = { name: 'kafka', labels: { 'strimzi.io/cluster': 'green-impact', 'strimzi.io/kind': 'Kafka' }, ports: [{ port: 9092, protocol: 'TCP' }] };
const KAFKA_CLIENTS = ['gateway', 'identity', 'taxonomy', 'portfolio', 'chain'];
// components/managed-kafka: the SASL settings and the brokers' CA, provided outside Git.
const MANAGED_KAFKA_SECRETS = ['kafka-credentials', 'kafka-ca'];

/**
 * What each workload may send to a party outside the namespace, by what the party is: DNS to kube-dns,
 * 5432 to PostgreSQL, 6379 to Redis where configured; and from the chain service the public internet's
 * RPC (443) and, in prod, SMTP ports, which any outside address may be. Nothing else, to nobody else.
 */
function outsideEgress(party: { dns?: boolean; postgres?: boolean; redis?: boolean }, chainInternet: string[], withPostgresPod: boolean): Record<string, string[]> {
  const only = (...ports: string[]) => CANDIDATE_PORTS.filter((p) => [...(party.dns ? DNS : []), ...ports].includes(p));
  const db = party.postgres ? ['5432/TCP'] : [];
  return {
    gateway: only(...(party.redis ? ['6379/TCP'] : [])),
    identity: only(...db),
    taxonomy: only(...db),
    portfolio: only(...db),
    chain: only('443/TCP', ...chainInternet, ...db),
    ...Object.fromEntries(MIGRATIONS.map((s) => [`${s}-migrate`, only(...db)])),
    ...(withPostgresPod ? { postgres: only() } : {}),
  };
}

/** What each workload may send to the collector: OTLP/HTTP from the gateway and the services, where tracing is on. */
function collectorEgress(objects: K8sObject[], tracing: boolean): Record<string, string[]> {
  return Object.fromEntries(workloadsOf(objects).map(({ name }) => [name, tracing && Object.hasOwn(WORKLOADS, name) ? ['4318/TCP'] : []]));
}

const infra = (...p: string[]) => join(repoRoot, 'infra', ...p);
const skipUnbuiltServices = skipUnbuilt('services/identity/dist/index.js');
const operationsDoc = existsSync(join(repoRoot, 'docs/operations.md')) ? readFileSync(join(repoRoot, 'docs/operations.md'), 'utf8') : '';

/**
 * The gateway's limits, read from the rendered environment by its own loader: every limit written out and
 * accepted, no explorer in production, and behind an Ingress one trusted proxy (else every client shares
 * the Ingress controller's address and its per-address bucket).
 */
function assertGatewaySettings(env: GatewayEnv | undefined, behindIngress: boolean) {
  assert.ok(env, 'no gateway Deployment');
  const { problems, config } = gatewaySettings(env);
  assert.deepEqual(problems, [], 'gateway settings: explicit, and accepted by loadGatewayConfig');
  if (env.values['NODE_ENV'] === 'production') assert.equal(config?.graphql.explorer, false, 'no GraphQL explorer in production');
  if (behindIngress) assert.equal(config?.trustProxy, 1, 'behind the Ingress TRUST_PROXY must be 1');
}

async function assertSchemaValid(objects: K8sObject[]) {
  const errors = (await Promise.all(objects.map(schemaErrors))).flat();
  assert.deepEqual(errors, []);
}

/** The checks every rendering of the system passes (kustomize base and overlays). */
function assertSystem(
  objects: K8sObject[],
  spec: Omit<SystemSpec, 'workloads' | 'migrations'>,
  net: { edges: string[]; chainEgress: string[]; postgresPod: boolean; tracing: boolean; redis: boolean },
) {
  assert.deepEqual(systemProblems(objects, { workloads: WORKLOADS, migrations: MIGRATIONS, ...spec }), []);
  assert.deepEqual(runtimeProblems(objects, RUNTIME), [], 'metrics, traces and shutdown as the processes expect them');
  assert.deepEqual(allowedEdges(objects), [...net.edges].sort(), 'pod-to-pod traffic is exactly the call graph');
  assert.deepEqual(reachableFrom(objects, STRANGER), ['gateway:8080'], 'only the gateway is reachable from outside');
  const scraped = Object.entries(WORKLOADS).map(([n, w]) => `${n}:${w.metricsPort}`).sort();
  assert.deepEqual(reachableFrom(objects, PROMETHEUS), scraped, 'Prometheus reaches the metrics ports and nothing else');
  assert.deepEqual(openEgressRules(objects), [], 'every egress rule names its target');
  assert.deepEqual(egressTo(objects, STRANGER, CANDIDATE_PORTS), outsideEgress({}, net.chainEgress, net.postgresPod), 'to anyone else: only the chain\'s internet ports');
  assert.deepEqual(egressTo(objects, KUBE_DNS, CANDIDATE_PORTS), outsideEgress({ dns: true }, net.chainEgress, net.postgresPod));
  assert.deepEqual(egressTo(objects, POSTGRES, CANDIDATE_PORTS), outsideEgress({ postgres: true }, net.chainEgress, net.postgresPod), 'PostgreSQL from the services and migrations only');
  const kafka = egressTo(objects, KAFKA, CANDIDATE_PORTS);
  assert.deepEqual(Object.keys(kafka).filter((w) => kafka[w]!.length > 0).sort(), [...KAFKA_CLIENTS].sort(), 'Kafka from the gateway and the services only');
  for (const w of KAFKA_CLIENTS) assert.deepEqual(kafka[w], ['9092/TCP'], `${w} to Kafka`);
  assert.deepEqual(egressTo(objects, COLLECTOR, ['4317/TCP', '4318/TCP']), collectorEgress(objects, net.tracing));
  const gateway = gatewayEnvOf(objects);
  const behindIngress = objects.some((o) => o.kind === 'Ingress');
  assertGatewaySettings(gateway, behindIngress);
  if (behindIngress) assert.deepEqual(ingressProblems(objects, gateway?.values ?? {}, INGRESS), [], 'the Ingress lets the gateway\'s limits and WebSockets through');
  // Redis: REDIS_URL from a Secret and the egress to Redis's port come together, or neither.
  assert.equal(gateway?.fromSecrets['REDIS_URL'] !== undefined, net.redis, net.redis ? 'REDIS_URL must come from a Secret' : 'no REDIS_URL here');
  assert.deepEqual(egressTo(objects, REDIS, CANDIDATE_PORTS), outsideEgress({ redis: net.redis }, net.chainEgress, net.postgresPod), 'Redis on 6379, from the gateway only, only where configured');
}

describe('container image (infra/docker/Dockerfile, read statically: no Docker engine runs here)', () => {
  const dockerfile = parseDockerfile(readFileSync(infra('docker/Dockerfile'), 'utf8'));
  const stage = (name: string) => dockerfile.stages.find((s) => s.name === name);

  it('builds with npm ci and npm run build, installs each service with --omit=dev, copies only from earlier stages', () => {
    const runs = (name: string) => (stage(name)?.instructions ?? []).filter((i) => i.keyword === 'RUN').map((i) => i.args).join('\n');
    assert.match(runs('build'), /npm ci\b/);
    assert.match(runs('build'), /npm run build/);
    assert.match(runs('prod-deps'), /npm ci --omit=dev .*--workspace=/);
    dockerfile.stages.forEach((s, i) => {
      for (const ins of s.instructions) {
        const from = /--from=(\S+)/.exec(ins.args)?.[1];
        if (from) assert.ok(dockerfile.stages.slice(0, i).some((e) => e.name === from), `${s.name}: COPY --from=${from} names no earlier stage`);
      }
    });
    const rootPkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { workspaces: string[] };
    const copied = (stage('manifests')?.instructions ?? []).filter((i) => i.keyword === 'COPY').map((i) => i.args);
    for (const ws of rootPkg.workspaces) assert.ok(copied.some((c) => c.startsWith(`${ws}/package.json `)), `manifests stage must copy ${ws}/package.json (npm ci needs every workspace)`);
  });

  for (const [name, w] of Object.entries(WORKLOADS)) {
    it(`target ${name}: distroless non-root, no RUN, its entry, port and HEALTHCHECK`, () => {
      const s = stage(name);
      assert.ok(s, `no stage named ${name}`);
      assert.match(s.base, /^gcr\.io\/distroless\/nodejs22-debian12(:nonroot|@sha256:)/);
      const of = (kw: string) => s.instructions.filter((i) => i.keyword === kw);
      assert.deepEqual(of('RUN'), [], 'a runtime stage has no shell, no package manager, no build tools');
      const user = of('USER').at(-1)?.args ?? '';
      assert.match(user, /^[1-9]\d*(:\d+)?$/, 'USER must be a numeric non-root uid (kubelet checks runAsNonRoot against it)');
      const cmd = execForm(of('CMD').at(-1)?.args ?? '');
      // The tracing register module hooks the instrumentations in before the entry's modules load.
      assert.deepEqual(cmd, ['--import', '@green-impact/shared/tracing/register', `${WORKLOAD_DIR[name]}/dist/index.js`]);
      assert.ok(existsSync(join(repoRoot, `${WORKLOAD_DIR[name]}/src/index.ts`)), 'the entry is built from src/index.ts');
      assert.equal(of('EXPOSE').at(-1)?.args, String(w.port));
      const health = execForm(of('HEALTHCHECK').at(-1)?.args ?? '');
      assert.deepEqual(health?.slice(1, 4), ['/app/healthcheck.mjs', w.probe, String(w.port)]);
      assert.ok(of('COPY').every((c) => /--from=assemble\b/.test(c.args)), 'runtime files come from the assemble stage only');
      assert.ok(of('ENV').some((e) => /NODE_ENV=production/.test(e.args)));
    });
  }

  it('Dockerfile.dockerignore keeps dependencies, build output and Git out of the context', () => {
    const ignored = readFileSync(infra('docker/Dockerfile.dockerignore'), 'utf8').split('\n').map((l) => l.trim());
    for (const p of ['**/node_modules', '**/dist', '.git', 'data']) assert.ok(ignored.includes(p), `${p} must be ignored`);
  });

  it('each image holds its entry, proto sources, contracts and every import it makes, and no tests', { skip: skipUnbuiltServices }, () => {
    const healthcheck = { file: 'healthcheck.mjs', text: readFileSync(infra('docker/healthcheck.mjs'), 'utf8') };
    for (const name of Object.keys(WORKLOADS)) {
      const files = imageFileList(name);
      assert.ok(files.includes(`${WORKLOAD_DIR[name]}/dist/index.js`), `${name}: entry missing`);
      assert.ok(files.includes('services/shared/dist/tracing/register.js'), `${name}: the tracing register module (CMD --import) missing`);
      if (existsSync(join(repoRoot, `${WORKLOAD_DIR[name]}/src/migrate.ts`))) assert.ok(files.includes(`${WORKLOAD_DIR[name]}/dist/migrate.js`), `${name}: migrate entry missing`);
      assert.ok(files.some((f) => /^proto\/greenimpact\/.+\.proto$/.test(f)), `${name}: proto sources missing`);
      if (name === 'chain') assert.ok(files.includes('services/chain/generated/contracts.json'), 'chain: compiled contracts missing');
      assert.deepEqual(files.filter((f) => /\.test\.|\.map$|\.d\.ts$/.test(f)), [], `${name}: tests or build leftovers`);
      assert.deepEqual(missingAtRuntime(files, [healthcheck]), [], name);
    }
  });

  it('target pdf-renderer: Debian with chromium (a browser needs a distribution), non-root, the renderer entry and its files', { skip: skipUnbuiltServices }, () => {
    const s = stage('pdf-renderer');
    assert.ok(s, 'no stage named pdf-renderer');
    assert.match(s.base, /^node:22-bookworm-slim(@sha256:|$)/, 'the build stages\' Debian Node image');
    const of = (kw: string) => s.instructions.filter((i) => i.keyword === kw);
    assert.match(of('RUN').map((r) => r.args).join('\n'), /apt-get install -y --no-install-recommends chromium\b/);
    assert.match(of('USER').at(-1)?.args ?? '', /^[1-9]\d*(:\d+)?$/);
    assert.deepEqual(execForm(of('CMD').at(-1)?.args ?? ''), ['--import', '@green-impact/shared/tracing/register', 'services/shared/dist/pdf/main.js']);
    assert.equal(of('EXPOSE').at(-1)?.args, '4010');
    assert.ok(of('ENV').some((e) => /CHROMIUM_PATH=\/usr\/bin\/chromium/.test(e.args)));
    const files = imageFileList('shared');
    assert.ok(files.includes('services/shared/dist/pdf/main.js') && files.includes('services/shared/dist/tracing/register.js'));
    assert.deepEqual(missingAtRuntime(files, [{ file: 'healthcheck.mjs', text: readFileSync(infra('docker/healthcheck.mjs'), 'utf8') }]), []);
  });
});

describe('Kubernetes manifests (infra/k8s)', () => {
  const base = infra('k8s/base');
  const rawBase = [...kustomizationResources(base), ...generatedObjects(base)];

  it('every base object is valid against the Kubernetes schema (kubernetes-models, offline)', async () => {
    await assertSchemaValid(rawBase);
  });

  it('base: security, probes, resources, HPA/PDB, config refs, migrations Jobs and NetworkPolicies', () => {
    assertSystem(rawBase, { externalSecrets: EXTERNAL_SECRETS, secretObjectsAllowed: false }, { edges: CALLS, chainEgress: [], postgresPod: false, tracing: false, redis: false });
  });

  it('every migrations Job runs an entry that exists in the source (services/<name>/src/migrate.ts)', () => {
    const missing = MIGRATIONS.filter((s) => !existsSync(join(repoRoot, `services/${s}/src/migrate.ts`)));
    assert.deepEqual(missing, [], 'the Job runs node services/<name>/dist/migrate.js: add src/migrate.ts (see services/identity/src/migrate.ts)');
  });

  for (const overlay of ['dev', 'prod']) {
    it(`overlays/${overlay}: every file exists, every patch and image names something in the base`, () => {
      const dir = infra('k8s/overlays', overlay);
      const k = readKustomization(dir);
      for (const p of [...(k['resources'] ?? []), ...(k['components'] ?? []), ...((k['patches'] ?? []) as { path?: string }[]).flatMap((p) => (p.path ? [p.path] : []))]) {
        assert.ok(existsSync(join(dir, p)), `${overlay}: ${p} does not exist`);
      }
      const objects = kustomizationResources(dir);
      const exists = (kind: string, name?: string) => objects.some((o) => o.kind === kind && (name === undefined || o.metadata.name === name));
      for (const p of (k['patches'] ?? []) as { path?: string; target?: { kind: string; name?: string } }[]) {
        if (p.target) assert.ok(exists(p.target.kind, p.target.name), `${overlay}: patch target ${p.target.kind}/${p.target.name ?? '*'} matches nothing`);
        if (p.path) for (const o of readYamlFile(join(dir, p.path))) assert.ok(exists(o.kind, o.metadata.name), `${overlay}: ${p.path} patches ${o.kind}/${o.metadata.name}, which is not there`);
      }
      const images = new Set(objects.flatMap((o) => (o['spec']?.template?.spec?.containers ?? []).map((c: { image: string }) => c.image.split(':')[0])));
      for (const i of (k['images'] ?? []) as { name: string }[]) assert.ok(images.has(i.name), `${overlay}: image ${i.name} is used by nothing`);
      const baseGenerators = (readKustomization(base)['configMapGenerator'] as { name: string }[]).map((g) => g.name);
      for (const g of (k['configMapGenerator'] ?? []) as { name: string; behavior?: string }[]) {
        if (g.behavior === 'merge') assert.ok(baseGenerators.includes(g.name), `${overlay}: merges into ${g.name}, which the base does not generate`);
      }
    });
  }

  it('components/ingress, unrendered: a Component whose Ingresses let the base gateway\'s limits and WebSockets through', () => {
    assert.equal(readKustomization(infra('k8s/components/ingress'))['kind'], 'Component');
    const ingresses = kustomizationResources(infra('k8s/components/ingress'));
    assert.deepEqual(ingresses.map((o) => o.kind), ['Ingress', 'Ingress']);
    const objects = [...kustomizationResources(base), ...ingresses, ...generatedObjects(base)];
    assert.deepEqual(ingressProblems(objects, gatewayEnvOf(objects)?.values ?? {}, INGRESS), []);
  });

  it('components/kafka-topics: Strimzi KafkaTopics for the chain service\'s and identity\'s topics', () => {
    const topics = kustomizationResources(infra('k8s/components/kafka-topics'));
    assert.equal(readKustomization(infra('k8s/components/kafka-topics'))['kind'], 'Component');
    const schema = readFileSync(join(repoRoot, 'services/chain/src/schema.ts'), 'utf8');
    const names = [...schema.matchAll(/export const TOPIC_\w+ = '([^']+)'/g)].map((m) => m[1]);
    assert.deepEqual(topics.map((t) => t['spec'].topicName).sort(), ['chain.job-events', 'chain.jobs', IDENTITY_EVENTS_TOPIC, TAXONOMY_EVENTS_TOPIC]);
    assert.deepEqual([...names].sort(), ['chain.job-events', 'chain.jobs'], 'the topics the chain service uses');
    for (const t of topics) assert.deepEqual(kafkaTopicErrors(t), [], t.metadata.name);
  });

  it('components/redis-rate-limit: the gateway\'s REDIS_URL from the Secret gateway-secrets, required, and a policy for Redis', () => {
    const dir = infra('k8s/components/redis-rate-limit');
    const k = readKustomization(dir);
    assert.equal(k['kind'], 'Component');
    const baseObjects = kustomizationResources(base);
    for (const p of (k['patches'] ?? []) as { path: string }[]) {
      for (const o of readYamlFile(join(dir, p.path))) assert.ok(baseObjects.some((b) => b.kind === o.kind && b.metadata.name === o.metadata.name), `${p.path} patches ${o.kind}/${o.metadata.name}, which the base does not have`);
    }
    const patched = ((k['patches'] ?? []) as { path: string }[]).flatMap((p) => readYamlFile(join(dir, p.path)));
    const env = patched.flatMap((o) => (o['spec']?.template?.spec?.containers ?? []).flatMap((c: { env?: unknown[] }) => c.env ?? []));
    assert.deepEqual(env, [{ name: 'REDIS_URL', valueFrom: { secretKeyRef: { name: 'gateway-secrets', key: 'REDIS_URL', optional: false } } }]);
    const policies = kustomizationResources(dir);
    assert.deepEqual(policies.map((p) => p.kind), ['NetworkPolicy']);
    assert.deepEqual(egressTo([...baseObjects, ...policies], REDIS, ['6379/TCP'])['gateway'], ['6379/TCP']);
  });

  it('ingress-nginx: the controller\'s access log keeps no query string (document-link signatures, old claim links) and no Referer', () => {
    const dir = infra('k8s/ingress-nginx');
    assert.equal(readKustomization(dir)['namespace'], 'ingress-nginx', 'the controller\'s namespace, not the application\'s');
    assert.deepEqual(accessLogProblems(kustomizationResources(dir)), []);
    // The check itself: nginx's default format is caught.
    const nginxDefault = '$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" $request_length $request_time';
    const withDefault = [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ingress-nginx-controller' }, data: { 'log-format-upstream': nginxDefault } }];
    assert.deepEqual(accessLogProblems(withDefault as K8sObject[]), ['log-format-upstream uses $request', 'log-format-upstream uses $http_referer', 'log-format-upstream logs no path ($uri)']);
    assert.match(operationsDoc, /infra\/k8s\/ingress-nginx/, 'docs/operations.md tells operators to apply it');
  });

  it('docs/operations.md names every Secret production provides', () => {
    for (const s of [...EXTERNAL_SECRETS, 'gateway-tls', ...MANAGED_KAFKA_SECRETS]) assert.ok(operationsDoc.includes(s), `docs/operations.md must describe Secret ${s}`);
  });

  it('docs/operations.md: a managed Kafka worked through, the entry by Gateway API or Ingress, the CORS origins', () => {
    for (const text of ['components/managed-kafka', 'KAFKA_BROKERS=', 'components/gateway-api', 'components/ingress', 'CORS_ALLOWED_ORIGINS']) {
      assert.ok(operationsDoc.includes(text), `docs/operations.md must explain ${text}`);
    }
  });

  describe('rendered with kubectl kustomize', { skip: skipWithoutKubectl && `${skipWithoutKubectl}: overlays checked structurally only` }, () => {
    const render = (dir: string) => renderWith('kubectl', ['kustomize', dir], dir);

    it('ingress-nginx renders the controller\'s ConfigMap in its namespace with a log format without query strings', async () => {
      const objects = render(infra('k8s/ingress-nginx'));
      await assertSchemaValid(objects);
      assert.deepEqual(objects.map((o) => `${o.kind}/${o.metadata['namespace']}/${o.metadata.name}`), ['ConfigMap/ingress-nginx/ingress-nginx-controller']);
      assert.deepEqual(accessLogProblems(objects), []);
    });

    it('base renders, validates and keeps the invariants', async () => {
      const objects = render(base);
      await assertSchemaValid(objects);
      assertSystem(objects, { externalSecrets: EXTERNAL_SECRETS, secretObjectsAllowed: false }, { edges: CALLS, chainEgress: [], postgresPod: false, tracing: false, redis: false });
    });

    it('dev: self-contained (every Secret generated, a PostgreSQL pod reachable by the services only), one replica', async () => {
      const dev = devOverlayWithSecrets();
      let objects: K8sObject[];
      try {
        dev.makeSecrets();
        objects = render(dev.overlay);
      } finally {
        dev.remove();
      }
      await assertSchemaValid(objects);
      const dbClients = [...MIGRATIONS, ...MIGRATIONS.map((s) => `${s}-migrate`)].map((c) => `${c} -> postgres:5432`);
      assertSystem(objects, { externalSecrets: [], secretObjectsAllowed: true }, { edges: [...CALLS, ...dbClients], chainEgress: [], postgresPod: true, tracing: false, redis: false });
      for (const h of objects.filter((o) => o.kind === 'HorizontalPodAutoscaler')) assert.equal(h['spec'].maxReplicas, 1, h.metadata.name);
      // The development caller keys pair up: the services trust exactly the gateway's and portfolio's public halves.
      const secret = (name: string) => Buffer.from(objects.find((o) => o.kind === 'Secret' && o.metadata.name.startsWith(`${name}-`))!['data'].CALLER_SIGNING_KEY, 'base64').toString();
      const config = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('green-impact-config-'))!['data'];
      const trusted = loadCallerTrust(envReader({ CALLER_TRUSTED_KEYS: config.CALLER_TRUSTED_KEYS }), { verifies: true });
      for (const [issuer, owner] of [['gateway', 'gateway-secrets'], ['portfolio', 'portfolio-secrets']] as const) {
        const signer = callerTrust({ signing: { [issuer]: parsePrivateKey(owner, secret(owner)).privateKey }, trusted: new Map() }).signer(issuer);
        const token = signer.token({ accountId: 'a', role: 'user' }, 'greenimpact.taxonomy.v1.TaxonomyService');
        await trusted.verifier.verify(token, 'greenimpact.taxonomy.v1.TaxonomyService', 'ConvertAmounts');
      }
      assert.ok(objects.every((o) => o.kind === 'Namespace' || o.metadata['namespace'] === 'green-impact-dev'));
    });

    it('prod: no Secret in Git, real networks required, registry images, an HTTPRoute (no Ingress) for the gateway, Kafka topics', async () => {
      const objects = render(infra('k8s/overlays/prod'));
      await assertSchemaValid(objects);
      assertSystem(objects, { externalSecrets: EXTERNAL_SECRETS, secretObjectsAllowed: false }, { edges: CALLS, chainEgress: ['465/TCP', '587/TCP'], postgresPod: false, tracing: true, redis: true });
      const chain = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'chain')!['spec'].template.spec;
      const networks = chain.containers[0].env.find((e: { name: string }) => e.name === 'CHAIN_NETWORKS');
      assert.equal(networks.valueFrom.secretKeyRef.optional, false, 'prod never falls back to the embedded networks');
      assert.equal(chain.volumes.find((v: { name: string }) => v.name === 'signer-keys').secret.optional, false);
      for (const o of objects) {
        for (const c of o['spec']?.template?.spec?.containers ?? []) assert.match(c.image, /^[a-z0-9.-]+\.[a-z]+(:\d+)?\/.+:\d+\.\d+\.\d+$/, `${o.metadata.name}: registry image with a release tag`);
      }
      assert.deepEqual(objects.filter((o) => o.kind === 'KafkaTopic').map((t) => t['spec'].topicName).sort(), ['chain.job-events', 'chain.jobs', IDENTITY_EVENTS_TOPIC, TAXONOMY_EVENTS_TOPIC]);
      assert.deepEqual(objects.filter((o) => o.kind === 'HTTPRoute' || o.kind === 'Ingress').map((o) => `${o.kind}/${o.metadata.name}`), ['HTTPRoute/gateway'], 'the Gateway API by default; ingress-nginx only as the option');
      const cors = gatewayEnvOf(objects)?.values['CORS_ALLOWED_ORIGINS'];
      assert.equal(cors, '', 'CORS origins written out, none by default');
    });

    it('prod: every image is tagged with the API contract version it serves (CONTRACT_VERSION)', () => {
      const objects = render(infra('k8s/overlays/prod'));
      const tags = new Set(objects.flatMap((o) => (o['spec']?.template?.spec?.containers ?? []).map((c: { image: string }) => c.image.split(':').at(-1))));
      assert.deepEqual([...tags], [CONTRACT_VERSION]);
    });

    it('small-prod: the prod overlay with one replica of each workload and no Redis, and the system\'s invariants kept', async () => {
      const objects = render(infra('k8s/overlays/small-prod'));
      await assertSchemaValid(objects);
      assertSystem(objects, { externalSecrets: EXTERNAL_SECRETS, secretObjectsAllowed: false }, { edges: CALLS, chainEgress: ['465/TCP', '587/TCP'], postgresPod: false, tracing: true, redis: false });
      const hpas = objects.filter((o) => o.kind === 'HorizontalPodAutoscaler');
      assert.deepEqual(hpas.map((h) => [h.metadata.name, h['spec'].minReplicas, h['spec'].maxReplicas]).sort(), Object.keys(WORKLOADS).sort().map((n) => [n, 1, 1]));
      const gateway = gatewayEnvOf(objects)!;
      assert.equal(gateway.fromSecrets['REDIS_URL'], undefined, 'no REDIS_URL: limits in the one replica\'s memory');
      assert.ok(gatewaySettings(gateway).config, 'the gateway takes these settings');
      assert.equal(objects.find((o) => o.metadata.name === 'gateway-redis-egress'), undefined);
      const chain = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'chain')!['spec'].template.spec;
      assert.equal(chain.containers[0].env.find((e: { name: string }) => e.name === 'CHAIN_NETWORKS').valueFrom.secretKeyRef.optional, false, 'real networks, as prod');
    });

    it('prod with components/ingress: the ingress-nginx Ingresses, with the gateway\'s limits and WebSockets let through', async () => {
      const objects = renderOverlay(['overlays/prod'], ['components/ingress']);
      await assertSchemaValid(objects);
      assert.deepEqual(objects.filter((o) => o.kind === 'Ingress').map((o) => o.metadata.name).sort(), ['gateway', 'gateway-websocket']);
      // assertSystem checks the Ingresses (ingressProblems) and TRUST_PROXY=1 wherever an Ingress renders.
      assertSystem(objects, { externalSecrets: EXTERNAL_SECRETS, secretObjectsAllowed: false }, { edges: CALLS, chainEgress: ['465/TCP', '587/TCP'], postgresPod: false, tracing: true, redis: true });
    });

    it('prod with components/pdf-renderer: the renderer validates, takes the gateway and Prometheus only, reaches nothing; the gateway gets PDF_RENDERER_URL', async () => {
      const objects = renderOverlay(['overlays/prod'], ['components/pdf-renderer']);
      await assertSchemaValid(objects);
      const deployment = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'pdf-renderer');
      assert.ok(deployment, 'the renderer Deployment');
      const pod = deployment['spec'].template.spec;
      assert.equal(pod.securityContext.runAsNonRoot, true);
      assert.equal(pod.containers[0].securityContext.readOnlyRootFilesystem, true);
      assert.match(pod.containers[0].image, /\/pdf-renderer:\d+\.\d+\.\d+$/, 'its image, at a release tag');
      assert.deepEqual([pod.containers[0].readinessProbe.httpGet.path, pod.containers[0].livenessProbe.httpGet.path], ['/readyz', '/healthz']);
      const policy = objects.find((o) => o.kind === 'NetworkPolicy' && o.metadata.name === 'pdf-renderer')!;
      assert.deepEqual(policy['spec'].policyTypes, ['Ingress', 'Egress']);
      assert.deepEqual(policy['spec'].egress, [], 'no egress of its own');
      // Only the base's DNS policy selects it besides its own: no other egress reaches it.
      const selecting = objects.filter((o) => o.kind === 'NetworkPolicy' && o['spec'].policyTypes.includes('Egress') && (o['spec'].egress ?? []).length > 0)
        .filter((o) => Object.keys(o['spec'].podSelector).length === 0 || o['spec'].podSelector.matchLabels?.app === 'pdf-renderer' || (o['spec'].podSelector.matchExpressions ?? []).some((e: { values: string[] }) => e.values.includes('renderer')));
      assert.deepEqual(selecting.map((o) => o.metadata.name), ['allow-dns']);
      assert.equal(gatewayEnvOf(objects)?.values['PDF_RENDERER_URL'], 'http://pdf-renderer:4010');
      const toRenderer = objects.find((o) => o.kind === 'NetworkPolicy' && o.metadata.name === 'gateway-pdf-renderer-egress')!;
      assert.deepEqual(toRenderer['spec'].egress, [{ to: [{ podSelector: { matchLabels: { app: 'pdf-renderer' } } }], ports: [{ port: 4010, protocol: 'TCP' }] }]);
    });

    it('prod with components/managed-kafka: SASL from a Secret, TLS with the mounted CA, egress on the brokers\' port only', async () => {
      const brokers = ['b-1', 'b-2', 'b-3'].map((b) => `${b}.green-impact.abc123.c2.kafka.eu-west-1.amazonaws.com:9096`).join(',');
      const merge = `configMapGenerator:\n  - name: green-impact-config\n    behavior: merge\n    literals:\n      - KAFKA_BROKERS=${brokers}\n`;
      const objects = renderOverlay(['overlays/prod'], ['components/managed-kafka'], merge);
      await assertSchemaValid(objects);
      const spec = { workloads: WORKLOADS, migrations: MIGRATIONS, externalSecrets: [...EXTERNAL_SECRETS, ...MANAGED_KAFKA_SECRETS], secretObjectsAllowed: false };
      assert.deepEqual(systemProblems(objects, spec), [], 'both Secrets documented as external, every other invariant kept');
      assert.deepEqual(runtimeProblems(objects, RUNTIME), []);
      assert.deepEqual(managedKafkaProblems(objects, KAFKA_CLIENTS, { credentials: 'kafka-credentials', ca: 'kafka-ca' }), []);
      assertGatewaySettings(gatewayEnvOf(objects), false);
      assert.deepEqual(allowedEdges(objects), [...CALLS].sort(), 'pod-to-pod traffic is still exactly the call graph');
      assert.deepEqual(reachableFrom(objects, STRANGER), ['gateway:8080']);
      assert.deepEqual(openEgressRules(objects), [], 'the brokers\' rule names its addresses');
      // The brokers are outside the cluster: every client may reach the port KAFKA_BROKERS names, and only that one.
      const ports = brokerPorts(objects);
      assert.deepEqual(ports, ['9096/TCP']);
      const kafkaPorts = ['9092/TCP', '9093/TCP', '9094/TCP', '9096/TCP', '9098/TCP'];
      const expected = Object.fromEntries(workloadsOf(objects).map(({ name }) => [name, KAFKA_CLIENTS.includes(name) ? ports : []]));
      assert.deepEqual(egressTo(objects, STRANGER, kafkaPorts), expected, 'the egress port is the brokers\' port, for the Kafka clients only');
      assert.deepEqual(Object.values(egressTo(objects, KAFKA, ['9092/TCP'])).flat(), [], 'no egress left to the Strimzi pods');
    });

    it('prod with components/deploy-contracts: a Job running the deployment command on the chain image with the chain\'s networks and signer keys', async () => {
      const objects = renderOverlay(['overlays/prod'], ['components/deploy-contracts']);
      await assertSchemaValid(objects);
      const job = objects.find((o) => o.kind === 'Job' && o.metadata.name === 'chain-deploy-contracts');
      assert.ok(job, 'the Job');
      const pod = job['spec'].template.spec;
      const chain = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'chain')!['spec'].template.spec;
      const [container] = pod.containers;
      // Rendered here beside the overlay, so the overlay's images: rename does not reach it; inside an overlay's components it does.
      assert.equal(container.image.split(':')[0], chain.containers[0].image.split(':')[0].replace(/^.*\/(green-impact\/)/, '$1'), 'the chain service\'s image');
      assert.ok(existsSync(join(repoRoot, container.args[0].replace('/dist/', '/src/').replace(/\.js$/, '.ts'))), `${container.args[0]} has a source`);
      const networks = container.env.find((e: { name: string }) => e.name === 'CHAIN_NETWORKS');
      assert.deepEqual(networks.valueFrom.secretKeyRef, { name: 'chain-networks', key: 'networks.json' });
      const mountOf = (spec: typeof pod, volume: string) => spec.containers[0].volumeMounts.find((m: { name: string }) => m.name === volume)?.mountPath;
      assert.equal(mountOf(pod, 'signer-keys'), mountOf(chain, 'signer-keys'), 'signerKeyFile paths of networks.json resolve in the Job as in the service');
      assert.equal(pod.volumes.find((v: { name: string }) => v.name === 'signer-keys').secret.secretName, 'chain-signer-keys');
      assert.equal(pod.securityContext.runAsNonRoot, true);
      assert.equal(container.securityContext.readOnlyRootFilesystem, true);
      assert.equal(job.metadata['annotations']?.['argocd.argoproj.io/hook'], 'Sync');
    });

    it('prod with components/without-chain: no chain workload, no chain Secret referenced, the gateway without CHAIN_GRPC_ADDR', async () => {
      const objects = renderOverlay(['overlays/prod'], ['components/without-chain']);
      await assertSchemaValid(objects);
      const workloads = objects.filter((o) => ['Deployment', 'Job', 'Service', 'HorizontalPodAutoscaler', 'PodDisruptionBudget', 'ServiceAccount'].includes(o.kind));
      assert.deepEqual(workloads.filter((o) => o.metadata.name.startsWith('chain')).map((o) => `${o.kind}/${o.metadata.name}`), []);
      const text = JSON.stringify(workloads);
      for (const secret of ['chain-secrets', 'chain-networks', 'chain-signer-keys']) assert.ok(!text.includes(`"${secret}"`), `${secret} is not needed`);
      const gateway = gatewayEnvOf(objects)!;
      assert.equal(gateway.values['CHAIN_GRPC_ADDR'], '');
      const { config } = gatewaySettings(gateway);
      assert.ok(config, 'the gateway takes these settings');
      assert.equal(config.backends.chain, undefined, 'no chain backend');
    });

    it('the managed-Kafka checks catch an optional Secret, a CA off its Secret and TLS turned off', () => {
      const objects = renderOverlay(['overlays/prod'], ['components/managed-kafka']);
      const chain = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'chain')!['spec'].template.spec;
      chain.containers[0].env.find((e: { name: string }) => e.name === 'KAFKA_SASL_PASSWORD').valueFrom.secretKeyRef.optional = true;
      chain.volumes.find((v: { name: string }) => v.name === 'kafka-ca').secret.secretName = 'chain-secrets';
      chain.containers[0].env.find((e: { name: string }) => e.name === 'KAFKA_SSL').value = 'false';
      const problems = managedKafkaProblems(objects, KAFKA_CLIENTS, { credentials: 'kafka-credentials', ca: 'kafka-ca' });
      assert.deepEqual(problems.map((p) => p.replace(/:.*/, '')), Array(4).fill('Deployment/chain'), problems.join('\n'));
      assert.match(problems.join('\n'), /KAFKA_SASL_PASSWORD must come from Secret kafka-credentials/);
      assert.match(problems.join('\n'), /read-only mount of Secret kafka-ca/);
      assert.match(problems.join('\n'), /KAFKA_SSL must be true/);
      assert.match(problems.join('\n'), /the loader refuses the settings: KAFKA_SSL_CA_FILE, KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE need KAFKA_SSL=true/);
    });
  });
});

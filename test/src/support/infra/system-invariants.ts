import type { K8sObject } from './manifests.js';
import { selectorMatches } from './network-policy.js';
import { SECRET_NAME, configReferences, podProblems, podTemplateOf } from './pod-invariants.js';

type Obj = Record<string, any>;

export interface SystemSpec {
  /** Deployment name → its serving port and how it is probed. */
  workloads: Record<string, { port: number; probe: 'grpc' | 'http' }>;
  /** Services with a migrations Job running services/<name>/dist/migrate.js. */
  migrations: string[];
  /** Secrets the objects may refer to without holding them: created outside Git, listed in docs/operations.md. */
  externalSecrets: string[];
  /** Whether Secret objects may be among the objects (generated development secrets). */
  secretObjectsAllowed: boolean;
}

/** Everything wrong with a rendered (or raw) set of objects against the rules of the issue; [] when fine. */
export function systemProblems(objects: K8sObject[], spec: SystemSpec): string[] {
  const problems: string[] = [];
  const byKind = (kind: string) => objects.filter((o) => o.kind === kind);
  const configMaps = new Map<string, Record<string, string>>(byKind('ConfigMap').map((c) => [c.metadata.name, (c['data'] ?? {}) as Record<string, string>]));
  const secrets = new Map<string, Record<string, string>>(
    byKind('Secret').map((s) => [s.metadata.name, { ...((s['data'] ?? {}) as Record<string, string>), ...((s['stringData'] ?? {}) as Record<string, string>) }]),
  );
  const podOwners = objects.filter((o) => podTemplateOf(o) !== undefined);

  for (const o of podOwners) problems.push(...podProblems(o, configMaps));

  // Config only through ConfigMaps and Secrets, each of them there (or documented as provided outside).
  for (const o of podOwners) {
    for (const ref of configReferences(o)) {
      const store = ref.kind === 'ConfigMap' ? configMaps : secrets;
      const data = store.get(ref.name);
      const at = `${o.kind}/${o.metadata.name}: ${ref.kind} ${ref.name}${ref.key ? ` key ${ref.key}` : ''}`;
      if (data === undefined) {
        if (!ref.optional && !(ref.kind === 'Secret' && spec.externalSecrets.includes(ref.name))) problems.push(`${at} is neither here nor documented as external`);
      } else if (ref.key && !ref.optional && !Object.hasOwn(data, ref.key)) {
        problems.push(`${at} is missing`);
      }
    }
  }
  for (const [name, data] of configMaps) {
    for (const key of Object.keys(data)) if (SECRET_NAME.test(key)) problems.push(`ConfigMap/${name}: ${key} is a secret; put it in a Secret`);
  }
  if (!spec.secretObjectsAllowed) for (const name of secrets.keys()) problems.push(`Secret/${name}: secrets are created outside Git here`);

  // Deployments: the expected ones, probed natively, each with a Service, an HPA and a PDB.
  const deployments = byKind('Deployment');
  for (const name of Object.keys(spec.workloads)) {
    if (!deployments.some((d) => d.metadata.name === name)) problems.push(`Deployment/${name} is missing`);
  }
  for (const d of deployments) {
    const name = d.metadata.name;
    const at = `Deployment/${name}`;
    const expected = spec.workloads[name];
    const template: Obj = d['spec']?.template ?? {};
    const labels = (template['metadata']?.labels ?? {}) as Record<string, string>;
    if (!selectorMatches(d['spec']?.selector, labels) || Object.keys(d['spec']?.selector?.matchLabels ?? {}).length === 0) {
      problems.push(`${at}: selector does not select its own pods`);
    }
    const container: Obj = template['spec']?.containers?.[0] ?? {};
    if (expected?.probe === 'grpc') {
      for (const probe of ['readinessProbe', 'livenessProbe']) {
        if (container[probe]?.grpc?.port !== expected.port) problems.push(`${at}: ${probe} must be grpc on port ${expected.port}`);
      }
    } else if (expected?.probe === 'http') {
      if (container['readinessProbe']?.httpGet?.path !== '/readyz') problems.push(`${at}: readinessProbe must be httpGet /readyz`);
      if (container['livenessProbe']?.httpGet?.path !== '/healthz') problems.push(`${at}: livenessProbe must be httpGet /healthz`);
    }
    if (expected && !((container['ports'] ?? []) as Obj[]).some((p) => p['containerPort'] === expected.port)) problems.push(`${at}: does not expose ${expected.port}`);
    const hpa = byKind('HorizontalPodAutoscaler').find((h) => h['spec']?.scaleTargetRef?.kind === 'Deployment' && h['spec']?.scaleTargetRef?.name === name);
    if (!hpa) problems.push(`${at}: no HorizontalPodAutoscaler`);
    else {
      if (d['spec']?.replicas !== undefined) problems.push(`${at}: sets replicas although an HPA owns the count`);
      if (!(hpa['spec'].minReplicas >= 1 && hpa['spec'].maxReplicas >= hpa['spec'].minReplicas)) problems.push(`${at}: HPA bounds are inconsistent`);
    }
    if (!byKind('PodDisruptionBudget').some((p) => Object.keys(p['spec']?.selector?.matchLabels ?? {}).length > 0 && selectorMatches(p['spec']?.selector, labels))) {
      problems.push(`${at}: no PodDisruptionBudget selects its pods`);
    }
    if (!byKind('Service').some((s) => s['spec']?.selector && selectorMatches({ matchLabels: s['spec'].selector }, labels))) problems.push(`${at}: no Service`);
  }

  // Services stay inside the cluster; the gateway is reached through an Ingress only.
  for (const s of byKind('Service')) {
    const type = s['spec']?.type ?? 'ClusterIP';
    if (type !== 'ClusterIP') problems.push(`Service/${s.metadata.name}: type ${type}; only the gateway is exposed, through an Ingress`);
    const pods = podOwners.map((o) => podTemplateOf(o) as Obj).filter((t) => selectorMatches({ matchLabels: s['spec']?.selector ?? {} }, t['metadata']?.labels ?? {}));
    if (pods.length === 0) problems.push(`Service/${s.metadata.name}: selects no pods`);
    for (const port of (s['spec']?.ports ?? []) as Obj[]) {
      const target = port['targetPort'] ?? port['port'];
      const served = pods.some((t) =>
        ((t['spec']?.containers ?? []) as Obj[]).some((c) => ((c['ports'] ?? []) as Obj[]).some((p) => p['name'] === target || p['containerPort'] === target)),
      );
      if (!served) problems.push(`Service/${s.metadata.name}: port ${port['port']} targets ${target}, which no selected container has`);
    }
  }
  for (const ing of byKind('Ingress')) {
    const backends = ((ing['spec']?.rules ?? []) as Obj[]).flatMap((r) => ((r['http']?.paths ?? []) as Obj[]).map((p) => p['backend']?.service?.name));
    if (ing['spec']?.defaultBackend) backends.push(ing['spec'].defaultBackend.service?.name);
    for (const b of backends) if (b !== 'gateway') problems.push(`Ingress/${ing.metadata.name}: routes to ${b}; only the gateway is public`);
  }

  // The migrations Jobs: each service's own image and database, its migrate entry.
  for (const svc of spec.migrations) {
    const deployment = deployments.find((d) => d.metadata.name === svc);
    const job = byKind('Job').find((j) => ((j['spec']?.template?.spec?.containers?.[0]?.args ?? []) as string[]).includes(`services/${svc}/dist/migrate.js`));
    if (!job) {
      problems.push(`no migrations Job runs services/${svc}/dist/migrate.js`);
      continue;
    }
    const at = `Job/${job.metadata.name}`;
    const c: Obj = job['spec'].template.spec.containers[0];
    const dc: Obj = deployment?.['spec']?.template?.spec?.containers?.[0] ?? {};
    if (c['image'] !== dc['image']) problems.push(`${at}: image ${c['image']} is not the ${svc} Deployment's (${dc['image']})`);
    const dbSecret = (x: Obj) => ((x['env'] ?? []) as Obj[]).find((e) => e['name'] === 'DATABASE_URL')?.valueFrom?.secretKeyRef?.name;
    if (!dbSecret(c) || dbSecret(c) !== dbSecret(dc)) problems.push(`${at}: DATABASE_URL must come from the ${svc} Deployment's Secret`);
    if (!['Never', 'OnFailure'].includes(job['spec'].template.spec.restartPolicy)) problems.push(`${at}: restartPolicy must be Never or OnFailure`);
    if (job['spec'].backoffLimit === undefined || job['spec'].activeDeadlineSeconds === undefined) problems.push(`${at}: needs backoffLimit and activeDeadlineSeconds`);
  }

  // Default deny underneath every allow rule.
  const denyAll = byKind('NetworkPolicy').find(
    (p) => Object.keys(p['spec']?.podSelector ?? { x: 1 }).length === 0 && ['Ingress', 'Egress'].every((t) => (p['spec']?.policyTypes ?? []).includes(t)) && !p['spec']?.ingress && !p['spec']?.egress,
  );
  if (!denyAll) problems.push('no default-deny NetworkPolicy (podSelector {}, Ingress and Egress, no rules)');

  for (const ns of byKind('Namespace')) {
    if (ns.metadata['labels']?.['pod-security.kubernetes.io/enforce'] !== 'restricted') problems.push(`Namespace/${ns.metadata.name}: must enforce the restricted Pod Security Standard`);
  }
  return problems;
}

import type { K8sObject } from './manifests.js';

/** Env names whose values are secrets: they must come from a Secret, never a literal or a ConfigMap. */
export const SECRET_NAME = /(SECRET|PASSWORD|TOKEN|API_KEY|PRIVATE|SIGNER_KEY|SIGNING_KEY|DATABASE_URL|SMTP_URL|REDIS_URL|CHAIN_NETWORKS$)/;

type Obj = Record<string, any>;

export function podTemplateOf(o: K8sObject): Obj | undefined {
  if (o.kind === 'CronJob') return o['spec']?.jobTemplate?.spec?.template;
  if (['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'ReplicaSet'].includes(o.kind)) return o['spec']?.template;
  if (o.kind === 'Pod') return o;
  return undefined;
}

/**
 * What every pod of the system must be: the restricted Pod Security Standard and then some (read-only root
 * filesystem, resources bounded, no API token, writable paths only on volumes, secrets only from Secrets).
 * `configMaps` resolves envFrom so that *_DIR settings can be checked against the volume mounts.
 */
export function podProblems(owner: K8sObject, configMaps: Map<string, Record<string, string>>): string[] {
  const where = `${owner.kind}/${owner.metadata.name}`;
  const problems: string[] = [];
  const template = podTemplateOf(owner);
  const spec: Obj | undefined = template?.spec;
  if (!spec) return [`${where}: no pod template`];
  const podSc: Obj = spec.securityContext ?? {};
  if (spec.hostNetwork || spec.hostPID || spec.hostIPC) problems.push(`${where}: uses the host's namespaces`);
  if (spec.automountServiceAccountToken !== false) problems.push(`${where}: automountServiceAccountToken must be false (no pod talks to the API)`);
  const volumes = new Map<string, Obj>(((spec.volumes ?? []) as Obj[]).map((v) => [v['name'] as string, v]));
  for (const v of volumes.values()) if (v['hostPath']) problems.push(`${where}: hostPath volume ${v['name']}`);
  // A StatefulSet's claim templates are volumes too.
  for (const t of (owner['spec']?.volumeClaimTemplates ?? []) as Obj[]) volumes.set(t['metadata']?.name, { persistentVolumeClaim: {} });
  for (const c of [...((spec.initContainers ?? []) as Obj[]), ...((spec.containers ?? []) as Obj[])]) {
    const at = `${where} container ${c['name']}`;
    const sc: Obj = c['securityContext'] ?? {};
    if ((sc['runAsNonRoot'] ?? podSc['runAsNonRoot']) !== true) problems.push(`${at}: runAsNonRoot must be true`);
    if ((sc['runAsUser'] ?? podSc['runAsUser']) === 0) problems.push(`${at}: runs as uid 0`);
    if (sc['allowPrivilegeEscalation'] !== false) problems.push(`${at}: allowPrivilegeEscalation must be false`);
    if (sc['readOnlyRootFilesystem'] !== true) problems.push(`${at}: readOnlyRootFilesystem must be true`);
    if (sc['privileged'] === true) problems.push(`${at}: privileged`);
    if (!((sc['capabilities']?.drop ?? []) as string[]).includes('ALL')) problems.push(`${at}: capabilities must drop ALL`);
    if (((sc['capabilities']?.add ?? []) as string[]).length > 0) problems.push(`${at}: adds capabilities`);
    if ((sc['seccompProfile']?.type ?? podSc['seccompProfile']?.type) !== 'RuntimeDefault') problems.push(`${at}: seccompProfile must be RuntimeDefault`);
    for (const kind of ['requests', 'limits']) {
      for (const r of ['cpu', 'memory']) if (c['resources']?.[kind]?.[r] === undefined) problems.push(`${at}: resources.${kind}.${r} is missing`);
    }
    const image = String(c['image'] ?? '');
    const tag = image.includes('@') ? 'digest' : image.slice(image.lastIndexOf('/') + 1).split(':')[1];
    if (!tag || tag === 'latest') problems.push(`${at}: image ${image} needs an explicit tag or digest`);
    // Writable paths: /tmp, and every *_DIR setting, on a writable volume (the root filesystem is read-only).
    const writable = ((c['volumeMounts'] ?? []) as Obj[])
      .filter((m) => !m['readOnly'] && (volumes.get(m['name'])?.['emptyDir'] || volumes.get(m['name'])?.['persistentVolumeClaim']))
      .map((m) => String(m['mountPath']).replace(/\/+$/, ''));
    const onWritable = (path: string) => writable.some((m) => path === m || path.startsWith(`${m}/`));
    if (!onWritable('/tmp')) problems.push(`${at}: /tmp must be a writable volume (emptyDir)`);
    for (const ref of (c['envFrom'] ?? []) as Obj[]) {
      if (!ref['configMapRef'] && !ref['secretRef']) problems.push(`${at}: envFrom other than a ConfigMap or Secret`);
    }
    for (const e of (c['env'] ?? []) as Obj[]) {
      const name = String(e['name']);
      if (e['value'] !== undefined && SECRET_NAME.test(name)) problems.push(`${at}: ${name} is a literal; secrets come from a Secret`);
      if (SECRET_NAME.test(name) && e['valueFrom'] && !e['valueFrom'].secretKeyRef) problems.push(`${at}: ${name} must come from a Secret`);
    }
    for (const [name, value] of containerEnv(c, configMaps)) {
      if (name.endsWith('_DIR') && value && !onWritable(value)) problems.push(`${at}: ${name}=${value} is not on a writable volume`);
    }
  }
  return problems;
}

/**
 * A container's environment as the kubelet builds it: envFrom ConfigMaps in order, then env, later names
 * winning. Values the objects do not show (from Secrets, fieldRefs) are undefined.
 */
export function containerEnv(c: Obj, configMaps: Map<string, Record<string, string>>): Map<string, string | undefined> {
  const env = new Map<string, string | undefined>();
  for (const ref of (c['envFrom'] ?? []) as Obj[]) {
    if (ref['configMapRef']) for (const [k, v] of Object.entries(configMaps.get(ref['configMapRef'].name) ?? {})) env.set(k, v);
  }
  for (const e of (c['env'] ?? []) as Obj[]) env.set(String(e['name']), e['value'] as string | undefined);
  return env;
}

/** Every ConfigMap / Secret a pod template refers to: [kind, name, key?, optional]. */
export function configReferences(owner: K8sObject): { kind: 'ConfigMap' | 'Secret'; name: string; key?: string; optional: boolean }[] {
  const spec: Obj = podTemplateOf(owner)?.spec ?? {};
  const refs: { kind: 'ConfigMap' | 'Secret'; name: string; key?: string; optional: boolean }[] = [];
  for (const c of [...((spec['initContainers'] ?? []) as Obj[]), ...((spec['containers'] ?? []) as Obj[])]) {
    for (const e of (c['env'] ?? []) as Obj[]) {
      const cm = e['valueFrom']?.configMapKeyRef;
      const s = e['valueFrom']?.secretKeyRef;
      if (cm) refs.push({ kind: 'ConfigMap', name: cm.name, key: cm.key, optional: cm.optional === true });
      if (s) refs.push({ kind: 'Secret', name: s.name, key: s.key, optional: s.optional === true });
    }
    for (const f of (c['envFrom'] ?? []) as Obj[]) {
      if (f['configMapRef']) refs.push({ kind: 'ConfigMap', name: f['configMapRef'].name, optional: f['configMapRef'].optional === true });
      if (f['secretRef']) refs.push({ kind: 'Secret', name: f['secretRef'].name, optional: f['secretRef'].optional === true });
    }
  }
  for (const v of (spec['volumes'] ?? []) as Obj[]) {
    if (v['configMap']) refs.push({ kind: 'ConfigMap', name: v['configMap'].name, optional: v['configMap'].optional === true });
    if (v['secret']) refs.push({ kind: 'Secret', name: v['secret'].secretName, optional: v['secret'].optional === true });
  }
  return refs;
}

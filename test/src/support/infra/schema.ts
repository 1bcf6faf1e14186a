import type { K8sObject } from './manifests.js';

/**
 * Validates an object against the Kubernetes OpenAPI schema bundled in kubernetes-models (compiled ajv
 * validators: offline; its README badge says 1.27, but the schemas carry later fields such as
 * lifecycle.preStop.sleep, 1.29+, and Lifecycle.stopSignal, 1.33). Types, enums, required fields and
 * formats (quantities, …) are checked; unknown fields are NOT (the schemas allow additional properties),
 * so the invariant checks name the fields they rely on. Strimzi's KafkaTopic, the Gateway API's HTTPRoute and the
 * Prometheus Operator's ServiceMonitor and PrometheusRule have no schema there and are checked structurally
 * (the rules' PromQL itself under promtool: monitoring-alerts.test.ts).
 */
export async function schemaErrors(obj: K8sObject): Promise<string[]> {
  const where = `${obj.kind}/${obj.metadata?.name ?? '?'}`;
  if (typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string') return [`${where}: apiVersion and kind are required`];
  if (obj.apiVersion.startsWith('kafka.strimzi.io/')) return kafkaTopicErrors(obj).map((e) => `${where}: ${e}`);
  if (obj.apiVersion.startsWith('gateway.networking.k8s.io/')) return httpRouteErrors(obj).map((e) => `${where}: ${e}`);
  if (obj.apiVersion.startsWith('monitoring.coreos.com/')) return monitoringErrors(obj).map((e) => `${where}: ${e}`);
  let Model: new (data: unknown) => { validate(): void };
  try {
    const mod = (await import(`kubernetes-models/${obj.apiVersion}/${obj.kind}`)) as Record<string, unknown>;
    Model = mod[obj.kind] as typeof Model;
  } catch {
    return [`${where}: no schema for ${obj.apiVersion} ${obj.kind}`];
  }
  // kustomize wraps long base64 values over lines; the API server's decoder skips the newlines.
  const data = obj.kind === 'Secret' && obj['data'] ? Object.fromEntries(Object.entries(obj['data'] as Record<string, string>).map(([k, v]) => [k, v.replace(/\s+/g, '')])) : undefined;
  try {
    new Model(data ? { ...obj, data } : obj).validate();
    return [];
  } catch (err) {
    return [`${where}: ${(err as Error).message}`];
  }
}

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const TOPIC_NAME = /^[a-zA-Z0-9._-]{1,249}$/;

/** The parts of Strimzi's KafkaTopic (kafka.strimzi.io/v1beta2) CRD schema this project uses. */
export function kafkaTopicErrors(obj: K8sObject): string[] {
  const errors: string[] = [];
  if (obj.apiVersion !== 'kafka.strimzi.io/v1beta2') errors.push(`apiVersion must be kafka.strimzi.io/v1beta2, got ${obj.apiVersion}`);
  if (obj.kind !== 'KafkaTopic') errors.push(`kind must be KafkaTopic, got ${obj.kind}`);
  const name = obj.metadata?.name;
  if (typeof name !== 'string' || name.length > 253 || !DNS_SUBDOMAIN.test(name)) errors.push(`metadata.name ${name} is not a DNS subdomain`);
  if (typeof obj.metadata?.labels?.['strimzi.io/cluster'] !== 'string') errors.push('metadata.labels["strimzi.io/cluster"] names the Kafka cluster');
  const spec = obj['spec'] as Record<string, unknown> | undefined;
  if (!spec || typeof spec !== 'object') return [...errors, 'spec is required'];
  const known = new Set(['topicName', 'partitions', 'replicas', 'config']);
  for (const key of Object.keys(spec)) if (!known.has(key)) errors.push(`spec.${key} is not a KafkaTopic field`);
  if (spec['topicName'] !== undefined && (typeof spec['topicName'] !== 'string' || !TOPIC_NAME.test(spec['topicName']))) {
    errors.push('spec.topicName must be a Kafka topic name');
  }
  for (const key of ['partitions', 'replicas']) {
    const v = spec[key];
    if (v !== undefined && (!Number.isInteger(v) || (v as number) < 1)) errors.push(`spec.${key} must be an integer >= 1`);
  }
  if (typeof spec['replicas'] === 'number' && spec['replicas'] > 32767) errors.push('spec.replicas must be <= 32767');
  const config = spec['config'];
  if (config !== undefined) {
    if (typeof config !== 'object' || config === null || Array.isArray(config)) errors.push('spec.config must be an object');
    else for (const [k, v] of Object.entries(config)) if (!['string', 'number', 'boolean'].includes(typeof v)) errors.push(`spec.config.${k} must be a scalar`);
  }
  return errors;
}

const PATH_MATCH_TYPES = ['Exact', 'PathPrefix', 'RegularExpression'];

/** The parts of the Gateway API's HTTPRoute (gateway.networking.k8s.io/v1, standard channel) schema this project uses. */
export function httpRouteErrors(obj: K8sObject): string[] {
  const errors: string[] = [];
  if (obj.apiVersion !== 'gateway.networking.k8s.io/v1') errors.push(`apiVersion must be gateway.networking.k8s.io/v1, got ${obj.apiVersion}`);
  if (obj.kind !== 'HTTPRoute') errors.push(`kind must be HTTPRoute, got ${obj.kind}`);
  const name = obj.metadata?.name;
  if (typeof name !== 'string' || name.length > 253 || !DNS_SUBDOMAIN.test(name)) errors.push(`metadata.name ${name} is not a DNS subdomain`);
  const spec = obj['spec'] as Record<string, any> | undefined;
  if (!spec || typeof spec !== 'object') return [...errors, 'spec is required'];
  const known = new Set(['parentRefs', 'hostnames', 'rules']);
  for (const key of Object.keys(spec)) if (!known.has(key)) errors.push(`spec.${key} is not an HTTPRoute field used here`);
  const parents = (spec['parentRefs'] ?? []) as Record<string, unknown>[];
  if (!Array.isArray(parents) || parents.length < 1 || parents.length > 32) errors.push('spec.parentRefs must list 1 to 32 parents');
  else parents.forEach((p, i) => { if (typeof p['name'] !== 'string' || p['name'] === '') errors.push(`spec.parentRefs[${i}].name is required`); });
  for (const h of (spec['hostnames'] ?? []) as unknown[]) if (typeof h !== 'string' || !DNS_SUBDOMAIN.test(h.replace(/^\*\./, ''))) errors.push(`spec.hostnames: ${String(h)} is not a host name`);
  const rules = (spec['rules'] ?? []) as Record<string, any>[];
  if (!Array.isArray(rules) || rules.length > 16) errors.push('spec.rules must list at most 16 rules');
  rules.forEach((r, i) => {
    const matches = (r['matches'] ?? []) as Record<string, any>[];
    if (matches.length > 64) errors.push(`spec.rules[${i}].matches: at most 64`);
    matches.forEach((m, j) => {
      const path = m['path'];
      if (path && (!PATH_MATCH_TYPES.includes(path.type) || typeof path.value !== 'string' || !path.value.startsWith('/'))) errors.push(`spec.rules[${i}].matches[${j}].path needs a type of ${PATH_MATCH_TYPES.join(', ')} and a value starting with /`);
    });
    ((r['backendRefs'] ?? []) as Record<string, unknown>[]).forEach((b, j) => {
      if (typeof b['name'] !== 'string') errors.push(`spec.rules[${i}].backendRefs[${j}].name is required`);
      if (!Number.isInteger(b['port']) || (b['port'] as number) < 1 || (b['port'] as number) > 65535) errors.push(`spec.rules[${i}].backendRefs[${j}].port must be a port number`);
    });
  });
  return errors;
}

/** The parts of the Prometheus Operator's ServiceMonitor and PrometheusRule (monitoring.coreos.com/v1) this project uses. */
export function monitoringErrors(obj: K8sObject): string[] {
  const errors: string[] = [];
  if (obj.apiVersion !== 'monitoring.coreos.com/v1') errors.push(`apiVersion must be monitoring.coreos.com/v1, got ${obj.apiVersion}`);
  const name = obj.metadata?.name;
  if (typeof name !== 'string' || name.length > 253 || !DNS_SUBDOMAIN.test(name)) errors.push(`metadata.name ${name} is not a DNS subdomain`);
  const spec = obj['spec'] as Record<string, any> | undefined;
  if (!spec || typeof spec !== 'object') return [...errors, 'spec is required'];
  if (obj.kind === 'ServiceMonitor') {
    if (!spec['selector'] || typeof spec['selector'] !== 'object') errors.push('spec.selector is required');
    const endpoints = spec['endpoints'];
    if (!Array.isArray(endpoints) || endpoints.length === 0) errors.push('spec.endpoints must list at least one endpoint');
    else endpoints.forEach((e: Record<string, unknown>, i: number) => { if (typeof e['port'] !== 'string') errors.push(`spec.endpoints[${i}].port must name a Service port`); });
  } else if (obj.kind === 'PrometheusRule') {
    const groups = spec['groups'];
    if (!Array.isArray(groups) || groups.length === 0) return [...errors, 'spec.groups must list at least one group'];
    const names = new Set<string>();
    groups.forEach((g: Record<string, any>, i: number) => {
      if (typeof g['name'] !== 'string' || names.has(g['name'])) errors.push(`spec.groups[${i}].name must be a unique name`);
      names.add(g['name']);
      ((g['rules'] ?? []) as Record<string, unknown>[]).forEach((r, j) => {
        const kinds = ['alert', 'record'].filter((k) => typeof r[k] === 'string');
        if (kinds.length !== 1) errors.push(`spec.groups[${i}].rules[${j}] must be an alert or a record`);
        if (typeof r['expr'] !== 'string' || r['expr'] === '') errors.push(`spec.groups[${i}].rules[${j}].expr is required`);
      });
    });
  } else {
    errors.push(`kind ${obj.kind} is not one this project uses`);
  }
  return errors;
}

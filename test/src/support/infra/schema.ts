import type { K8sObject } from './manifests.js';

/**
 * Validates an object against the Kubernetes OpenAPI schema bundled in kubernetes-models (compiled ajv
 * validators: offline; its README badge says 1.27, but the schemas carry later fields such as
 * lifecycle.preStop.sleep, 1.29+, and Lifecycle.stopSignal, 1.33). Types, enums, required fields and
 * formats (quantities, …) are checked; unknown fields are NOT (the schemas allow additional properties),
 * so the invariant checks name the fields they rely on. Strimzi's KafkaTopic has no schema there and is checked structurally.
 */
export async function schemaErrors(obj: K8sObject): Promise<string[]> {
  const where = `${obj.kind}/${obj.metadata?.name ?? '?'}`;
  if (typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string') return [`${where}: apiVersion and kind are required`];
  if (obj.apiVersion.startsWith('kafka.strimzi.io/')) return kafkaTopicErrors(obj).map((e) => `${where}: ${e}`);
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

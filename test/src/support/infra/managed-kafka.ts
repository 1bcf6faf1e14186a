import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { envReader } from '@green-impact/shared/config';
import { kafkaSecurityFromEnv } from '@green-impact/shared/bus/kafka-security';
import type { K8sObject } from './manifests.js';
import { containerEnv } from './pod-invariants.js';

type Obj = Record<string, any>;

const SASL = ['KAFKA_SASL_MECHANISM', 'KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD'];
// What the Secret kafka-credentials holds, for the loader: the manifests show only where it comes from.
const STAND_INS: Record<string, string> = { KAFKA_SASL_MECHANISM: 'scram-sha-512', KAFKA_SASL_USERNAME: 'green-impact', KAFKA_SASL_PASSWORD: 'stand-in' };
const PEM = '-----BEGIN CERTIFICATE-----\nMIIBstandin\n-----END CERTIFICATE-----\n';

/** The ports of KAFKA_BROKERS (host:port,…) in the ConfigMap green-impact-config. */
export function brokerPorts(objects: K8sObject[]): string[] {
  const config = objects.find((o) => o.kind === 'ConfigMap' && /^green-impact-config(-|$)/.test(o.metadata.name));
  const brokers = String(config?.['data']?.KAFKA_BROKERS ?? '').split(',').map((b) => b.trim()).filter(Boolean);
  return [...new Set(brokers.map((b) => `${b.slice(b.lastIndexOf(':') + 1)}/TCP`))].sort();
}

/**
 * What keeps a Kafka client Deployment from talking to a managed Kafka over TLS with SASL: the SASL settings
 * each from the Secret `credentials` (required), TLS on, the CA file on a read-only mount of the Secret `ca`
 * (required), and the process's own loader (kafkaSecurityFromEnv) accepting the result with the CA file in
 * place. Pods that are not clients must carry none of it.
 */
export function managedKafkaProblems(objects: K8sObject[], clients: string[], secrets: { credentials: string; ca: string }): string[] {
  const problems: string[] = [];
  const configMaps = new Map<string, Record<string, string>>(objects.filter((o) => o.kind === 'ConfigMap').map((c) => [c.metadata.name, (c['data'] ?? {}) as Record<string, string>]));
  const dir = mkdtempSync(join(tmpdir(), 'kafka-ca-'));
  try {
    for (const o of objects) {
      const spec: Obj | undefined = o['spec']?.template?.spec;
      if (!spec) continue;
      const at = `${o.kind}/${o.metadata.name}`;
      const c: Obj = spec['containers'][0];
      const env = ((c['env'] ?? []) as Obj[]);
      const isClient = o.kind === 'Deployment' && clients.includes(o.metadata.name);
      if (!isClient) {
        if (env.some((e) => String(e['name']).startsWith('KAFKA_SASL_'))) problems.push(`${at}: not a Kafka client, yet given the Kafka credentials`);
        continue;
      }
      for (const name of SASL) {
        const ref = env.find((e) => e['name'] === name)?.valueFrom?.secretKeyRef;
        if (ref?.name !== secrets.credentials || ref?.key !== name || ref?.optional !== false) problems.push(`${at}: ${name} must come from Secret ${secrets.credentials} key ${name}, optional: false`);
      }
      const values = Object.fromEntries([...containerEnv(c, configMaps)].filter((e): e is [string, string] => e[1] !== undefined));
      if (values['KAFKA_SSL'] !== 'true') problems.push(`${at}: KAFKA_SSL must be true`);
      const caFile = values['KAFKA_SSL_CA_FILE'] ?? '';
      const mount = ((c['volumeMounts'] ?? []) as Obj[]).find((m) => caFile.startsWith(`${m['mountPath']}/`));
      const volume = ((spec['volumes'] ?? []) as Obj[]).find((v) => v['name'] === mount?.['name']);
      const file = mount ? caFile.slice(String(mount['mountPath']).length + 1) : '';
      const items = (volume?.['secret']?.items ?? []) as Obj[];
      if (!mount?.['readOnly'] || volume?.['secret']?.secretName !== secrets.ca || volume['secret'].optional !== false) {
        problems.push(`${at}: KAFKA_SSL_CA_FILE=${caFile} must be on a read-only mount of Secret ${secrets.ca}, optional: false`);
      } else if (items.length > 0 && !items.some((i) => i['path'] === file)) {
        problems.push(`${at}: KAFKA_SSL_CA_FILE=${caFile}: the Secret's items project no ${file}`);
      }
      const ca = join(dir, 'ca.crt');
      writeFileSync(ca, PEM);
      try {
        const security = kafkaSecurityFromEnv(envReader({ ...values, ...STAND_INS, KAFKA_SSL_CA_FILE: ca }));
        if (!security.ssl?.ca || !security.sasl) problems.push(`${at}: the loader sets up ${security.ssl ? '' : 'no TLS '}${security.sasl ? '' : 'no SASL'}`);
      } catch (err) {
        problems.push(`${at}: the loader refuses the settings: ${(err as Error).message}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return problems;
}

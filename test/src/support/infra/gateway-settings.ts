import { loadGatewayConfig, type GatewayConfig } from '@green-impact/gateway/config';
import { ConfigError, envReader } from '@green-impact/shared/config';
import { generateCallerKeyPair, privateKeyText } from '@green-impact/shared/callers/caller-keys';
import { loadCallerTrust } from '@green-impact/shared/callers/caller-trust-config';
import type { K8sObject } from './manifests.js';
import { containerEnv } from './pod-invariants.js';

type Obj = Record<string, any>;

/** Limits every rendering writes out (the process's defaults made explicit), each a positive integer. */
export const GATEWAY_LIMITS = [
  'REQUEST_DEADLINE_MS',
  'HTTP_HEADERS_TIMEOUT_MS',
  'HTTP_REQUEST_TIMEOUT_MS',
  'RATE_LIMIT_PER_KEY',
  'RATE_LIMIT_KEY_BURST',
  'RATE_LIMIT_PER_ADDRESS',
  'RATE_LIMIT_ADDRESS_BURST',
  'RATE_LIMIT_UNAUTH_PER_SECOND',
  'RATE_LIMIT_UNAUTH_BURST',
  'GRAPHQL_MAX_DEPTH',
  'GRAPHQL_MAX_COST',
  'GRAPHQL_WS_MAX_SUBSCRIPTIONS',
];
/**
 * Settings that must be set, whatever their value: left to the default, they change with NODE_ENV or the
 * code, or (CORS_ALLOWED_ORIGINS: which browser origins are trusted; OIDC_ISSUERS: which identity providers
 * sign people in) they are the operator's decision.
 */
const EXPLICIT = ['TRUST_PROXY', 'GRAPHQL_EXPLORER', 'RATE_LIMIT_REDIS_PREFIX', 'CORS_ALLOWED_ORIGINS', 'OIDC_ISSUERS'];

/**
 * What the loader is given in place of a value a Secret holds: the manifests show only that it comes from
 * a Secret, and the loader still checks everything else around it.
 */
const SECRET_STAND_INS: Record<string, string> = {
  REDIS_URL: 'redis://secret-stand-in.invalid:6379',
  DOCUMENT_LINK_SECRET: 'Pi3s59MvJdKabsM35Ku2Wy2XMM1aP3O7im587XAUvBQ',
  CALLER_SIGNING_KEY: privateKeyText(generateCallerKeyPair().privateKey),
  // components/managed-kafka: the Secret kafka-credentials.
  KAFKA_SASL_MECHANISM: 'scram-sha-512',
  KAFKA_SASL_USERNAME: 'green-impact',
  KAFKA_SASL_PASSWORD: 'secret-stand-in',
};

/** The gateway container's environment as the kubelet would build it. */
export interface GatewayEnv {
  /** Plain values (ConfigMaps, literals); names set from a Secret are absent. */
  values: Record<string, string>;
  /** Names set from a Secret key, with the key's secretKeyRef. */
  fromSecrets: Record<string, { name: string; key: string; optional?: boolean }>;
}

/** The gateway Deployment's container environment among the objects; undefined when there is none. */
export function gatewayEnvOf(objects: K8sObject[]): GatewayEnv | undefined {
  const deployment = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'gateway');
  const container: Obj | undefined = deployment?.['spec']?.template?.spec?.containers?.[0];
  if (!container) return undefined;
  const configMaps = new Map<string, Record<string, string>>(
    objects.filter((o) => o.kind === 'ConfigMap').map((c) => [c.metadata.name, (c['data'] ?? {}) as Record<string, string>]),
  );
  const fromSecrets: GatewayEnv['fromSecrets'] = Object.fromEntries(
    ((container['env'] ?? []) as Obj[]).filter((e) => e['valueFrom']?.secretKeyRef).map((e) => [String(e['name']), e['valueFrom'].secretKeyRef]),
  );
  const values: Record<string, string> = {};
  for (const [name, value] of containerEnv(container, configMaps)) if (value !== undefined && !Object.hasOwn(fromSecrets, name)) values[name] = value;
  return { values, fromSecrets };
}

/**
 * Everything wrong with the gateway's settings, and the config the gateway's own loader makes of them:
 * a value the gateway would refuse at start (exit 78) is a problem here.
 */
export function gatewaySettings(env: GatewayEnv): { problems: string[]; config: GatewayConfig | undefined } {
  const problems: string[] = [];
  const { values } = env;
  for (const name of GATEWAY_LIMITS) {
    if (!/^[1-9]\d*$/.test(values[name] ?? '')) problems.push(`${name} must be set to a positive integer, got ${JSON.stringify(values[name])}`);
  }
  for (const name of EXPLICIT) if (values[name] === undefined) problems.push(`${name} must be set explicitly`);
  if (Number(values['HTTP_HEADERS_TIMEOUT_MS']) > Number(values['HTTP_REQUEST_TIMEOUT_MS'])) problems.push('HTTP_HEADERS_TIMEOUT_MS exceeds HTTP_REQUEST_TIMEOUT_MS');
  if (values['REDIS_URL'] !== undefined) problems.push('REDIS_URL is a plain value; it may hold a password and must come from a Secret');
  if (env.fromSecrets['REDIS_URL']?.optional === true) problems.push('REDIS_URL is optional: without its Secret the gateway would count per replica in silence');
  const standIns: Record<string, string> = {};
  for (const name of Object.keys(env.fromSecrets)) {
    const standIn = SECRET_STAND_INS[name];
    if (standIn === undefined) problems.push(`${name} comes from a Secret, but the test has no stand-in value for it (SECRET_STAND_INS)`);
    else standIns[name] = standIn;
  }
  try {
    if (env.fromSecrets['CALLER_SIGNING_KEY']?.optional !== false) problems.push('CALLER_SIGNING_KEY must come from a Secret, not optional: without it no service accepts a call');
    // The launcher's caller keys (gateway/src/index.ts), from the same environment.
    loadCallerTrust(envReader({ ...values, ...standIns }), { signsAs: 'gateway', verifies: false });
    return { problems, config: loadGatewayConfig({ ...values, ...standIns }) };
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return { problems: [...problems, `the gateway refuses its settings: ${err.message}`], config: undefined };
  }
}

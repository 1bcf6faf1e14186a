import type { K8sObject } from './manifests.js';

type Obj = Record<string, any>;

const NGINX = 'nginx.ingress.kubernetes.io/';
/** ingress-nginx's defaults: 60 s between two reads or writes, 1 MiB bodies. */
const DEFAULT_TIMEOUT_SECONDS = 60;
const DEFAULT_BODY_SIZE = '1m';

export interface IngressSpec {
  /** Paths that carry WebSockets (GraphQL subscriptions), open as long as a client listens. */
  websocketPaths: string[];
  /** The least proxy-read-timeout and proxy-send-timeout a WebSocket path may have. */
  websocketTimeoutSeconds: number;
}

/** nginx's size syntax (`2m`, `512k`, bytes) in bytes; NaN when it is none of these. */
export function nginxSize(value: string): number {
  const m = /^(\d+)([kKmMgG]?)$/.exec(value.trim());
  if (!m) return Number.NaN;
  const unit = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[(m[2] as string).toLowerCase() as '' | 'k' | 'm' | 'g'];
  return Number(m[1]) * unit;
}

/**
 * What the ingress-nginx Ingresses in front of the gateway must allow for its limits (`gatewayEnv`: the
 * gateway's settings) and its WebSockets. [] when fine.
 * - Every path: nginx waits for an answer longer than REQUEST_DEADLINE_MS, so the client gets the
 *   gateway's JSON 504 rather than nginx's HTML one, and accepts bodies up to BODY_LIMIT_BYTES, so an
 *   oversized one gets the gateway's JSON 413.
 * - WebSocket paths: routed, with read and send timeouts long enough for a subscription to stay open.
 */
export function ingressProblems(objects: K8sObject[], gatewayEnv: Record<string, string>, spec: IngressSpec): string[] {
  const problems: string[] = [];
  const deadlineMs = Number(gatewayEnv['REQUEST_DEADLINE_MS']);
  const bodyLimit = Number(gatewayEnv['BODY_LIMIT_BYTES']);
  const routed = new Set<string>();
  for (const ing of objects.filter((o) => o.kind === 'Ingress')) {
    const annotations = (ing.metadata['annotations'] ?? {}) as Record<string, string>;
    const seconds = (name: string) => Number(annotations[NGINX + name] ?? DEFAULT_TIMEOUT_SECONDS);
    const at = `Ingress/${ing.metadata.name}`;
    if (ing['spec']?.ingressClassName !== 'nginx') problems.push(`${at}: ingressClassName must be nginx (the annotations are ingress-nginx's)`);
    if (!(seconds('proxy-read-timeout') * 1000 > deadlineMs)) problems.push(`${at}: proxy-read-timeout must exceed REQUEST_DEADLINE_MS (${deadlineMs} ms)`);
    const body = nginxSize(annotations[NGINX + 'proxy-body-size'] ?? DEFAULT_BODY_SIZE);
    if (!(body >= bodyLimit)) problems.push(`${at}: proxy-body-size must be at least BODY_LIMIT_BYTES (${bodyLimit})`);
    const paths = ((ing['spec']?.rules ?? []) as Obj[]).flatMap((r) => ((r['http']?.paths ?? []) as Obj[]).map((p) => String(p['path'])));
    for (const path of paths.filter((p) => spec.websocketPaths.includes(p))) {
      routed.add(path);
      for (const name of ['proxy-read-timeout', 'proxy-send-timeout']) {
        if (!(seconds(name) >= spec.websocketTimeoutSeconds)) problems.push(`${at}: ${path} carries WebSockets; ${name} must be at least ${spec.websocketTimeoutSeconds} s`);
      }
    }
  }
  for (const path of spec.websocketPaths) if (!routed.has(path)) problems.push(`no Ingress routes ${path}`);
  return problems;
}

import type { K8sObject } from './manifests.js';

/**
 * A small evaluator of Kubernetes NetworkPolicy semantics, enough to turn a set of policies into "who may
 * reach whom on which port": a pod selected by no policy of a direction is open in that direction;
 * selected pods accept only what some selecting policy's rule allows (rules are ORed, a rule's peers and
 * ports ANDed). Traffic between two pods needs the sender's egress and the receiver's ingress.
 * Peers: a podSelector alone means pods of this namespace; a namespaceSelector (with an optional
 * podSelector) means pods of the namespaces it selects (an empty one: every namespace, this one too); an
 * ipBlock may be any address, so it matches every party outside. No `from`/`to` means everyone.
 */
export interface Workload {
  name: string;
  labels: Record<string, string>;
  ports: { port: number; name?: string; protocol: string }[];
}

/** A party outside this namespace: a pod of another namespace, by its namespace's labels and its own. */
export interface Outsider {
  namespace: Record<string, string>;
  pod: Record<string, string>;
}

/**
 * Anyone the policies do not single out: a pod of a namespace no selector names. What a node or the
 * internet may reach it may reach too (rules without peers, ipBlocks), and also what `{}` selects.
 */
export const STRANGER: Outsider = { namespace: { 'kubernetes.io/metadata.name': 'somewhere-else' }, pod: {} };

export type Peer = Workload | Outsider;

const isOutsider = (p: Peer): p is Outsider => 'namespace' in p;

function isEmptySelector(s: LabelSelector): boolean {
  return Object.keys(s.matchLabels ?? {}).length === 0 && (s.matchExpressions ?? []).length === 0;
}

interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

export function selectorMatches(selector: LabelSelector | undefined, labels: Record<string, string>): boolean {
  if (!selector) return true;
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.hasOwn(labels, e.key);
    const value = labels[e.key];
    const inValues = has && (e.values ?? []).includes(value as string);
    if (e.operator === 'In' && !inValues) return false;
    if (e.operator === 'NotIn' && inValues) return false;
    if (e.operator === 'Exists' && !has) return false;
    if (e.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}

/** The pods of the Deployments, StatefulSets and Jobs among the objects, with their container ports. */
export function workloadsOf(objects: K8sObject[]): Workload[] {
  return objects
    .filter((o) => ['Deployment', 'StatefulSet', 'Job'].includes(o.kind))
    .map((o) => ({
      name: o.metadata.name,
      labels: (o['spec']?.template?.metadata?.labels ?? {}) as Record<string, string>,
      ports: ((o['spec']?.template?.spec?.containers ?? []) as { ports?: { containerPort: number; name?: string; protocol?: string }[] }[]).flatMap((c) =>
        (c.ports ?? []).map((p) => ({ port: p.containerPort, ...(p.name ? { name: p.name } : {}), protocol: p.protocol ?? 'TCP' })),
      ),
    }));
}

type Direction = 'Ingress' | 'Egress';

function policyTypes(policy: K8sObject): Direction[] {
  const spec = policy['spec'] ?? {};
  if (Array.isArray(spec.policyTypes)) return spec.policyTypes as Direction[];
  return spec.egress ? ['Ingress', 'Egress'] : ['Ingress'];
}

function peerMatches(peer: Record<string, unknown>, other: Peer): boolean {
  if (peer['ipBlock']) return isOutsider(other);
  const namespaces = peer['namespaceSelector'] as LabelSelector | undefined;
  const pods = peer['podSelector'] as LabelSelector | undefined;
  if (isOutsider(other)) return namespaces !== undefined && selectorMatches(namespaces, other.namespace) && selectorMatches(pods, other.pod);
  if (namespaces !== undefined && !isEmptySelector(namespaces)) return false;
  return selectorMatches(pods, other.labels);
}

function portMatches(
  rulePorts: { port?: number | string; endPort?: number; protocol?: string }[] | undefined,
  port: number,
  protocol: string,
  target: Peer,
): boolean {
  if (!rulePorts || rulePorts.length === 0) return true;
  return rulePorts.some((p) => {
    if ((p.protocol ?? 'TCP') !== protocol) return false;
    if (p.port === undefined) return true;
    if (typeof p.port === 'string') {
      return !isOutsider(target) && target.ports.some((tp) => tp.name === p.port && tp.port === port && tp.protocol === protocol);
    }
    return p.endPort !== undefined ? port >= p.port && port <= p.endPort : port === p.port;
  });
}

/** Whether `pod`'s policies of `direction` let traffic with `other` on `port` through (the port is the receiver's). */
function allows(policies: K8sObject[], pod: Workload, direction: Direction, other: Peer, port: number, protocol: string): boolean {
  const selecting = policies.filter((p) => policyTypes(p).includes(direction) && selectorMatches(p['spec']?.podSelector, pod.labels));
  if (selecting.length === 0) return true;
  const receiver = direction === 'Ingress' ? pod : other;
  return selecting.some((p) =>
    ((p['spec']?.[direction === 'Ingress' ? 'ingress' : 'egress'] ?? []) as Record<string, unknown>[]).some((rule) => {
      const peers = rule[direction === 'Ingress' ? 'from' : 'to'] as Record<string, unknown>[] | undefined;
      const peerOk = !peers || peers.length === 0 || peers.some((peer) => peerMatches(peer, other));
      return peerOk && portMatches(rule['ports'] as never, port, protocol, receiver);
    }),
  );
}

/** Every `from -> to:port` allowed between the workloads, as strings, sorted. */
export function allowedEdges(objects: K8sObject[]): string[] {
  const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
  const pods = workloadsOf(objects);
  const edges: string[] = [];
  for (const from of pods) {
    for (const to of pods) {
      if (from === to) continue;
      for (const p of to.ports) {
        if (allows(policies, from, 'Egress', to, p.port, p.protocol) && allows(policies, to, 'Ingress', from, p.port, p.protocol)) {
          edges.push(`${from.name} -> ${to.name}:${p.port}`);
        }
      }
    }
  }
  return edges.sort();
}

/** Workload ports a party outside the namespace may reach, as `name:port`. */
export function reachableFrom(objects: K8sObject[], party: Outsider): string[] {
  const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
  return workloadsOf(objects)
    .flatMap((w) => w.ports.filter((p) => allows(policies, w, 'Ingress', party, p.port, p.protocol)).map((p) => `${w.name}:${p.port}`))
    .sort();
}

/**
 * Of the candidate `port/protocol`s, those each workload may send to a party outside the namespace, or to a
 * pod of this namespace the objects do not run (Kafka's brokers).
 */
export function egressTo(objects: K8sObject[], party: Peer, candidates: string[]): Record<string, string[]> {
  const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
  const out: Record<string, string[]> = {};
  for (const w of workloadsOf(objects)) {
    out[w.name] = candidates.filter((c) => {
      const [port, protocol] = c.split('/');
      return allows(policies, w, 'Egress', party, Number(port), protocol ?? 'TCP');
    });
  }
  return out;
}

// Addresses an "internet" ipBlock must leave out: private networks, carrier-grade NAT, link-local (cloud
// metadata), loopback. Pods and Services usually live in them, so this keeps such a rule off the cluster.
const PRIVATE_RANGES = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', '169.254.0.0/16', '127.0.0.0/8'];

/**
 * Egress rules that name no target, as `policy: rule n`: a rule without `to` (anywhere), an empty peer
 * (`{}`: every pod), or an ipBlock of every address that does not leave out the private ranges.
 */
export function openEgressRules(objects: K8sObject[]): string[] {
  const open: string[] = [];
  for (const p of objects.filter((o) => o.kind === 'NetworkPolicy')) {
    ((p['spec']?.egress ?? []) as Record<string, unknown>[]).forEach((rule, i) => {
      const at = `${p.metadata.name}: egress rule ${i + 1}`;
      const peers = rule['to'] as Record<string, any>[] | undefined;
      if (!peers || peers.length === 0) return void open.push(`${at} has no "to"`);
      for (const peer of peers) {
        if (Object.keys(peer).length === 0) open.push(`${at} has an empty peer`);
        const block = peer['ipBlock'] as { cidr: string; except?: string[] } | undefined;
        if (block && /\/0$/.test(block.cidr) && !PRIVATE_RANGES.every((r) => block.except?.includes(r))) open.push(`${at}: ipBlock ${block.cidr} must leave out ${PRIVATE_RANGES.join(', ')}`);
      }
    });
  }
  return open;
}

import type { K8sObject } from './manifests.js';
import { egressTo, selectorMatches, type Outsider } from './network-policy.js';
import { containerEnv } from './pod-invariants.js';

type Obj = Record<string, any>;

export interface RuntimeSpec {
  /** Deployment name → its serving port, how it is probed, and the port its /metrics is served on. */
  workloads: Record<string, { port: number; probe: 'grpc' | 'http'; metricsPort: number }>;
  /** The OpenTelemetry collector, as NetworkPolicy peers see it: traces must be let through to it. */
  collector: Outsider;
  /** What a pod needs after its preStop sleep and SHUTDOWN_GRACE_MS before SIGKILL: closing pools, flushing spans. */
  closeMarginSeconds: number;
}

/**
 * What the processes expect of their Deployments (services/shared/src/service-main.ts, gateway/src/index.ts):
 * Prometheus finds /metrics where METRICS_PORT puts it, spans leave under the workload's name for the
 * collector's port, and a pod is out of its Services before SIGTERM and gets SIGKILL only after the grace
 * period. [] when fine.
 */
export function runtimeProblems(objects: K8sObject[], spec: RuntimeSpec): string[] {
  const problems: string[] = [];
  const configMaps = new Map<string, Record<string, string>>(
    objects.filter((o) => o.kind === 'ConfigMap').map((c) => [c.metadata.name, (c['data'] ?? {}) as Record<string, string>]),
  );
  for (const d of objects.filter((o) => o.kind === 'Deployment')) {
    const name = d.metadata.name;
    const w = spec.workloads[name];
    if (!w) continue;
    const at = `Deployment/${name}`;
    const pod: Obj = d['spec']?.template ?? {};
    const container: Obj = pod['spec']?.containers?.[0] ?? {};
    const env = containerEnv(container, configMaps);

    // Metrics: the port the process serves them on, named and announced.
    const annotations = (pod['metadata']?.annotations ?? {}) as Record<string, string>;
    const scrape = [annotations['prometheus.io/scrape'], annotations['prometheus.io/port'], annotations['prometheus.io/path']];
    if (scrape.join(' ') !== `true ${w.metricsPort} /metrics`) problems.push(`${at}: prometheus.io/scrape, port, path must be true, ${w.metricsPort}, /metrics; got ${scrape.join(', ')}`);
    const ports = (container['ports'] ?? []) as Obj[];
    const metricsName = w.probe === 'grpc' ? 'metrics' : 'http';
    const metrics = ports.find((p) => p['name'] === metricsName);
    if (metrics?.['containerPort'] !== w.metricsPort) problems.push(`${at}: container port ${metricsName} must be ${w.metricsPort}`);
    if (w.probe === 'grpc') {
      // What the process listens on: METRICS_PORT, whose default is GRPC_PORT + 1000.
      const grpcPort = Number(env.get('GRPC_PORT'));
      if (metrics?.['containerPort'] !== grpcPort + 1000) problems.push(`${at}: the metrics port is not GRPC_PORT (${grpcPort}) + 1000`);
      if (env.get('METRICS_PORT') !== String(metrics?.['containerPort'])) problems.push(`${at}: METRICS_PORT ${env.get('METRICS_PORT')} is not the metrics container port`);
    }
    const labels = (pod['metadata']?.labels ?? {}) as Record<string, string>;
    const services = objects.filter((o) => o.kind === 'Service' && o['spec']?.selector && selectorMatches({ matchLabels: o['spec'].selector }, labels));
    const served = services.flatMap((s) => (s['spec'].ports ?? []) as Obj[]).some((p) => p['name'] === metricsName && [metricsName, w.metricsPort].includes(p['targetPort']));
    if (!served) problems.push(`${at}: no Service port named ${metricsName} targets its metrics (a ServiceMonitor names it)`);

    // Traces: named after the workload; an endpoint, when set, reachable through the policies.
    if (env.get('OTEL_SERVICE_NAME') !== name) problems.push(`${at}: OTEL_SERVICE_NAME must be ${name}`);
    if (!env.has('OTEL_EXPORTER_OTLP_ENDPOINT')) problems.push(`${at}: OTEL_EXPORTER_OTLP_ENDPOINT is not set (empty turns tracing off)`);
    const endpoint = env.get('OTEL_EXPORTER_OTLP_ENDPOINT');
    if (endpoint) {
      const url = URL.canParse(endpoint) ? new URL(endpoint) : undefined;
      if (!url || !['http:', 'https:'].includes(url.protocol)) problems.push(`${at}: OTEL_EXPORTER_OTLP_ENDPOINT ${endpoint} is no http(s) URL`);
      else {
        const port = `${url.port || (url.protocol === 'https:' ? 443 : 80)}/TCP`;
        if (!(egressTo(objects, spec.collector, [port])[name] ?? []).includes(port)) problems.push(`${at}: no egress to the collector on ${port}`);
      }
    }

    // Shutdown: sleep while the endpoints go, then the grace period, inside terminationGracePeriodSeconds.
    const sleep = container['lifecycle']?.preStop?.sleep?.seconds;
    const slept = Number.isInteger(sleep) && sleep >= 1 ? (sleep as number) : 0;
    if (slept === 0) problems.push(`${at}: lifecycle.preStop.sleep.seconds must be set (>= 1)`);
    const grace = Number(env.get('SHUTDOWN_GRACE_MS'));
    if (!env.get('SHUTDOWN_GRACE_MS') || !Number.isInteger(grace)) problems.push(`${at}: SHUTDOWN_GRACE_MS must be set`);
    const period = pod['spec']?.terminationGracePeriodSeconds;
    const needed = (slept + spec.closeMarginSeconds) * 1000 + grace;
    if (!(period * 1000 >= needed)) problems.push(`${at}: terminationGracePeriodSeconds ${period} must cover the preStop sleep, SHUTDOWN_GRACE_MS and ${spec.closeMarginSeconds} s (${needed} ms)`);
  }
  return problems;
}

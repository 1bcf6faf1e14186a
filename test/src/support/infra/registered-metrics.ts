import { metricsRegistry } from '@green-impact/shared/metrics';
import { createLogger } from '@green-impact/shared/logger';
import '@green-impact/shared/db/statement-counter';
import '@green-impact/gateway';
import { registerChainMetrics } from '@green-impact/chain/jobs/job-metrics';
import '@green-impact/chain/networks/balance-metrics';
import '@green-impact/portfolio/jobs/recompute-runner';
import '@green-impact/shared/db/pool-metrics';
import '@green-impact/shared/bulkhead';
import '@green-impact/shared/pdf/renderer';
import '@green-impact/shared/bus/kafka-subscription';

/** Labels every series gets from Prometheus and the ServiceMonitors, besides a metric's own. */
export const TARGET_LABELS = ['namespace', 'service', 'pod', 'instance', 'job', 'container', 'endpoint'];

/**
 * Every metric the code registers, by name, with its label names: read from the processes' one registry
 * after loading the modules that register them (the gateway and everything it imports, the database
 * statement counter and pool gauge, the bulkheads, the chain's job and balance gauges, portfolio's recompute
 * failures). Histograms also answer to `_bucket` (with `le`), `_sum` and
 * `_count`.
 */
export function registeredMetrics(): Map<string, string[]> {
  // The chain's gauges are created when a service registers its database; nothing is scraped here, so
  // the database is never asked.
  const unregister = registerChainMetrics({} as Parameters<typeof registerChainMetrics>[0], createLogger('metrics-test', { level: 'silent' }));
  unregister();
  const metrics = new Map<string, string[]>();
  for (const metric of metricsRegistry.getMetricsAsArray()) {
    const { name, labelNames } = metric as unknown as { name: string; labelNames: string[] };
    const type = (metric as unknown as { type?: string }).type;
    metrics.set(name, labelNames);
    if (type === 'histogram') {
      metrics.set(`${name}_bucket`, [...labelNames, 'le']);
      metrics.set(`${name}_sum`, labelNames);
      metrics.set(`${name}_count`, labelNames);
    }
  }
  return metrics;
}

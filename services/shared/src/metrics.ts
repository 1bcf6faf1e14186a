import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** One Prometheus registry per process; every service registers into it. */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

/** A counter in this process's registry, for services that do not depend on prom-client themselves. */
export function serviceCounter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> {
  return new Counter({ name, help, labelNames, registers: [metricsRegistry] });
}

export const grpcMetrics = {
  handled: new Counter({
    name: 'grpc_server_handled_total',
    help: 'gRPC calls completed, by service, method and status code.',
    labelNames: ['service', 'method', 'code'] as const,
    registers: [metricsRegistry],
  }),
  duration: new Histogram({
    name: 'grpc_server_handling_seconds',
    help: 'Time to handle a gRPC call.',
    labelNames: ['service', 'method'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [metricsRegistry],
  }),
};

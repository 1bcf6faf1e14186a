import { Counter, Histogram } from 'prom-client';
import { metricsRegistry } from '@green-impact/shared/metrics';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '@green-impact/shared/logger';
import { auditFields, locals } from './request-context.js';

// Registered once per process in the shared registry, however many gateways a process creates.
const requests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered by the gateway, by route, method and status.',
  labelNames: ['route', 'method', 'status'] as const,
  registers: [metricsRegistry],
});

const duration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by route, method and status.',
  labelNames: ['route', 'method', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

const operations = new Counter({
  name: 'gateway_v1_operations_total',
  help: '/v1/call requests by solution/operation (known operations only) and status.',
  labelNames: ['operation', 'status'] as const,
  registers: [metricsRegistry],
});

const QUIET_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Records metrics and one access-log line per request when the response finishes. The log line has
 * no bodies, headers or query strings, so no key or PII reaches it.
 */
export function observeRequests(log: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const { route, requestId, operation, caller } = locals(res);
      const labels = { route, method: req.method, status: String(res.statusCode) };
      requests.inc(labels);
      duration.observe(labels, seconds);
      if (operation) operations.inc({ operation, status: labels.status });
      const line = { requestId, ...labels, operation, ...auditFields(caller), ms: Math.round(seconds * 1000) };
      if (QUIET_ROUTES.has(route)) log.debug(line, 'request');
      else log.info(line, 'request');
    });
    next();
  };
}

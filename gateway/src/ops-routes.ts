import { Router } from 'express';
import { metricsRegistry } from '@green-impact/shared/metrics';
import type { Backend } from './clients.js';
import { checkReadiness } from './readiness.js';
import { routeLabel } from './request-context.js';

/**
 * Probes and metrics for the platform: /healthz (the process answers), /readyz (every backend's gRPC
 * health check answers SERVING, and the gateway is not shutting down), /metrics (Prometheus).
 */
export function opsRoutes(options: { backends: readonly Backend[]; timeoutMs: number; isClosing: () => boolean }): Router {
  const router = Router();
  router.get('/healthz', routeLabel('/healthz'), (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', routeLabel('/readyz'), async (_req, res) => {
    const { ready, backends } = await checkReadiness(options.backends, options.timeoutMs);
    const closing = options.isClosing();
    res.status(ready && !closing ? 200 : 503).json({
      status: closing ? 'shutting down' : ready ? 'ready' : 'not ready',
      backends,
    });
  });
  router.get('/metrics', routeLabel('/metrics'), async (_req, res) => {
    res.setHeader('Content-Type', metricsRegistry.contentType);
    res.send(await metricsRegistry.metrics());
  });
  return router;
}

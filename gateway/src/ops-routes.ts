import { Router } from 'express';
import { metricsRegistry } from '@green-impact/shared/metrics';
import type { Backend } from './clients.js';
import { checkReadiness } from './readiness.js';
import { routeLabel } from './request-context.js';

/**
 * Probes and metrics for the platform: /healthz (the process answers), /readyz, /metrics (Prometheus).
 * /readyz is 503 only while the gateway shuts down. A backend that is down makes it `degraded` (still 200,
 * each backend's gRPC health in the body): the operations of that backend answer 503 UNAVAILABLE, every
 * other operation keeps working. Were the gateway unready, one broken backend would take every gateway
 * pod out of the Service, and with them the operations that could still be answered.
 */
export function opsRoutes(options: { backends: readonly Backend[]; timeoutMs: number; isClosing: () => boolean }): Router {
  const router = Router();
  router.get('/healthz', routeLabel('/healthz'), (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', routeLabel('/readyz'), async (_req, res) => {
    const { ready, backends } = await checkReadiness(options.backends, options.timeoutMs);
    const closing = options.isClosing();
    res.status(closing ? 503 : 200).json({
      status: closing ? 'shutting down' : ready ? 'ready' : 'degraded',
      backends,
    });
  });
  router.get('/metrics', routeLabel('/metrics'), async (_req, res) => {
    res.setHeader('Content-Type', metricsRegistry.contentType);
    res.send(await metricsRegistry.metrics());
  });
  return router;
}

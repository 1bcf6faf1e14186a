import type { ErrorRequestHandler, NextFunction, Request, Response } from 'express';
import { Counter } from 'prom-client';
import { DeadlineExceededError, UnavailableError } from '@green-impact/shared/errors';
import { withCallBudget } from '@green-impact/shared/grpc/call-budget';
import { metricsRegistry } from '@green-impact/shared/metrics';
import { locals } from './request-context.js';

const expired = new Counter({
  name: 'gateway_request_deadline_exceeded_total',
  help: 'Requests answered 504 because their REQUEST_DEADLINE_MS budget ran out, by route.',
  labelNames: ['route'] as const,
  registers: [metricsRegistry],
});

/**
 * Gives the rest of the request `ms` to be answered. Mounted after the body is read: receiving a slow
 * upload is Node's requestTimeout's business, this budget measures the gateway's own work. When it runs
 * out the client gets 504 DEADLINE_EXCEEDED at once, through `answer` (the one error handler, so in the
 * route's error shape), and the gRPC calls still in flight are cancelled (call-budget.ts); whatever the
 * handler produces later is dropped. A client that goes away before its answer cancels them too.
 */
export function requestDeadline(ms: number, answer: ErrorRequestHandler) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      const err = new DeadlineExceededError(`The request did not finish within ${ms} ms and was cancelled; please retry.`);
      expired.inc({ route: locals(res).route });
      if (!res.headersSent) answer(err, req, res, () => undefined);
      controller.abort(err);
    }, ms);
    res.once('close', () => {
      clearTimeout(timer);
      if (!res.writableFinished) controller.abort(new UnavailableError('The client closed the connection.'));
    });
    withCallBudget({ deadline: Date.now() + ms, signal: controller.signal }, next);
  };
}

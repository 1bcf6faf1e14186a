import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '@green-impact/shared/logger';
import { NotFoundError, ResourceExhaustedError } from '@green-impact/shared/errors';
import { describeError } from './http-errors.js';
import { locals } from './request-context.js';

/**
 * The one place an HTTP error body is written. /v1/call and everything else get
 * `{message, code}`; /graphql transport errors (e.g. an unparsable body) get the GraphQL shape.
 */
export function errorHandler(log: Logger) {
  return (err: unknown, _req: Request, res: Response, _next: NextFunction): void => {
    const { requestId, route } = locals(res);
    if (res.writableEnded) {
      // Already answered (by its deadline, request-deadline.ts): what the handler ran into since is moot.
      log.debug({ err, requestId, route }, 'failure after the answer was sent');
      return;
    }
    const { status, body, internal } = describeError(err);
    if (internal) log.error({ err, requestId, route }, 'request failed');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.status(status);
    if (err instanceof ResourceExhaustedError && err.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(err.retryAfterSeconds));
    if (route === '/graphql') res.json({ errors: [{ message: body.message, extensions: { code: body.code } }] });
    else res.json(body);
  };
}

export function notFound(req: Request, _res: Response, next: NextFunction): void {
  next(new NotFoundError(`No route for ${req.method} ${req.path.slice(0, 100)}.`));
}

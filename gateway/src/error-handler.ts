import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '@green-impact/shared/logger';
import { DomainError, NotFoundError } from '@green-impact/shared/errors';
import { describeError } from './http-errors.js';
import { errorExtensions } from './graphql/error-codes.js';
import { locals } from './request-context.js';
import { VERSIONED_SOLUTIONS, type Solution } from './v1/operation.js';

/**
 * The one place an HTTP error body is written. /v1/call and everything else get
 * `{message, code}`; /graphql transport errors (e.g. an unparsable body) get the GraphQL shape.
 */
export function errorHandler(log: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
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
    if (err instanceof DomainError && err.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(err.retryAfterSeconds));
    if (route === '/graphql') res.json({ errors: [{ message: body.message, extensions: errorExtensions(body.code) }] });
    else if (route === '/v1/call' && answersInStatusEnvelope(req.body)) res.json({ statusCode: status, statusMessage: body.message, ...body });
    else res.json(body);
  };
}

/**
 * Hash and NFT operations answer in the spec's `{statusCode, statusMessage}` envelope (spec §9 note 3):
 * a legacy client reads statusCode, so a failure carries it too, besides the project's `{message, code}`.
 */
function answersInStatusEnvelope(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Record<string, unknown>;
  const solution = b['solution'] ?? b['contract'];
  return typeof solution === 'string' && VERSIONED_SOLUTIONS.has(solution as Solution);
}

export function notFound(req: Request, _res: Response, next: NextFunction): void {
  next(new NotFoundError(`No route for ${req.method} ${req.path.slice(0, 100)}.`));
}

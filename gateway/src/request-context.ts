import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

export const REQUEST_ID_HEADER = 'x-request-id';

/** Request ids a client may choose; anything else is replaced so logs cannot be forged or flooded. */
const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Per-request facts the gateway's middleware share through `res.locals`. */
export interface RequestLocals {
  requestId: string;
  /** Low-cardinality route label for metrics and logs (set by each router). */
  route: string;
  /** `solution/operation` of a /v1/call request, once known. */
  operation?: string;
  /** The address the rate limits count the client by (rate-limit/client-address.ts), once known. */
  clientAddress?: string;
}

export function locals(res: Response): RequestLocals {
  return res.locals as RequestLocals;
}

/** Accepts the client's X-Request-Id or makes one, and echoes it on the response. */
export function requestId(req: Request, res: Response, next: NextFunction): void {
  const given = req.header(REQUEST_ID_HEADER);
  const id = given !== undefined && ACCEPTABLE_REQUEST_ID.test(given) ? given : randomUUID();
  locals(res).requestId = id;
  locals(res).route = 'unmatched';
  res.setHeader('X-Request-Id', id);
  next();
}

/** Labels the request's route for metrics and logs. */
export function routeLabel(route: string) {
  return (_req: Request, res: Response, next: NextFunction): void => {
    locals(res).route = route;
    next();
  };
}

import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Caller } from '@green-impact/shared/caller';

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
  /** Who the request was authenticated as, once known: the access log's audit fields. */
  caller?: Caller;
}

/** The access log's audit fields: the account, and the person who acted when a bearer token named one. */
export function auditFields(caller: Caller | undefined): { accountId?: string; actor?: { subject: string; issuer: string } } {
  if (!caller) return {};
  return { accountId: caller.accountId, ...(caller.subject && caller.issuer ? { actor: { subject: caller.subject, issuer: caller.issuer } } : {}) };
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

import { NotAuthorizedError, UnauthenticatedError } from './errors.js';

/**
 * Who is calling: set by the gateway after authentication, carried to services in a signed caller token
 * (callers/call-metadata.ts); a service believes nothing else about its caller.
 */
export interface Caller {
  accountId: string;
  role: 'operator' | 'user';
  requestId?: string;
  /** The person who acted, when a bearer token authenticated the request (its `sub`); absent for API keys. */
  subject?: string;
  /** The OpenID Connect issuer that vouched for `subject` (the token's `iss`). */
  issuer?: string;
}

export const METADATA_REQUEST_ID = 'x-request-id';

export function requireCaller(caller: Caller | undefined): Caller {
  if (!caller) throw new UnauthenticatedError();
  return caller;
}

/** Shared reference data and account administration are changed by operators only. */
export function requireOperator(caller: Caller): void {
  if (caller.role !== 'operator') throw new NotAuthorizedError();
}

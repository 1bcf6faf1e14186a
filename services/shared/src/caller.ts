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

/**
 * The acting person's two columns (`acted_by_subject`, `acted_by_issuer`) for a row a caller creates: both
 * null for an API-key caller. Services store them with what a request creates (issue 30).
 */
export function actedByColumns(caller: Caller | undefined): [subject: string | null, issuer: string | null] {
  return caller?.subject && caller.issuer ? [caller.subject, caller.issuer] : [null, null];
}

/** The acting person as read back: undefined when the row was made with an API key. */
export interface ActedBy {
  subject: string;
  issuer: string;
}

/** The `actedBy` field of an answer (a proto message's optional ActingPerson): absent for an API-key row. */
export function actedByField(row: { actedBySubject: string | null; actedByIssuer: string | null }): { actedBy?: ActedBy } {
  return row.actedBySubject !== null && row.actedByIssuer !== null ? { actedBy: { subject: row.actedBySubject, issuer: row.actedByIssuer } } : {};
}

export function requireCaller(caller: Caller | undefined): Caller {
  if (!caller) throw new UnauthenticatedError();
  return caller;
}

/** Shared reference data and account administration are changed by operators only. */
export function requireOperator(caller: Caller): void {
  if (caller.role !== 'operator') throw new NotAuthorizedError();
}

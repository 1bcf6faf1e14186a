import type { Caller } from '@green-impact/shared/caller';
import { DomainError, NotAuthorizedError, UnauthenticatedError } from '@green-impact/shared/errors';
import { AccountRole, type Account } from '@green-impact/proto/greenimpact/identity/v1/identity';
import { AuthCache, type Authenticated } from './auth-cache.js';
import type { IdentityClient } from './clients.js';
import { bearerTokenOf, BearerVerifier, BEARER_NOT_ENABLED, type VerifiedToken } from './oidc/bearer-tokens.js';

export const API_KEY_HEADER = 'x-api-key';
export const AUTHORIZATION_HEADER = 'authorization';

/** Longer values are not keys; they are refused without a round trip to identity. */
const MAX_API_KEY_LENGTH = 512;

export type { Authenticated };

/**
 * `clientAddress` (rate-limit/client-address.ts) lets a refused key count against the address that sent it.
 * `authorization` is the Authorization header (or graphql-ws's connection_init `authorization`): a bearer
 * token there authenticates instead of an API key, where the route accepts one (/graphql, /v1/call).
 */
export type Authenticate = (apiKey: string | undefined, requestId: string, clientAddress?: string, authorization?: string) => Promise<Authenticated>;

/**
 * The credential a request's rate limit counts: its API key, else its bearer token. A token identity's
 * account accepted draws from a bucket of its own, as a key does; a refused one counts against its address.
 */
export function credentialOf(apiKey: string | undefined, authorization: string | undefined): string | undefined {
  return apiKey || bearerTokenOf(authorization) || undefined;
}

/**
 * Resolves an `X-Api-Key` value, or an OpenID Connect bearer token (oidc/), to the calling account.
 * Shared by /v1/call and /graphql so both answer a missing or bad credential the same way.
 */
export function createAuthenticator(identity: IdentityClient, cache?: AuthCache, bearer: BearerVerifier = new BearerVerifier([])): Authenticate {
  const byToken = bearerAuthenticator(identity, bearer, cache);
  return async (apiKey, requestId, _address, authorization) => {
    const token = bearerTokenOf(authorization);
    if (token !== undefined) {
      if (apiKey !== undefined && apiKey !== '') throw new UnauthenticatedError('Send an API key or a bearer token, not both.');
      return byToken(token, requestId);
    }
    if (apiKey === undefined || apiKey === '') throw new UnauthenticatedError();
    if (apiKey.length > MAX_API_KEY_LENGTH) throw new UnauthenticatedError('The API key is not valid.');
    const cacheKey = cache?.enabled ? AuthCache.keyOf(apiKey) : undefined;
    const cached = cacheKey === undefined ? undefined : cache!.lookup(cacheKey);
    if (cached) return { ...cached, caller: { ...cached.caller, requestId } };
    const epoch = cache?.epoch ?? 0;
    const { account, keyId } = await identity.authenticate({ apiKey }, { requestId });
    if (!account) throw new UnauthenticatedError('The API key is not valid.');
    const authenticated = { caller: { accountId: account.id, role: roleOf(account.role), requestId }, account, keyId };
    if (cacheKey !== undefined) cache!.store(cacheKey, authenticated, epoch);
    return authenticated;
  };
}

/**
 * A verified token becomes its account's caller: the account must exist in identity (a token for a deleted
 * account is refused), the role is the token's but never above the account's own, and the token's subject
 * and issuer ride along as the acting person. Kept in the authentication cache under the token's hash until
 * it expires or identity announces a change of the account.
 */
function bearerAuthenticator(identity: IdentityClient, bearer: BearerVerifier, cache: AuthCache | undefined) {
  return async (token: string, requestId: string): Promise<Authenticated> => {
    if (!bearer.enabled) throw new UnauthenticatedError(BEARER_NOT_ENABLED);
    const cacheKey = cache?.enabled ? `bearer:${AuthCache.keyOf(token)}` : undefined;
    const cached = cacheKey === undefined ? undefined : cache!.lookup(cacheKey);
    if (cached && cached.token!.expiresAt > Date.now()) return { ...cached, caller: { ...cached.caller, requestId } };
    const verified = await bearer.verify(token);
    const epoch = cache?.epoch ?? 0;
    const account = await accountOf(identity, verified, requestId);
    if (!account) throw new UnauthenticatedError('The bearer token\'s account does not exist.');
    const role = verified.wantsOperator && roleOf(account.role) === 'operator' ? 'operator' : 'user';
    const authenticated: Authenticated = {
      caller: { accountId: account.id, role, requestId, subject: verified.subject, issuer: verified.issuer.issuer },
      account,
      keyId: '',
      token: { expiresAt: verified.expiresAt, readOnly: !verified.scopes.includes(verified.issuer.writeScope) },
    };
    if (cacheKey !== undefined) cache!.store(cacheKey, authenticated, epoch);
    return authenticated;
  };
}

/**
 * The token's account as identity has it: one read by id (IdentityService.GetAccount, a primary-key
 * lookup), with the gateway's own operator authority (the token was verified first, so only a signed
 * claim reaches here). NOT_FOUND: no such account.
 */
async function accountOf(identity: IdentityClient, token: VerifiedToken, requestId: string): Promise<Account | undefined> {
  const caller: Caller = { accountId: token.accountId, role: 'operator', requestId };
  try {
    return (await identity.getAccount({ accountId: token.accountId }, { caller, requestId })).account;
  } catch (err) {
    if (err instanceof DomainError && err.code === 'NOT_FOUND') return undefined;
    throw err;
  }
}

/** A read-only token changes nothing: refused before any write (derived from the catalogue: /v1/call rows, GraphQL mutations). */
export function refuseReadOnlyWrite(authenticated: Authenticated): void {
  if (authenticated.token?.readOnly) {
    throw new NotAuthorizedError('This bearer token is read-only (it lacks the write scope): it may not change anything.');
  }
}

/** Anything but an explicit operator is treated as a plain user (least privilege). */
function roleOf(role: AccountRole): Caller['role'] {
  return role === AccountRole.ACCOUNT_ROLE_OPERATOR ? 'operator' : 'user';
}

import type { Caller } from '@green-impact/shared/caller';
import { UnauthenticatedError } from '@green-impact/shared/errors';
import { AccountRole } from '@green-impact/proto/greenimpact/identity/v1/identity';
import { AuthCache, type Authenticated } from './auth-cache.js';
import type { IdentityClient } from './clients.js';

export const API_KEY_HEADER = 'x-api-key';

/** Longer values are not keys; they are refused without a round trip to identity. */
const MAX_API_KEY_LENGTH = 512;

export type { Authenticated };

/** `clientAddress` (rate-limit/client-address.ts) lets a refused key count against the address that sent it. */
export type Authenticate = (apiKey: string | undefined, requestId: string, clientAddress?: string) => Promise<Authenticated>;

/**
 * Resolves an `X-Api-Key` value to the calling account through identity's Authenticate. Shared by
 * /v1/call and /graphql so both answer a missing or bad key the same way.
 */
export function createAuthenticator(identity: IdentityClient, cache?: AuthCache): Authenticate {
  return async (apiKey, requestId) => {
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

/** Anything but an explicit operator is treated as a plain user (least privilege). */
function roleOf(role: AccountRole): Caller['role'] {
  return role === AccountRole.ACCOUNT_ROLE_OPERATOR ? 'operator' : 'user';
}

import type { NextFunction, Request, Response } from 'express';
import { Counter } from 'prom-client';
import { DomainError, ResourceExhaustedError } from '@green-impact/shared/errors';
import { metricsRegistry } from '@green-impact/shared/metrics';
import { API_KEY_HEADER, AUTHORIZATION_HEADER, credentialOf, type Authenticate } from '../auth.js';
import { locals } from '../request-context.js';
import { clientAddress } from './client-address.js';
import type { LimitName, RateLimiter, Refusal } from './rate-limiter.js';

const limited = new Counter({
  name: 'gateway_rate_limited_requests_total',
  help: 'Requests answered 429 by the gateway\'s rate limits, by route and limit (key, address, unauthenticated, refused_keys).',
  labelNames: ['route', 'limit'] as const,
  registers: [metricsRegistry],
});

const REFUSED: Record<LimitName, string> = {
  key: 'Too many requests with this API key',
  address: 'Too many requests without an API key from this address',
  unauthenticated: 'Too many requests without an API key to this service',
  refused_keys: 'Too many requests with invalid API keys from this address',
};
/** A key not known good yet is counted as anonymous traffic: said so, rather than "without a key". */
const REFUSED_NEW_KEY: Partial<Record<LimitName, string>> = {
  address: 'Too many requests with new API keys from this address',
  unauthenticated: 'Too many requests with new API keys to this service',
};

/** The text of a 429, without its "retry in". */
export function refusalText(refusal: Refusal): string {
  return (refusal.keyed && REFUSED_NEW_KEY[refusal.limit]) || REFUSED[refusal.limit];
}

/**
 * Counts the request against its known key, or else its address and all unauthenticated traffic, before
 * its body is read, and refuses it with 429 RESOURCE_EXHAUSTED and Retry-After (whole seconds) when a
 * limit is reached. Mount it after the route's label, so the 429 has the route's error shape and metric
 * label.
 */
export function rateLimit(limiter: RateLimiter) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const address = clientAddress(req.ip);
    locals(res).clientAddress = address;
    const refusal = await limiter.admit({ apiKey: credentialOf(req.header(API_KEY_HEADER), req.header(AUTHORIZATION_HEADER)), address });
    if (refusal) {
      limited.inc({ route: locals(res).route, limit: refusal.limit });
      const seconds = Math.max(1, Math.ceil(refusal.retryAfterMs / 1000));
      throw new ResourceExhaustedError(`${refusalText(refusal)}; retry in ${seconds} s.`, { retryAfterSeconds: seconds });
    }
    next();
  };
}

/**
 * An authenticator that tells the limiter identity's verdict on each key: an accepted key becomes known
 * good (its own bucket from the next request on); a refused one is known good no more and counts against
 * the client's address, so guessing keys soon meets the address's refused-keys limit (checked by rateLimit
 * before the next key is tried). A bearer token is learnt the same way (auth.ts credentialOf), so people
 * signed in behind one address do not share its anonymous bucket, and forged tokens meet the refused-keys
 * limit. Authorization is unchanged: every request is still authenticated.
 */
export function learnKeyVerdicts(authenticate: Authenticate, limiter: RateLimiter): Authenticate {
  return async (apiKey, requestId, address, authorization) => {
    const epoch = limiter.knownKeysEpoch;
    const credential = credentialOf(apiKey, authorization);
    try {
      const authenticated = await authenticate(apiKey, requestId, address, authorization);
      if (credential) limiter.keyAccepted(credential, { keyId: authenticated.keyId, accountId: authenticated.account.id }, epoch);
      return authenticated;
    } catch (err) {
      if (credential && err instanceof DomainError && err.code === 'UNAUTHENTICATED') await limiter.keyRefused(credential, address);
      throw err;
    }
  };
}

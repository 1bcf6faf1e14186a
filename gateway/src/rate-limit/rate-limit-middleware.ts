import type { NextFunction, Request, Response } from 'express';
import { Counter } from 'prom-client';
import { DomainError, ResourceExhaustedError } from '@green-impact/shared/errors';
import { metricsRegistry } from '@green-impact/shared/metrics';
import { API_KEY_HEADER, type Authenticate } from '../auth.js';
import { locals } from '../request-context.js';
import { clientAddress } from './client-address.js';
import type { LimitName, RateLimiter } from './rate-limiter.js';

const limited = new Counter({
  name: 'gateway_rate_limited_requests_total',
  help: 'Requests answered 429 by the gateway\'s rate limits, by route and limit (key, address, refused_keys).',
  labelNames: ['route', 'limit'] as const,
  registers: [metricsRegistry],
});

const REFUSED: Record<LimitName, string> = {
  key: 'Too many requests with this API key',
  address: 'Too many requests without an API key from this address',
  refused_keys: 'Too many requests with invalid API keys from this address',
};

/**
 * Counts the request against its key or its address before its body is read, and refuses it with
 * 429 RESOURCE_EXHAUSTED and Retry-After (whole seconds) when a limit is reached. Mount it after the
 * route's label, so the 429 has the route's error shape and metric label.
 */
export function rateLimit(limiter: RateLimiter) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const address = clientAddress(req.ip);
    locals(res).clientAddress = address;
    const refusal = await limiter.admit({ apiKey: req.header(API_KEY_HEADER) || undefined, address });
    if (refusal) {
      limited.inc({ route: locals(res).route, limit: refusal.limit });
      const seconds = Math.max(1, Math.ceil(refusal.retryAfterMs / 1000));
      throw new ResourceExhaustedError(`${REFUSED[refusal.limit]}; retry in ${seconds} s.`, { retryAfterSeconds: seconds });
    }
    next();
  };
}

/**
 * An authenticator that counts each key identity refuses against the client's address, so guessing
 * keys soon meets the address's refused-keys limit (checked by rateLimit before the next key is tried).
 */
export function countRefusedKeys(authenticate: Authenticate, limiter: RateLimiter): Authenticate {
  return async (apiKey, requestId, address) => {
    try {
      return await authenticate(apiKey, requestId, address);
    } catch (err) {
      if (apiKey && address && err instanceof DomainError && err.code === 'UNAUTHENTICATED') await limiter.keyRefused(address);
      throw err;
    }
  };
}

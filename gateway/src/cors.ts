import type { RequestHandler } from 'express';
import { ConfigError } from '@green-impact/shared/config';
import { API_KEY_HEADER, AUTHORIZATION_HEADER } from './auth.js';
import { REQUEST_ID_HEADER } from './request-context.js';
import { RESULT_TRUNCATED_HEADER, TOTAL_COUNT_HEADER } from './v1/truncation.js';

/** What a browser page may send: the key, JSON bodies, the request id, trace context, Apollo's CSRF marker. */
const ALLOWED_HEADERS = ['Content-Type', API_KEY_HEADER, AUTHORIZATION_HEADER, REQUEST_ID_HEADER, 'traceparent', 'tracestate', 'apollo-require-preflight'].join(', ');
/**
 * What its script may read of an answer: the request id to quote, when to come back after a 429/503, and
 * whether a /v1/call list was cut at its cap.
 */
const EXPOSED_HEADERS = [REQUEST_ID_HEADER, 'Retry-After', RESULT_TRUNCATED_HEADER, TOTAL_COUNT_HEADER].join(', ');
const ALLOWED_METHODS = 'GET, POST, OPTIONS';
const PREFLIGHT_MAX_AGE_SECONDS = '600';

/**
 * CORS_ALLOWED_ORIGINS: origins (scheme://host[:port], exactly as a browser sends them) whose pages may call
 * /graphql and /v1/call. A wildcard is refused: the list is the decision of which frontends are trusted.
 */
export function parseAllowedOrigins(value: string | undefined): string[] {
  const origins = (value ?? '').split(',').map((o) => o.trim()).filter(Boolean);
  for (const origin of origins) {
    let url: URL | undefined;
    try {
      url = new URL(origin);
    } catch {
      url = undefined;
    }
    if (url === undefined || origin.includes('*') || !['http:', 'https:'].includes(url.protocol) || url.origin !== origin) {
      throw new ConfigError(`CORS_ALLOWED_ORIGINS must list origins like https://app.example.com (scheme, host, optional port; no path, no wildcard); "${origin}" is not one.`);
    }
  }
  return origins;
}

/**
 * Answers cross-origin browser requests from the allowed origins: the preflight (OPTIONS) with 204 and what
 * may be sent, every other answer with the origin echoed. Other origins get no CORS headers at all, so the
 * browser keeps their pages from reading anything; requests without Origin (servers, curl) are untouched.
 * Credentials (cookies) are never allowed: the key travels in X-Api-Key, which a page must set itself.
 */
export function corsAllowList(origins: string[]): RequestHandler {
  const allowed = new Set(origins);
  return (req, res, next) => {
    const origin = req.header('origin');
    // The answer differs by Origin: caches must keep them apart.
    if (allowed.size > 0) res.vary('Origin');
    if (origin === undefined || !allowed.has(origin)) {
      if (req.method === 'OPTIONS' && req.header('access-control-request-method') !== undefined) {
        res.status(204).end(); // a preflight from elsewhere: answered, but nothing is allowed
        return;
      }
      next();
      return;
    }
    res.set('Access-Control-Allow-Origin', origin);
    if (req.method === 'OPTIONS') {
      res
        .set({ 'Access-Control-Allow-Methods': ALLOWED_METHODS, 'Access-Control-Allow-Headers': ALLOWED_HEADERS, 'Access-Control-Max-Age': PREFLIGHT_MAX_AGE_SECONDS })
        .status(204)
        .end();
      return;
    }
    res.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    next();
  };
}

import Negotiator from 'negotiator';
import type { ApolloServerPlugin } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import { DomainError } from '@green-impact/shared/errors';

/**
 * GraphQL-over-HTTP status codes for request errors (parse, validation, variable coercion: an answer
 * with `errors` and no `data`). Apollo answers them 400 whatever the client accepts. The spec
 * (graphql-over-http, "application/json") says a server SHOULD answer every well-formed request 200 when
 * the response is application/json, since legacy clients treat a non-2xx answer as a transport failure;
 * only with application/graphql-response+json does the status tell the request failed (400). So the
 * status follows the media type the response is sent in, negotiated from Accept as Apollo does.
 */

export const APPLICATION_JSON = 'application/json; charset=utf-8';
export const GRAPHQL_RESPONSE_JSON = 'application/graphql-response+json; charset=utf-8';

/** The media type of a single-result answer for this Accept header, in Apollo's order; null when none fits. */
export function singleResultMediaType(accept: string | null | undefined): string | null {
  if (!accept) return APPLICATION_JSON;
  return new Negotiator({ headers: { accept } }).mediaType([APPLICATION_JSON, GRAPHQL_RESPONSE_JSON]) ?? null;
}

/** The status of an answer holding only request errors, sent in this media type. */
export function requestErrorStatus(mediaType: string | null): number {
  return mediaType === APPLICATION_JSON ? 200 : 400;
}

/** Every GraphQL answer is `Cache-Control: no-store`: they are per caller and never hinted cacheable. */
export const noStorePlugin: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async willSendResponse({ response }) {
        response.http.headers.set('cache-control', 'no-store');
      },
    };
  },
};

/** Applies requestErrorStatus to Apollo's 400 answers that carry request errors only. */
export const requestErrorStatusPlugin: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async willSendResponse({ request, response }) {
        if (response.body.kind !== 'single' || response.http.status !== 400) return;
        const result = response.body.singleResult;
        if (result.data !== undefined || !result.errors?.length) return;
        const mediaType = singleResultMediaType(request.http?.headers.get('accept'));
        if (mediaType === null) return;
        response.http.headers.set('content-type', mediaType);
        response.http.status = requestErrorStatus(mediaType);
      },
    };
  },
};

/**
 * The Retry-After of an error that is a bulkhead's refusal (backend-calls.ts, db/pool-share.ts: UNAVAILABLE
 * with a retry hint), or undefined for any other error. Such a refusal is the design working, not a fault.
 */
export function bulkheadRetryAfter(error: Error): number | undefined {
  const original = unwrapResolverError(error);
  return original instanceof DomainError && original.code === 'UNAVAILABLE' ? original.retryAfterSeconds : undefined;
}

/**
 * A request whose backend calls were refused because a bulkhead was full (backend-calls.ts: its account
 * has too many calls in flight) is answered 503 with Retry-After, as /v1/call would be, whatever else
 * the answer holds: the refusal is about the request, and a client that retries later will get it whole.
 */
export const retryAfterStatusPlugin: ApolloServerPlugin = {
  async requestDidStart() {
    let retryAfter: number | undefined;
    return {
      async didEncounterErrors({ errors }) {
        for (const error of errors) {
          const seconds = bulkheadRetryAfter(error);
          if (seconds !== undefined) retryAfter = Math.max(retryAfter ?? 0, seconds);
        }
      },
      async willSendResponse({ response }) {
        if (retryAfter === undefined) return;
        response.http.status = 503;
        response.http.headers.set('retry-after', String(retryAfter));
      },
    };
  },
};

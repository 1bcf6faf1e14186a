import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_URL_PATH,
} from '@opentelemetry/semantic-conventions';
import { contextFromHeaders } from './carriers.js';
import { tracer } from './tracer.js';

/** Probes and scrapes: traced, they would only drown the traces that matter. */
const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

let installed = false;

/**
 * One SERVER span per HTTP request of every `http.Server` of the process (the gateway, in whatever
 * launcher builds it), continuing the caller's `traceparent`; the request's handlers run inside it, so
 * the gRPC calls they make are its children. Done where Node dispatches the `request` event, as
 * OpenTelemetry's HTTP instrumentation does, because the gateway's server is built in several places.
 * The span holds the method, the path (never the query string) and, once known, the gateway's
 * low-cardinality route and operation and the request id.
 */
export function installHttpServerTracing(): void {
  if (installed) return;
  installed = true;
  const original = http.Server.prototype.emit as (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
  http.Server.prototype.emit = function emit(this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event !== 'request') return original.call(this, event, ...args);
    const [req, res] = args as [IncomingMessage, ServerResponse];
    const path = (req.url ?? '/').split('?')[0]!;
    if (QUIET_PATHS.has(path)) return original.call(this, event, ...args);
    const parent = contextFromHeaders(req.headers);
    const method = req.method ?? 'GET';
    const span = tracer().startSpan(
      `${method}`,
      { kind: SpanKind.SERVER, attributes: { [ATTR_HTTP_REQUEST_METHOD]: method, [ATTR_URL_PATH]: path } },
      parent,
    );
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      // The gateway keeps its route label and /v1/call operation in res.locals (express).
      const locals = (res as ServerResponse & { locals?: { route?: string; operation?: string; requestId?: string } }).locals;
      if (locals?.route && locals.route !== 'unmatched') {
        span.setAttribute(ATTR_HTTP_ROUTE, locals.route);
        span.updateName(`${method} ${locals.route}`);
      }
      if (locals?.operation) span.setAttribute('app.operation', locals.operation);
      const requestId = res.getHeader('x-request-id');
      if (typeof requestId === 'string') span.setAttribute('app.request_id', requestId);
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      if (!res.writableFinished) span.setAttribute('app.aborted', true);
      span.end();
    };
    res.once('finish', end).once('close', end);
    return context.with(trace.setSpan(parent, span), () => original.call(this, event, ...args));
  } as typeof http.Server.prototype.emit;
}

import { context, propagation, trace, ROOT_CONTEXT, type Context, type TextMapGetter } from '@opentelemetry/api';

/**
 * Where trace context travels (W3C `traceparent`/`tracestate`) outside gRPC, whose instrumentation carries
 * it in the calls' metadata: bus message headers, HTTP request headers. Only the trace context goes in or
 * out, never baggage: nothing a client sends can land in another service's attributes or logs.
 */

type Headers = Record<string, string | string[] | undefined>;
const headersGetter: TextMapGetter<Headers> = {
  keys: (h) => Object.keys(h),
  get: (h, key) => h[key],
};

/** The context HTTP or bus headers carry, or the root context. */
export function contextFromHeaders(headers: Headers): Context {
  return propagation.extract(ROOT_CONTEXT, headers, headersGetter);
}

/** The trace context of `ctx` as headers (empty when it holds no span). */
export function traceHeaders(ctx: Context = context.active()): Record<string, string> {
  const out: Record<string, string> = {};
  if (trace.getSpanContext(ctx)) propagation.inject(ctx, out);
  return out;
}

/** True when `ctx` holds a span to continue. */
export function hasSpan(ctx: Context): boolean {
  const sc = trace.getSpanContext(ctx);
  return sc !== undefined && trace.isSpanContextValid(sc);
}

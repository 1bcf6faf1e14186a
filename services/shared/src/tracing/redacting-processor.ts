import { SpanKind, SpanStatusCode, type Attributes, type Context, type SpanStatus } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor, TimedEvent } from '@opentelemetry/sdk-trace-base';
import { status as GrpcStatus } from '@grpc/grpc-js';

/**
 * Attributes the instrumentations fill with error messages, which may quote what a caller sent, and with
 * query strings, which may hold keys or personal data.
 */
const DROPPED_ATTRIBUTES = new Set(['grpc.error_message', 'exception.message', 'exception.stacktrace', 'url.query']);
/** URLs kept without their query string. */
const URL_ATTRIBUTES = new Set(['url.full', 'http.url', 'http.target']);

/** gRPC codes that mean the service failed (OpenTelemetry's RPC conventions); the rest are the caller's. */
const GRPC_SERVER_ERRORS = new Set<number>([
  GrpcStatus.UNKNOWN,
  GrpcStatus.DEADLINE_EXCEEDED,
  GrpcStatus.UNIMPLEMENTED,
  GrpcStatus.INTERNAL,
  GrpcStatus.UNAVAILABLE,
  GrpcStatus.DATA_LOSS,
]);

/**
 * Sits in front of the exporters' processors and hands them each span of OpenTelemetry's instrumentations
 * without the error messages those record (a gRPC status's details, an exception's message and stack:
 * our errors quote identifiers and values callers sent) and without query strings: the status keeps its code, named for gRPC. It
 * also applies the RPC conventions the gRPC instrumentation does not: a SERVER span whose status is the
 * caller's fault (NOT_FOUND, INVALID_ARGUMENT…) is no error of the service. Our own spans (scope
 * `@green-impact/*`) already record names, never messages, and pass unchanged.
 */
export class RedactingSpanProcessor implements SpanProcessor {
  constructor(private readonly inner: SpanProcessor) {}

  onStart(span: Span, parentContext: Context): void {
    this.inner.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    this.inner.onEnd(span.instrumentationScope.name.startsWith('@green-impact/') ? span : redacted(span));
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
}

function redacted(span: ReadableSpan): ReadableSpan {
  const grpcCode = span.attributes['rpc.grpc.status_code'];
  let status: SpanStatus = { code: span.status.code };
  if (typeof grpcCode === 'number' && span.status.code === SpanStatusCode.ERROR) {
    status = span.kind === SpanKind.SERVER && !GRPC_SERVER_ERRORS.has(grpcCode)
      ? { code: SpanStatusCode.UNSET }
      : { code: SpanStatusCode.ERROR, message: GrpcStatus[grpcCode] ?? String(grpcCode) };
  }
  const events: TimedEvent[] = span.events.map((e) => (e.attributes ? { ...e, attributes: cleaned(e.attributes) } : e));
  // The span itself stays the prototype: its context, resource, scope, times and links are as they were.
  return Object.create(span, { status: { value: status }, attributes: { value: cleaned(span.attributes) }, events: { value: events } }) as ReadableSpan;
}

function cleaned(attributes: Attributes): Attributes {
  const out: Attributes = {};
  for (const [k, v] of Object.entries(attributes)) {
    if (DROPPED_ATTRIBUTES.has(k)) continue;
    out[k] = URL_ATTRIBUTES.has(k) && typeof v === 'string' ? v.split('?')[0] : v;
  }
  return out;
}

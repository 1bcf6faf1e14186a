import { context, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { status as GrpcStatus, type Metadata } from '@grpc/grpc-js';
import { ATTR_RPC_METHOD } from '@opentelemetry/semantic-conventions';
import { contextFromMetadata, injectIntoMetadata } from './carriers.js';
import { tracer, tracingEnabled } from './tracer.js';

// Incubating semantic conventions, copied as OpenTelemetry advises instead of importing them.
const ATTR_RPC_SYSTEM = 'rpc.system';
const ATTR_RPC_SERVICE = 'rpc.service';
const ATTR_RPC_GRPC_STATUS_CODE = 'rpc.grpc.status_code';

/** A span around one gRPC call; a no-op when tracing is off. */
export interface RpcSpan {
  /** Runs `fn` with the span as the active context (what the handler calls and publishes joins the trace). */
  run<T>(fn: () => T): T;
  /** Ends the span with the call's status: a gRPC status name ('OK', 'NOT_FOUND', …) or number. */
  end(code: string | number): void;
}

const NOOP: RpcSpan = { run: (fn) => fn(), end: () => undefined };

/** Server codes that mean the service failed (OpenTelemetry's RPC conventions); the rest are the caller's. */
const SERVER_ERRORS = new Set<number>([
  GrpcStatus.UNKNOWN,
  GrpcStatus.DEADLINE_EXCEEDED,
  GrpcStatus.UNIMPLEMENTED,
  GrpcStatus.INTERNAL,
  GrpcStatus.UNAVAILABLE,
  GrpcStatus.DATA_LOSS,
]);

/** SERVER span of an incoming call, continuing the `traceparent` of its metadata. */
export function startServerSpan(service: string, method: string, metadata: Metadata, requestId: string): RpcSpan {
  if (!tracingEnabled()) return NOOP;
  const parent = contextFromMetadata(metadata);
  const span = tracer().startSpan(
    `${service}/${method}`,
    {
      kind: SpanKind.SERVER,
      attributes: { [ATTR_RPC_SYSTEM]: 'grpc', [ATTR_RPC_SERVICE]: service, [ATTR_RPC_METHOD]: method, 'app.request_id': requestId },
    },
    parent,
  );
  const ctx = trace.setSpan(parent, span);
  return { run: (fn) => context.with(ctx, fn), end: (code) => endSpan(span, code, SERVER_ERRORS) };
}

/**
 * CLIENT span of an outgoing call, child of the active context; writes its `traceparent` into the call's
 * metadata so the server continues the trace.
 */
export function startClientSpan(path: string, metadata: Metadata): RpcSpan {
  if (!tracingEnabled()) return NOOP;
  const [, service = '', method = ''] = path.split('/');
  const parent = context.active();
  const span = tracer().startSpan(
    `${service}/${method}`,
    { kind: SpanKind.CLIENT, attributes: { [ATTR_RPC_SYSTEM]: 'grpc', [ATTR_RPC_SERVICE]: service, [ATTR_RPC_METHOD]: method } },
    parent,
  );
  const ctx = trace.setSpan(parent, span);
  injectIntoMetadata(ctx, metadata);
  return { run: (fn) => context.with(ctx, fn), end: (code) => endSpan(span, code, undefined) };
}

function endSpan(span: Span, code: string | number, errors: Set<number> | undefined): void {
  const numeric = typeof code === 'number' ? code : (GrpcStatus[code as keyof typeof GrpcStatus] ?? GrpcStatus.UNKNOWN);
  span.setAttribute(ATTR_RPC_GRPC_STATUS_CODE, numeric);
  // The status name only: messages may quote what the caller sent.
  const failed = errors ? errors.has(numeric) : numeric !== GrpcStatus.OK;
  if (failed) span.setStatus({ code: SpanStatusCode.ERROR, message: GrpcStatus[numeric] ?? String(numeric) });
  span.end();
}

import { trace, type Tracer } from '@opentelemetry/api';

let enabled = false;

/** The tracer every hook uses: OpenTelemetry's no-op tracer until initTracing() registered a provider. */
export function tracer(): Tracer {
  return trace.getTracer('@green-impact/shared');
}

/** True once initTracing() registered a provider; the hooks skip all work otherwise. */
export function tracingEnabled(): boolean {
  return enabled;
}

export function markTracingEnabled(): void {
  enabled = true;
}

/** pino mixin: every log line written inside a span names its trace, so logs and traces join up. */
export function traceLogFields(): { traceId?: string; spanId?: string } {
  if (!enabled) return {};
  const sc = trace.getActiveSpan()?.spanContext();
  return sc && trace.isSpanContextValid(sc) ? { traceId: sc.traceId, spanId: sc.spanId } : {};
}

/** Adds attributes to the active span, if any (e.g. the job a consumer span handles). */
export function annotateActiveSpan(attributes: Record<string, string | number | boolean>): void {
  if (enabled) trace.getActiveSpan()?.setAttributes(attributes);
}

import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as OTLPJsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OTLPProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  ConsoleSpanExporter,
  SimpleSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_NAMESPACE } from '@opentelemetry/semantic-conventions';
import { ConfigError, envReader, type Env } from '../config.js';
import { enableInstrumentations } from './instrumentations.js';
import { RedactingSpanProcessor } from './redacting-processor.js';
import { markTracingEnabled } from './tracer.js';

/** The environment to read the OTEL_* variables from (config.ts processEnvironment()), or an exporter that takes every span. */
export type TracingOptions =
  | { env: Env; exporter?: undefined }
  /** Exports every span here, synchronously, whatever the environment says (tests: InMemorySpanExporter). */
  | { exporter: SpanExporter; env?: Env };

export interface Tracing {
  serviceName: string;
  /** Exports what is buffered and stops; later spans are dropped. */
  shutdown(): Promise<void>;
}

const EXPORTERS = ['otlp', 'console', 'none'] as const;
/** OTLP over HTTP in either encoding; gRPC (port 4317) is not offered: collectors take both on 4318. */
const OTLP_PROTOCOLS = { 'http/protobuf': OTLPProtobufTraceExporter, 'http/json': OTLPJsonTraceExporter } as const;

let active: { tracing: Tracing; provider: NodeTracerProvider } | undefined;

/**
 * Starts OpenTelemetry tracing for this process, if configured (the standard variables):
 * `OTEL_TRACES_EXPORTER` (`otlp`, `console`, `none`; default `otlp` when an OTLP endpoint is set, else
 * tracing stays off), `OTEL_EXPORTER_OTLP_ENDPOINT` / `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (OTLP over HTTP
 * with JSON bodies, or protobuf bodies when `OTEL_EXPORTER_OTLP[_TRACES]_PROTOCOL` is `http/protobuf`),
 * `OTEL_SERVICE_NAME`, `OTEL_TRACES_SAMPLER`, `OTEL_BSP_*`, `OTEL_SDK_DISABLED`.
 * Context travels as W3C `traceparent`: HTTP headers, gRPC metadata, bus message headers.
 * Answers undefined when tracing stays off; calling it twice keeps the first set-up.
 */
export function initTracing(serviceName: string, options: TracingOptions): Tracing | undefined {
  if (active) return active.tracing;
  const read = envReader(options.env ?? {});
  let exporters: SpanExporter[];
  if (options.exporter) {
    exporters = [options.exporter];
  } else {
    if (read.bool('OTEL_SDK_DISABLED', false)) return undefined;
    exporters = exportersFromEnv(read);
    if (exporters.length === 0) return undefined;
  }
  const name = read.optionalString('OTEL_SERVICE_NAME') ?? serviceName;
  const processors: SpanProcessor[] = (options.exporter
    ? [new SimpleSpanProcessor(options.exporter)]
    : exporters.map((e) => new BatchSpanProcessor(e))
  ).map((p) => new RedactingSpanProcessor(p));
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: name, [ATTR_SERVICE_NAMESPACE]: 'green-impact' }),
    spanProcessors: processors,
  });
  provider.register({ propagator: new W3CTraceContextPropagator() });
  markTracingEnabled();
  // Already done by register.ts when the process started with it; otherwise modules loaded from now on.
  enableInstrumentations();

  let stopped: Promise<void> | undefined;
  const tracing: Tracing = {
    serviceName: name,
    shutdown: () => (stopped ??= provider.shutdown().catch(() => undefined)),
  };
  active = { tracing, provider };
  // A process that ends on its own (every handle closed after SIGTERM) exports what is still buffered.
  process.once('beforeExit', () => void tracing.shutdown());
  return tracing;
}

/** True when the environment asks for tracing (what initTracing() would start without an explicit exporter). */
export function tracingRequested(env: Env): boolean {
  const read = envReader(env);
  if (read.bool('OTEL_SDK_DISABLED', false)) return false;
  const names = read.list('OTEL_TRACES_EXPORTER');
  if (names.includes('none')) return false;
  return names.length > 0 || read.optionalString('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') !== undefined || read.optionalString('OTEL_EXPORTER_OTLP_ENDPOINT') !== undefined;
}

/** Flushes and stops the process's tracing, if any (service shutdown calls it last). */
export async function shutdownTracing(): Promise<void> {
  await active?.tracing.shutdown();
}

function exportersFromEnv(read: ReturnType<typeof envReader>): SpanExporter[] {
  const endpoint =
    read.url('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', ['http', 'https']) ?? read.url('OTEL_EXPORTER_OTLP_ENDPOINT', ['http', 'https']);
  const names = read.list('OTEL_TRACES_EXPORTER');
  if (names.length === 0 && endpoint) names.push('otlp');
  const out: SpanExporter[] = [];
  for (const n of names) {
    if (!(EXPORTERS as readonly string[]).includes(n)) {
      throw new ConfigError(`OTEL_TRACES_EXPORTER must list ${EXPORTERS.join(', ')}; got "${n}".`);
    }
    if (n === 'console') out.push(new ConsoleSpanExporter());
    if (n === 'otlp') {
      const protocol = read.optionalString('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ?? read.optionalString('OTEL_EXPORTER_OTLP_PROTOCOL') ?? 'http/json';
      if (!Object.hasOwn(OTLP_PROTOCOLS, protocol)) {
        throw new ConfigError(`OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (OTLP over HTTP); got "${protocol}".`);
      }
      // The exporter reads the endpoint, headers, timeout and TLS files from the same variables.
      out.push(new OTLP_PROTOCOLS[protocol as keyof typeof OTLP_PROTOCOLS]());
    }
  }
  if (names.includes('none')) return [];
  return out;
}

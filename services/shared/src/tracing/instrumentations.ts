import type { ServerResponse } from 'node:http';
import type { Span } from '@opentelemetry/api';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { GraphQLInstrumentation } from '@opentelemetry/instrumentation-graphql';
import { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { KafkaJsInstrumentation } from '@opentelemetry/instrumentation-kafkajs';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { ATTR_HTTP_ROUTE } from '@opentelemetry/semantic-conventions';

/** Probes and scrapes: traced, they would only drown the traces that matter. */
const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics', '/grpc.health.v1.Health/Check']);

let enabled = false;

/**
 * OpenTelemetry's maintained instrumentations of the libraries the services use: HTTP (the gateway's server,
 * and outgoing calls), express, gRPC (client and server, `traceparent` in the metadata), pg, graphql and
 * kafkajs (`traceparent` in the message headers). They patch a library when it loads, so they must be
 * enabled before: in an ESM process that is `node --import @green-impact/shared/tracing/register` (register.ts);
 * called later, only modules loaded afterwards are traced. Idempotent.
 */
export function enableInstrumentations(): void {
  if (enabled) return;
  enabled = true;
  registerInstrumentations({
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => QUIET_PATHS.has((req.url ?? '/').split('?')[0]!),
        applyCustomAttributesOnSpan: (span, _req, res) => {
          // Server side only: the response is ours (a client span's response is an IncomingMessage).
          if (typeof (res as ServerResponse).getHeader === 'function') annotateGatewaySpan(span, res as ServerResponse);
        },
      }),
      new ExpressInstrumentation(),
      new GrpcInstrumentation({ ignoreGrpcMethods: [(name) => name === 'Check' || name === 'Watch'] }),
      // Statements, never their parameters (they are what callers sent).
      new PgInstrumentation({ enhancedDatabaseReporting: false, requireParentSpan: true }),
      // Field resolvers would be a span per field of every list: operations only.
      new GraphQLInstrumentation({ ignoreTrivialResolveSpans: true, depth: 0, allowValues: false }),
      new KafkaJsInstrumentation(),
    ],
  });
}

/**
 * What the gateway knows about a request besides HTTP: its low-cardinality route label and /v1/call
 * operation (express `res.locals`) and the request id it answered with.
 */
function annotateGatewaySpan(span: Span, res: ServerResponse): void {
  const locals = (res as ServerResponse & { locals?: { route?: string; operation?: string } }).locals;
  if (locals?.route && locals.route !== 'unmatched') span.setAttribute(ATTR_HTTP_ROUTE, locals.route);
  if (locals?.operation) span.setAttribute('app.operation', locals.operation);
  const requestId = res.getHeader('x-request-id');
  if (typeof requestId === 'string') span.setAttribute('app.request_id', requestId);
}

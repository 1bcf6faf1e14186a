import { randomUUID } from 'node:crypto';
import {
  Server,
  ServerCredentials,
  type ServerUnaryCall,
  type sendUnaryData,
  type ServiceDefinition,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import { ReflectionService } from '@grpc/reflection';
import { loadSync } from '@grpc/proto-loader';
import type { Logger } from '../logger.js';
import { METADATA_REQUEST_ID } from '../caller.js';
import { verifyCall } from '../callers/call-metadata.js';
import { domainErrorToGrpc } from './status-map.js';
import { DomainError } from '../errors.js';
import { toDomainError } from './unexpected-error.js';
import { grpcMetrics } from '../metrics.js';
import { annotateActiveSpan } from '../tracing/tracer.js';
import { asPoolCaller } from '../db/pool-share.js';
import { serveStream, type StreamHandler } from './server-stream.js';

import type { CallContext } from './call-context.js';
export type { CallContext } from './call-context.js';

type ReqOf<M> = M extends { requestDeserialize: (b: Buffer) => infer R } ? R : never;
type ResOf<M> = M extends { responseSerialize: (v: infer R) => Buffer } ? R : never;

/** Async handlers for every unary method of a ts-proto service definition (streaming ones: server-stream.ts). */
export type UnaryHandlers<D> = {
  [K in keyof D as D[K] extends { responseStream: true } ? never : K]: (request: ReqOf<D[K]>, ctx: CallContext) => Promise<ResOf<D[K]>>;
};

/** Handlers for every server-streaming method of a ts-proto service definition (server-stream.ts). */
export type StreamHandlers<D> = {
  [K in keyof D as D[K] extends { responseStream: true; requestStream: false } ? K : never]: (request: ReqOf<D[K]>, ctx: CallContext) => AsyncIterable<ResOf<D[K]>>;
};

/**
 * Adapts async handlers to grpc-js: takes the caller from the call's signed token (refusing the call,
 * UNAUTHENTICATED, without a good one), maps every thrown error through
 * the single domain→gRPC table, logs unexpected errors (without request bodies, which may hold PII) and
 * records metrics.
 */
export function implement<D extends Record<string, { path: string; responseStream?: boolean }>>(
  serviceName: string,
  definition: D,
  handlers: Partial<UnaryHandlers<D>>,
  log: Logger,
  streams: Partial<StreamHandlers<D>> = {},
): UntypedServiceImplementation {
  const impl: UntypedServiceImplementation = {};
  for (const key of Object.keys(definition) as (keyof D & string)[]) {
    const path = definition[key]!.path;
    const method = path.split('/').pop() ?? key;
    const stream = (streams as Record<string, StreamHandler<unknown, unknown> | undefined>)[key];
    if (definition[key]!.responseStream && stream) {
      impl[key] = serveStream(serviceName, path, stream, log);
      continue;
    }
    // A method of the contract this server version does not serve yet answers UNIMPLEMENTED, as gRPC does.
    const handler =
      (handlers as Record<string, ((request: never, ctx: CallContext) => Promise<unknown>) | undefined>)[key] ??
      (async () => {
        throw new DomainError('UNIMPLEMENTED', `${method} is not available in this version of the service.`);
      });
    impl[key] = (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
      const started = process.hrtime.bigint();
      const requestIdRaw = call.metadata.get(METADATA_REQUEST_ID)[0];
      const requestId = typeof requestIdRaw === 'string' ? requestIdRaw : randomUUID();
      const controller = new AbortController();
      // grpc-js (1.14) emits 'cancelled' after every call, answered ones too (once it sent the status):
      // aborting then would tell work the call set going that its caller gave up, and each abort builds a
      // DOMException with a stack trace (some 2 % of a service's CPU on the read mix). Only a call cancelled
      // before its answer aborts.
      let answered = false;
      call.on('cancelled', () => {
        if (!answered) controller.abort();
      });
      const ctx: CallContext = {
        caller: undefined,
        requestId,
        metadata: call.metadata,
        log: log.child({ requestId, method }),
        signal: controller.signal,
      };
      // The gRPC instrumentation's SERVER span (continuing the caller's traceparent) is active here; what
      // the handler does joins it, and it names the request it served.
      annotateActiveSpan({ 'app.request_id': requestId });
      // The caller is the signed token's, or the call is refused before the handler sees it.
      const authenticated = async () => {
        const { caller } = await verifyCall(call.metadata, path).catch((err: unknown) => {
          ctx.log.warn({ reason: err instanceof Error ? err.message : String(err) }, 'refused a call without a good caller token');
          throw err;
        });
        ctx.caller = caller && { ...caller, requestId };
        // Audit fields: what the handler logs names the account and, for a bearer token, the person.
        if (caller) ctx.log = ctx.log.child({ accountId: caller.accountId, ...(caller.subject ? { actor: { subject: caller.subject, issuer: caller.issuer } } : {}) });
        return asPoolCaller(ctx.caller?.accountId, () => handler(call.request as never, ctx));
      };
      const done = (code: string) => {
        answered = true;
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        grpcMetrics.handled.inc({ service: serviceName, method, code });
        grpcMetrics.duration.observe({ service: serviceName, method }, seconds);
      };
      authenticated().then(
        (response) => {
          done('OK');
          callback(null, response);
        },
        (err: unknown) => {
          const domain = toDomainError(err);
          // A bulkhead's refusal (it says when to retry) is the design working, not a fault.
          if (domain.code === 'UNAVAILABLE' && domain.retryAfterSeconds !== undefined) {
            ctx.log.warn({ errorCode: domain.code }, 'request refused: the caller is over its share'); // `code` is redacted (NFT codes)
          } else if (domain.code === 'INTERNAL' || domain.code === 'UNAVAILABLE') {
            ctx.log.error({ err: domain.cause ?? err }, 'request failed');
          }
          const status = domainErrorToGrpc(domain);
          done(domain.code);
          callback(status);
        },
      );
    };
  }
  return impl;
}

export interface GrpcServiceRegistration {
  /** Fully qualified service name, e.g. greenimpact.identity.v1.IdentityService. */
  name: string;
  definition: ServiceDefinition;
  implementation: UntypedServiceImplementation;
}

export interface StartedGrpcServer {
  server: Server;
  port: number;
  address: string;
  health: HealthImplementation;
  /** Marks every service NOT_SERVING, waits for in-flight calls, then stops. */
  shutdown(graceMs?: number): Promise<void>;
}

/**
 * Clients keep their connections for as long as they can: without an age limit, a client that balanced
 * over the pods it knew never learns of a pod added later. After this age the server sends GOAWAY, the
 * client resolves the name again and spreads its calls over the pods there are now.
 */
export const MAX_CONNECTION_AGE_MS = 5 * 60_000;

/**
 * Starts a gRPC server with the standard health service (grpc.health.v1) and, when asked, server
 * reflection for the given proto files, bound to host:port (port 0 picks a free one).
 */
export async function startGrpcServer(opts: {
  services: GrpcServiceRegistration[];
  host: string;
  port: number;
  protoRoot: string;
  protoFiles: string[];
  log: Logger;
  /** See MAX_CONNECTION_AGE_MS; tests shorten it. */
  maxConnectionAgeMs?: number;
  /**
   * Server reflection (grpcurl, grpcui): a map of every method for whoever reaches the port, so off unless
   * asked for (GRPC_REFLECTION, on outside NODE_ENV=production: server-settings.ts).
   */
  reflection?: boolean;
}): Promise<StartedGrpcServer> {
  const server = new Server({
    'grpc.max_receive_message_length': 16 * 1024 * 1024,
    'grpc.keepalive_permit_without_calls': 1,
    'grpc.max_connection_age_ms': opts.maxConnectionAgeMs ?? MAX_CONNECTION_AGE_MS,
    // No grace limit: a GOAWAY only moves new calls; open streams (job watches) run on until they end.
  });
  const statuses: Record<string, 'SERVING'> = { '': 'SERVING' };
  for (const s of opts.services) {
    server.addService(s.definition, s.implementation);
    statuses[s.name] = 'SERVING';
  }
  const health = new HealthImplementation(statuses);
  health.addToServer(server);
  if (opts.reflection) {
    const pkg = loadSync(opts.protoFiles, { includeDirs: [opts.protoRoot], keepCase: true });
    new ReflectionService(pkg).addToServer(server);
  }

  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`${opts.host}:${opts.port}`, ServerCredentials.createInsecure(), (err, boundPort) =>
      err ? reject(err) : resolve(boundPort),
    );
  });
  const address = `${opts.host}:${port}`;
  opts.log.info({ address, services: opts.services.map((s) => s.name), reflection: opts.reflection === true }, 'gRPC server listening');

  return {
    server,
    port,
    address,
    health,
    async shutdown(graceMs = 10_000) {
      for (const name of Object.keys(statuses)) health.setStatus(name, 'NOT_SERVING');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        timer.unref();
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}

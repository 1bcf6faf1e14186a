import { randomUUID } from 'node:crypto';
import { Client, credentials, Metadata, type ServiceError } from '@grpc/grpc-js';
import { callerToMetadata, type Caller } from '../caller.js';
import { grpcErrorToDomain } from './status-map.js';
import { startClientSpan } from '../tracing/grpc-spans.js';

type ReqOf<M> = M extends { requestSerialize: (v: infer R) => Buffer } ? R : never;
type ResOf<M> = M extends { responseDeserialize: (b: Buffer) => infer R } ? R : never;

export interface CallOptions {
  caller?: Caller | undefined;
  requestId?: string | undefined;
  /** Milliseconds from now; defaults to the client's default deadline. */
  deadlineMs?: number;
}

/** A promise-returning client with one method per unary RPC of the definition. */
export type TypedClient<D> = {
  [K in keyof D as D[K] extends { responseStream: false } ? K : never]: (
    request: ReqOf<D[K]>,
    options?: CallOptions,
  ) => Promise<ResOf<D[K]>>;
} & { close(): void; raw: Client };

interface MethodDef {
  path: string;
  requestStream: boolean;
  responseStream: boolean;
  requestSerialize: (v: never) => Buffer;
  responseDeserialize: (b: Buffer) => unknown;
}

/**
 * Builds a client from a ts-proto service definition. Every call carries a deadline and the caller's
 * identity in metadata; failures come back as DomainErrors so the gateway maps them in one place.
 */
export function createGrpcClient<D extends Record<string, MethodDef>>(
  definition: D,
  address: string,
  defaults: { deadlineMs?: number } = {},
): TypedClient<D> {
  const client = new Client(address, credentials.createInsecure(), {
    'grpc.keepalive_time_ms': 30_000,
    'grpc.max_receive_message_length': 64 * 1024 * 1024,
    'grpc.enable_retries': 1,
    'grpc.initial_reconnect_backoff_ms': 500,
    'grpc.max_reconnect_backoff_ms': 2_000,
  });
  const defaultDeadline = defaults.deadlineMs ?? 15_000;
  const typed: Record<string, unknown> = {
    close: () => client.close(),
    raw: client,
  };
  for (const [name, def] of Object.entries(definition)) {
    if (def.requestStream || def.responseStream) continue;
    typed[name] = (request: unknown, options: CallOptions = {}) =>
      new Promise((resolve, reject) => {
        const metadata = callerToMetadata(options.caller, new Metadata());
        metadata.set('x-request-id', options.requestId ?? options.caller?.requestId ?? randomUUID());
        const span = startClientSpan(def.path, metadata);
        client.makeUnaryRequest(
          def.path,
          def.requestSerialize as (v: unknown) => Buffer,
          def.responseDeserialize,
          request,
          metadata,
          { deadline: Date.now() + (options.deadlineMs ?? defaultDeadline) },
          (err: ServiceError | null, response?: unknown) => {
            span.end(err ? err.code : 0);
            if (err) reject(grpcErrorToDomain(err));
            else resolve(response);
          },
        );
      });
  }
  return typed as TypedClient<D>;
}

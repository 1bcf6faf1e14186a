import { randomUUID } from 'node:crypto';
import { Client, credentials, Metadata, type ClientReadableStream, type ClientUnaryCall, type ServiceError } from '@grpc/grpc-js';
import type { Caller } from '../caller.js';
import { signCall } from '../callers/call-metadata.js';
import { DeadlineExceededError, DomainError } from '../errors.js';
import { currentCallBudget } from './call-budget.js';
import { grpcErrorToDomain } from './status-map.js';

type ReqOf<M> = M extends { requestSerialize: (v: infer R) => Buffer } ? R : never;
type ResOf<M> = M extends { responseDeserialize: (b: Buffer) => infer R } ? R : never;

export interface CallOptions {
  caller?: Caller | undefined;
  requestId?: string | undefined;
  /** Milliseconds from now; defaults to the client's default deadline. */
  deadlineMs?: number;
}

/**
 * A promise-returning client with one method per unary RPC of the definition, and one per server-streaming
 * RPC answering the stream (no deadline: it lasts until cancelled, or until the request's call budget is
 * spent when one is current; errors arrive as gRPC ServiceErrors: grpcErrorToDomain maps them).
 */
export type TypedClient<D> = {
  [K in keyof D as D[K] extends { responseStream: false } ? K : never]: (
    request: ReqOf<D[K]>,
    options?: CallOptions,
  ) => Promise<ResOf<D[K]>>;
} & {
  [K in keyof D as D[K] extends { responseStream: true; requestStream: false } ? K : never]: (
    request: ReqOf<D[K]>,
    options?: Omit<CallOptions, 'deadlineMs'>,
  ) => ClientReadableStream<ResOf<D[K]>>;
} & { close(): void; raw: Client };

interface MethodDef {
  path: string;
  requestStream: boolean;
  responseStream: boolean;
  requestSerialize: (v: never) => Buffer;
  responseDeserialize: (b: Buffer) => unknown;
}

/**
 * A call's own deadline is set a little after the request's budget, so the gateway's budget timer answers
 * the client first (with its own message); the budget's signal cancels the call at that moment anyway.
 */
const BUDGET_GRACE_MS = 50;
const ROUND_ROBIN = JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] });

/**
 * Builds a client from a ts-proto service definition. Every call carries a deadline and a caller token
 * signed as `issuer` (the gateway unless said otherwise; anonymous calls too, so a service can refuse
 * every call nobody signed); failures come back as DomainErrors so the gateway maps them in one place. Under a
 * request's call budget (call-budget.ts) the deadline is never later than the budget's, and the call is
 * cancelled when the budget is spent or the client went away.
 */
export function createGrpcClient<D extends Record<string, MethodDef>>(
  definition: D,
  address: string,
  defaults: { deadlineMs?: number; issuer?: string } = {},
): TypedClient<D> {
  const client = new Client(address, credentials.createInsecure(), {
    // Every address the name resolves to gets calls in turn (a headless Service answers with every ready
    // pod); grpc-js's default, pick_first, would send them all down one connection to one pod.
    'grpc.service_config': ROUND_ROBIN,
    // A replica that went silent (a network partition: no reset, no FIN) is found by the keepalive ping,
    // after which round-robin moves its calls to the replicas that answer. grpc-js's ping timeout is 20 s,
    // and with a 30 s interval half of a service's calls waited for their deadline on a cut replica for up to
    // 50 s (issue 50, gateway-cut-from-one-portfolio-replica): now at most 10 s. Pings go only while calls
    // are active; grpc-js servers do not limit their rate.
    'grpc.keepalive_time_ms': 5_000,
    'grpc.keepalive_timeout_ms': 5_000,
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
  const metadataOf = (path: string, options: CallOptions) => {
    const metadata = signCall(new Metadata(), options.caller, path, defaults.issuer);
    metadata.set('x-request-id', options.requestId ?? options.caller?.requestId ?? randomUUID());
    return metadata;
  };
  for (const [name, def] of Object.entries(definition)) {
    if (def.requestStream) continue;
    if (def.responseStream) {
      typed[name] = (request: unknown, options: CallOptions = {}) => {
        const stream = client.makeServerStreamRequest(def.path, def.requestSerialize as (v: unknown) => Buffer, def.responseDeserialize, request, metadataOf(def.path, options));
        // Under a request's budget (a streamed /v1/call answer) the stream ends with the request.
        const budget = currentCallBudget();
        if (budget) {
          const cancel = () => stream.cancel();
          if (budget.signal.aborted) cancel();
          else {
            budget.signal.addEventListener('abort', cancel, { once: true });
            stream.once('close', () => budget.signal.removeEventListener('abort', cancel));
          }
        }
        return stream;
      };
      continue;
    }
    typed[name] = (request: unknown, options: CallOptions = {}) =>
      new Promise((resolve, reject) => {
        const budget = currentCallBudget();
        if (budget?.signal.aborted) {
          const reason: unknown = budget.signal.reason;
          reject(reason instanceof DomainError ? reason : new DeadlineExceededError());
          return;
        }
        const metadata = metadataOf(def.path, options);
        const own = Date.now() + (options.deadlineMs ?? defaultDeadline);
        const deadline = budget ? Math.min(own, budget.deadline + BUDGET_GRACE_MS) : own;
        let call: ClientUnaryCall | undefined;
        const cancel = () => call?.cancel();
        budget?.signal.addEventListener('abort', cancel, { once: true });
        call = client.makeUnaryRequest(
          def.path,
          def.requestSerialize as (v: unknown) => Buffer,
          def.responseDeserialize,
          request,
          metadata,
          { deadline },
          (err: ServiceError | null, response?: unknown) => {
            budget?.signal.removeEventListener('abort', cancel);
            if (err) reject(grpcErrorToDomain(err));
            else resolve(response);
          },
        );
      });
  }
  return typed as TypedClient<D>;
}

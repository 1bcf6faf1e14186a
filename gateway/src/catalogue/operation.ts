import type { ClientReadableStream, ServiceError } from '@grpc/grpc-js';
import type { GraphQLResolveInfo } from 'graphql';
import type { CallOptions } from '@green-impact/shared/grpc/client';
import { grpcErrorToDomain } from '@green-impact/shared/grpc/status-map';
import { chainClient, portfolioClient, taxonomyClient, type GatewayClients } from '../clients.js';
import type { GraphqlContext } from '../graphql/context.js';
import type { PageRequest } from '../graphql/pagination.js';
import type { KeylessOperationContext, OperationContext, Solution } from '../v1/operation.js';
import type { Batch } from '../v1/streamed-json.js';
import type { Fields, InputOf } from './fields.js';
import { annotationOf } from './methods.js';

/**
 * One operation, declared once (docs/gateway.md, "The catalogue"): the input it takes, the gRPC method it
 * calls and how its answer renders on each face. /v1/call (v1/call-route.ts) and GraphQL
 * (catalogue/graphql.ts) are generic adapters over these declarations; neither knows an operation.
 */

/** The backends and their typed clients (503 UNAVAILABLE when a gateway has none configured). */
const SERVICES = {
  identity: (clients: GatewayClients) => clients.identity,
  taxonomy: taxonomyClient,
  portfolio: portfolioClient,
  chain: chainClient,
} as const;
export type ServiceName = keyof typeof SERVICES;
type ClientOf<S extends ServiceName> = ReturnType<(typeof SERVICES)[S]>;

/** The unary methods of a service's client. */
export type MethodOf<S extends ServiceName> = {
  [K in keyof ClientOf<S>]: ClientOf<S>[K] extends (request: never, options?: CallOptions) => Promise<unknown> ? K : never;
}[keyof ClientOf<S>] &
  string;
type Method<S extends ServiceName, M extends MethodOf<S>> = ClientOf<S>[M] extends (request: infer Q, options?: CallOptions) => Promise<infer R>
  ? { request: Q; response: R }
  : never;
export type RequestOf<S extends ServiceName, M extends MethodOf<S>> = Method<S, M>['request'];
export type ResponseOf<S extends ServiceName, M extends MethodOf<S>> = Method<S, M>['response'];

/** What a call needs of its request, on either face. */
export interface CallContext {
  /** Absent for the operations a key does not authorize (their parameters do). */
  caller?: OperationContext['caller'] | undefined;
  requestId: string;
  clients: GatewayClients;
  /**
   * The envelope's version and network (Hash and NFT solutions): /v1/call's checked envelope; on GraphQL,
   * version 1 and the input's `network` for the operations that declare `envelope.network`. Absent: none.
   */
  envelope?: { version?: number | undefined; network?: string | undefined } | undefined;
  /**
   * The Idempotency-Key of a job-creating call: the header on /v1/call (read, and so checked, only by the
   * operations that use it), `input.idempotencyKey` on GraphQL. The chain service owns its rules.
   */
  readonly idempotencyKey?: string | undefined;
  /** The page a paged GraphQL list asks for (graphql/pagination.ts's servicePaged); absent: the whole list. */
  page?: PageRequest | undefined;
}


export type { PageRequest };

/** The call options of a call made for `ctx`'s caller. */
export const callOptions = (ctx: CallContext) => ({ caller: ctx.caller, requestId: ctx.requestId });

/** Calls `method` of `service` for the context's caller. */
export function callService<S extends ServiceName, M extends MethodOf<S>>(ctx: CallContext, service: S, method: M, request: RequestOf<S, M>): Promise<ResponseOf<S, M>> {
  const client = SERVICES[service](ctx.clients) as unknown as Record<string, (request: unknown, options: CallOptions) => Promise<unknown>>;
  return client[method]!(request, callOptions(ctx)) as Promise<ResponseOf<S, M>>;
}

/** The server-streaming methods of a service's client. */
export type StreamMethodOf<S extends ServiceName> = {
  [K in keyof ClientOf<S>]: ClientOf<S>[K] extends (request: never, options?: never) => ClientReadableStream<unknown> ? K : never;
}[keyof ClientOf<S>] &
  string;
type StreamMethod<S extends ServiceName, M extends StreamMethodOf<S>> = ClientOf<S>[M] extends (request: infer Q, options?: never) => ClientReadableStream<infer R>
  ? { request: Q; message: R }
  : never;

/**
 * Opens server-streaming `method` of `service` for the context's caller: its messages, each asked for when
 * the one before was taken (grpc-js pauses the call meanwhile, and HTTP/2 flow control the service). Cancelled
 * when the request's budget is spent or its client went away (client.ts), or when the reader stops early.
 */
export async function* streamService<S extends ServiceName, M extends StreamMethodOf<S>>(
  ctx: CallContext,
  service: S,
  method: M,
  request: StreamMethod<S, M>['request'],
): AsyncGenerator<StreamMethod<S, M>['message']> {
  const client = SERVICES[service](ctx.clients) as unknown as Record<string, (request: unknown, options: CallOptions) => ClientReadableStream<unknown>>;
  const stream = client[method]!(request, callOptions(ctx));
  try {
    for await (const message of stream) yield message as StreamMethod<S, M>['message'];
  } catch (err) {
    throw isServiceError(err) ? grpcErrorToDomain(err) : err;
  } finally {
    stream.cancel();
  }
}

const isServiceError = (err: unknown): err is ServiceError => err instanceof Error && typeof (err as Partial<ServiceError>).code === 'number' && 'metadata' in err;

/** How the answer renders on /v1/call: the 200 body. */
export type V1Render<I, R> = (response: R, input: I, ctx: OperationContext | KeylessOperationContext) => unknown;

/** Which key of the /v1/call answer streams, and its items in rendered batches (undefined: none this time). */
export interface V1Streamed<I, R> {
  key: string;
  items(response: R, input: I, ctx: CallContext): AsyncIterable<Batch> | undefined;
}

/**
 * Another /v1/call operation that makes the same call (the spec names one call in several solutions, as
 * GetJob is getJobStatusFromBlockchain, Hash `fetch` and NFT `fetch`): its solution, name and render, and
 * its input and envelope where they are not the declaration's (an input keyed as the declaration's, so its
 * `request` reads it; only the /v1/call names differ).
 */
export interface V1Alias<I, R, F extends Fields = Fields> {
  solution: Solution;
  operation: string;
  input?: F;
  envelope?: { version?: 'required'; network?: 'required' };
  v1: V1Render<I, R>;
}

/** How the operation answers as a GraphQL root field. */
export interface GraphqlFace<I, R> {
  root: 'Query' | 'Mutation';
  /** The field's name. */
  field: string;
  /** Whether the fields arrive in one `input` argument (changes) or as arguments of their own (reads). */
  nested: boolean;
  /** The field's SDL type, e.g. `[Category!]!` or `CategoryPayload!` (catalogue/sdl.ts writes the field). */
  returns: string;
  /**
   * A nested field's input type: its name (default: the field's, capitalized, + `Input`), description, and
   * the descriptions of its fields where a type several declarations share says it for all of them.
   */
  input?: { name?: string; doc?: string; fields?: Readonly<Record<string, string>> } | undefined;
  /**
   * The order of its arguments (or input fields) where it is not the declaration's (which is the order
   * /v1/call checks them in), with the face's own `network` and `idempotencyKey`; default: `network`, the
   * declared fields, `idempotencyKey`.
   */
  order?: readonly string[] | undefined;
  /** Whether the field takes `idempotencyKey` (a job-creating mutation). */
  idempotent?: boolean | undefined;
  /**
   * The field's value. `call` makes the declared call (once); a render may read before it (a removal's
   * id), after it (the changed item as the caller now sees it) or shape its answer.
   */
  render(call: () => Promise<R>, input: I, ctx: GraphqlContext, info: GraphQLResolveInfo): unknown;
  /**
   * A connection its service pages (graphql/pagination.ts, servicePaged): `first` and `after` are checked
   * and reach `request` as the call context's `page`; the render answers the page's items, the service's
   * next_page_token and total_count. `idOf` gives an item's id, `idPattern` the ids a cursor may carry.
   */
  paged?:
    | {
        idOf(item: never): string | number;
        idPattern: RegExp;
        /** The service also pages backward (last/before, page_before). */
        backward?: true;
        /**
         * The service orders the pages (orderBy: `<type>Order`, page_order): the enum values it offers besides
         * ID, each the service's order field in upper case, with its description. The types come from
         * sdl.ts's orderTypesSdl. `default`: the service's order without orderBy when not ascending id (newest
         * first), in the service's terms, and how the SDL says it.
         */
        orderBy?: {
          type: string;
          plural: string;
          fields: Readonly<Record<string, string>>;
          default?: { field: string; descending: boolean; doc: string };
        };
      }
    | undefined;
}

export interface Declaration<F extends Fields, S extends ServiceName, M extends MethodOf<S>> {
  solution: Solution;
  /** The /v1/call operation (the spec's name); absent for an operation GraphQL alone offers. */
  operation?: string;
  /** One line: what the operation does, for OpenAPI and GraphQL. */
  summary: string;
  input: F;
  service: S;
  method: M;
  /** The gRPC request built from the checked input. */
  request(input: InputOf<F>, ctx: CallContext): RequestOf<S, M> | Promise<RequestOf<S, M>>;
  v1?: V1Render<InputOf<F>, ResponseOf<S, M>>;
  /** The same call under other /v1/call names (V1Alias). */
  v1Also?: readonly V1Alias<InputOf<F>, ResponseOf<S, M>, F>[];
  /**
   * An array of the /v1/call answer too long to hold (v1/streamed-json.ts): the render's answer holds `key`
   * in its place, and when `items` answers batches (a service's stream, streamService) the adapter writes
   * them there as they come, each already rendered. Absent, or `items` undefined: the answer is sent whole.
   */
  v1Streamed?: V1Streamed<InputOf<F>, ResponseOf<S, M>>;
  graphql?: DeclaredGraphqlFace<InputOf<F>, ResponseOf<S, M>>;
  /** Envelope fields the operation needs (Hash and NFT solutions). */
  envelope?: { version?: 'required'; network?: 'required' };
  /** What authorizes a call made without an API key (an NFT's transfer code); absent: the key does. */
  withoutApiKey?: { authority: string };
  /**
   * A read that stores something with some inputs (compute_missing): with them it is a write, which a
   * read-only bearer token is refused like any other.
   */
  writesWhen?: (input: InputOf<F>) => boolean;
}

/**
 * A GraphQL face as a declaration writes it: the root and the field's name may be left to the method's
 * annotation in its proto (catalogue/methods.ts); a face naming its field is another face of the method.
 */
export type DeclaredGraphqlFace<I, R> = Omit<GraphqlFace<I, R>, 'root' | 'field'> & Partial<Pick<GraphqlFace<I, R>, 'root' | 'field'>>;

/** A declaration with its types erased, as the adapters hold it. */
export interface Operation {
  solution: Solution;
  operation?: string | undefined;
  summary: string;
  input: Fields;
  service: ServiceName;
  method: string;
  envelope?: { version?: 'required'; network?: 'required' } | undefined;
  withoutApiKey?: { authority: string } | undefined;
  writesWhen?: ((input: Record<string, unknown>) => boolean) | undefined;
  /** Builds the request and makes the call. */
  invoke(input: Record<string, unknown>, ctx: CallContext): Promise<unknown>;
  v1?: V1Render<Record<string, unknown>, unknown> | undefined;
  v1Also?: readonly V1Alias<Record<string, unknown>, unknown>[] | undefined;
  v1Streamed?: V1Streamed<Record<string, unknown>, unknown> | undefined;
  graphql?: GraphqlFace<Record<string, unknown>, unknown> | undefined;
}

/** A declared operation that keeps its types, so other renders can make its call (a payload's read). */
export interface Declared<I, R> extends Operation {
  call(input: I, ctx: CallContext): Promise<R>;
}

/**
 * Declares an operation, typed from its input fields and its gRPC method. Where the method's proto
 * annotates it (catalogue/methods.ts) and the declaration names no GraphQL field of its own, the
 * annotation gives the /v1/call operation, the GraphQL field and its root (Mutation for a write), and a
 * paged method must be declared paged.
 */
export function declare<const F extends Fields, S extends ServiceName, M extends MethodOf<S>>(d: Declaration<F, S, M>): Declared<InputOf<F>, ResponseOf<S, M>> {
  const call = async (input: InputOf<F>, ctx: CallContext) => callService(ctx, d.service, d.method, await d.request(input, ctx));
  const annotated = d.graphql?.field === undefined ? annotationOf(d.service, d.method) : undefined;
  const where = `${d.service}.${d.method}`;
  const graphql = d.graphql && {
    ...d.graphql,
    root: d.graphql.root ?? (annotated ? (annotated.kind === 'write' ? 'Mutation' : 'Query') : undefined),
    field: d.graphql.field ?? (annotated?.graphql || undefined),
  };
  if (graphql && (graphql.field === undefined || graphql.root === undefined)) throw new Error(`${where}: its GraphQL face names no field and its method has no (greenimpact.options.v1.operation).graphql.`);
  if (annotated && (annotated.kind === 'paged') !== (graphql?.paged !== undefined)) throw new Error(`${where}: the proto says the method is ${annotated.kind}, its GraphQL face ${graphql?.paged ? 'pages' : 'does not page'}.`);
  const operation = d.operation ?? (annotated?.v1 || undefined);
  return { ...d, operation, graphql, call, invoke: call } as unknown as Declared<InputOf<F>, ResponseOf<S, M>>;
}

/** The call context of a GraphQL request's caller (authenticating it, once per request). */
export async function callerOf(ctx: GraphqlContext): Promise<CallContext> {
  return { caller: (await ctx.auth()).caller, requestId: ctx.requestId, clients: ctx.clients };
}

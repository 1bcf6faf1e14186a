import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { getOperationAST, GraphQLError, parse, type GraphQLSchema, type ValidationRule } from 'graphql';
import { CloseCode } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { Counter, Gauge } from 'prom-client';
import { WebSocket, WebSocketServer } from 'ws';
import { DomainError } from '@green-impact/shared/errors';
import type { Logger } from '@green-impact/shared/logger';
import { metricsRegistry } from '@green-impact/shared/metrics';
import { credentialOf, type Authenticate, type Authenticated } from '../../auth.js';
import type { GatewayClients } from '../../clients.js';
import { baseUrlOf } from '../../base-url.js';
import { lazyAuth, type GraphqlContext } from '../context.js';
import type { createFormatError } from '../format-error.js';
import { MAX_QUERY_TOKENS, nestingError } from '../limits.js';
import type { DocumentLinks } from '../../document-links.js';
import { wsValidate } from './ws-validation.js';
import { countUnparsed, WsOperationMetrics } from './ws-metrics.js';
import { CLOSE_MAX_LIFETIME, CLOSE_TOKEN_EXPIRED, type OpenSocket, type OpenSockets } from './open-sockets.js';
import { errorExtensions } from '../error-codes.js';
import { AccountStreams } from './account-streams.js';
import { refusalText } from '../../rate-limit/rate-limit-middleware.js';
import type { Refusal } from '../../rate-limit/rate-limiter.js';

export interface SubscriptionServerOptions {
  schema: GraphQLSchema;
  authenticate: Authenticate;
  clients: GatewayClients;
  log: Logger;
  formatError: ReturnType<typeof createFormatError>;
  validationRules: ValidationRule[];
  publicBaseUrl?: string | undefined;
  /** Signs the links to written pages (Document.pageUrl). */
  documentLinks: DocumentLinks;
  /** Largest WebSocket message accepted (a subscribe message with its query). */
  maxPayloadBytes: number;
  /** Subscriptions one connection may hold at once. */
  maxSubscriptionsPerConnection: number;
  /** Connections one account may hold open on this gateway. */
  maxConnectionsPerAccount: number;
  /** Subscriptions one account may hold on this gateway, over all its connections. */
  maxSubscriptionsPerAccount: number;
  /** Longest a connection stays open (GRAPHQL_WS_MAX_LIFETIME_MS): it is authenticated once, so not for ever. */
  maxConnectionLifetimeMs: number;
  /** Where authenticated sockets are registered, so identity's events can end them (open-sockets.ts). */
  sockets: OpenSockets;
  /**
   * The HTTP rate limits, applied to sockets too: the upgrade request counts before anything else (with
   * its header's credential, else as its address's anonymous traffic; 429 beyond), connection_init counts
   * again when it brings a credential the upgrade did not, and each subscription counts as one request.
   */
  admit: (request: { apiKey: string | undefined; address: string }) => Promise<Refusal | undefined>;
  /** The client address a limit counts against (TRUST_PROXY honoured). */
  addressOf: (request: http.IncomingMessage) => string;
  /** As over HTTP: no introspection in production. */
  production: boolean;
}

/** A client that does not answer a close frame is cut this long after it, so its streams end regardless. */
const CLOSE_GRACE_MS = 1_000;

/** Close code of a connection refused by a rate limit (4xxx are the application's; 429 as in HTTP). */
export const CLOSE_TOO_MANY_REQUESTS = 4429;

const retrySeconds = (refusal: { retryAfterMs: number }) => Math.max(1, Math.ceil(refusal.retryAfterMs / 1000));

const headerOf = (req: http.IncomingMessage, name: string) => {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
};

export interface SubscriptionServer {
  /** Completes every subscription and closes every socket (1001 going away). */
  close(): Promise<void>;
}

// A type alias, not an interface: graphql-ws wants a Record.
type Extra = {
  apiKey?: string | undefined;
  /** `Bearer <token>` from connection_init's `authorization` or the upgrade request's Authorization header. */
  authorization?: string | undefined;
  address?: string;
  accountId?: string;
  subscriptions?: Set<string>;
  metrics?: WsOperationMetrics;
};

// One set per process in the shared registry; every gateway of the process adds to it.
const openConnections = new Set<{ size(): number }>();
new Gauge({
  name: 'gateway_graphql_ws_connections',
  help: 'Open graphql-ws WebSocket connections.',
  registers: [metricsRegistry],
  collect() {
    this.set([...openConnections].reduce((n, c) => n + c.size(), 0));
  },
});
const subscriptionsGauge = new Gauge({
  name: 'gateway_graphql_subscriptions',
  help: 'Subscriptions being served (each holds one WatchJobs stream to the chain service).',
  registers: [metricsRegistry],
});
const refusedSubscriptions = new Counter({
  name: 'gateway_graphql_subscriptions_refused_total',
  help: 'Subscriptions refused before they started, by the bound they met.',
  labelNames: ['limit'] as const,
  registers: [metricsRegistry],
});
const refusedConnections = new Counter({
  name: 'gateway_graphql_ws_refused_total',
  help: 'graphql-ws connections refused (rate_limited: at the upgrade or connection_init) or closed at connection_init, by reason.',
  labelNames: ['reason'] as const,
  registers: [metricsRegistry],
});

/**
 * graphql-ws on the gateway's HTTP server at /graphql. The API key comes in connection_init
 * (`{"apiKey": "..."}`; browsers cannot set headers on a WebSocket) or, for other clients, the upgrade
 * request's X-Api-Key header; it is checked when the connection opens and again for each subscription.
 * Operations go through the same validation rules (depth and cost limits), error shaping and rate limits
 * as HTTP requests.
 */
export function attachSubscriptions(server: http.Server, options: SubscriptionServerOptions): SubscriptionServer {
  const log = options.log.child({ component: 'graphql-ws' });
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayloadBytes });
  const gauge = { size: () => wss.clients.size };
  openConnections.add(gauge);
  /** The credential each upgrade was counted with, so connection_init does not count it twice. */
  const countedAtUpgrade = new WeakMap<http.IncomingMessage, string | undefined>();
  const onUpgrade = (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/graphql') {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    // Counted as a request before anything else, as HTTP requests are: with the upgrade's own credential
    // (X-Api-Key or Authorization), else as its address's anonymous traffic. A client that opens sockets
    // and never sends connection_init is held to the same limits as one that sends requests.
    const credential = credentialOf(headerOf(req, 'x-api-key'), headerOf(req, 'authorization'));
    // Until ws takes the socket over, a reset must not be an unhandled 'error'.
    const dropped = () => socket.destroy();
    socket.on('error', dropped);
    options.admit({ apiKey: credential, address: options.addressOf(req) }).then(
      (refusal) => {
        socket.off('error', dropped);
        if (refusal) {
          refusedConnections.inc({ reason: 'rate_limited' });
          const body = JSON.stringify({ message: `${refusalText(refusal)}; retry in ${retrySeconds(refusal)} s.`, code: 'RESOURCE_EXHAUSTED' });
          socket.end(
            `HTTP/1.1 429 Too Many Requests\r\nRetry-After: ${retrySeconds(refusal)}\r\nContent-Type: application/json\r\n` +
              `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
          );
          return;
        }
        countedAtUpgrade.set(req, credential);
        wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
      },
      (err: unknown) => {
        socket.off('error', dropped);
        log.warn({ err }, 'graphql-ws upgrade refused: the rate limiter failed');
        socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      },
    );
  };
  server.on('upgrade', onUpgrade);

  const streams = new AccountStreams(options.maxSubscriptionsPerAccount);
  /** Ends a subscription's hold on its connection's and its account's places (false when it held none). */
  const release = (extra: Extra, id: string): boolean => {
    if (!extra.subscriptions?.delete(id)) return false;
    subscriptionsGauge.dec();
    if (extra.accountId !== undefined) streams.release(extra.accountId);
    return true;
  };
  const tooMany = (limit: string, message: string) => {
    refusedSubscriptions.inc({ limit });
    return [new GraphQLError(message, { extensions: errorExtensions('RESOURCE_EXHAUSTED') })];
  };
  const format = (errors: readonly GraphQLError[]) => errors.map((e) => options.formatError(e.toJSON(), e));
  /** Registers an authenticated socket to be ended by identity's events or by its lifetime. */
  const watch = (socket: WebSocket, authenticated: Authenticated) => {
    const entry: OpenSocket = {
      keyId: authenticated.keyId,
      accountId: authenticated.account.id,
      close: (code, reason) => {
        socket.close(code, reason);
        setTimeout(() => socket.terminate(), CLOSE_GRACE_MS).unref();
      },
    };
    const lifetime = setTimeout(() => {
      options.sockets.remove(entry);
      entry.close(CLOSE_MAX_LIFETIME, `The connection reached its maximum lifetime (${Math.round(options.maxConnectionLifetimeMs / 1000)} s); reconnect.`);
    }, options.maxConnectionLifetimeMs).unref();
    // A socket opened with a bearer token ends when the token does (the lifetime bounds the wait).
    const expiresIn = authenticated.token ? authenticated.token.expiresAt - Date.now() : Infinity;
    const expiry =
      expiresIn < options.maxConnectionLifetimeMs
        ? setTimeout(() => {
            options.sockets.remove(entry);
            entry.close(CLOSE_TOKEN_EXPIRED, 'The bearer token expired; reconnect with a fresh one.');
          }, Math.max(0, expiresIn)).unref()
        : undefined;
    const forget = () => {
      clearTimeout(lifetime);
      clearTimeout(expiry);
      options.sockets.remove(entry);
    };
    // Gone while it was being authenticated: nothing to end.
    if (socket.readyState !== WebSocket.OPEN) return forget();
    options.sockets.add(entry);
    socket.once('close', forget);
  };

  const disposable = useServer<{ apiKey?: unknown; authorization?: unknown } | undefined, Extra>(
    {
      schema: options.schema,
      isProd: options.production,
      connectionInitWaitTimeout: 10_000,
      parse: (source, parseOptions) => {
        try {
          const tooDeep = nestingError(typeof source === 'string' ? source : source.body);
          if (tooDeep) throw tooDeep;
          return parse(source, { ...parseOptions, maxTokens: MAX_QUERY_TOKENS });
        } catch (err) {
          countUnparsed();
          throw err;
        }
      },
      validate: wsValidate(options.validationRules, options.production),
      async onConnect(ctx) {
        const fromParams = ctx.connectionParams?.apiKey;
        const header = ctx.extra.request.headers['x-api-key'];
        const apiKey = typeof fromParams === 'string' ? fromParams : typeof header === 'string' ? header : undefined;
        const bearerParam = ctx.connectionParams?.authorization;
        const bearerHeader = ctx.extra.request.headers.authorization;
        const authorization = typeof bearerParam === 'string' ? bearerParam : typeof bearerHeader === 'string' ? bearerHeader : undefined;
        const address = options.addressOf(ctx.extra.request);
        const credential = credentialOf(apiKey, authorization);
        // The upgrade was counted; connection_init counts again only for a credential the upgrade did not carry.
        const counted = countedAtUpgrade.has(ctx.extra.request) && countedAtUpgrade.get(ctx.extra.request) === credential;
        const refusal = counted ? undefined : await options.admit({ apiKey: credential, address });
        if (refusal) {
          refusedConnections.inc({ reason: 'rate_limited' });
          await ctx.extra.socket.close(CLOSE_TOO_MANY_REQUESTS, `Too many requests; retry in ${retrySeconds(refusal)} s.`);
          return false;
        }
        try {
          // An identity event that arrives while the key is being checked may concern it: check again.
          const epoch = options.sockets.epoch;
          let authenticated = await options.authenticate(apiKey, randomUUID(), address, authorization);
          if (options.sockets.epoch !== epoch) authenticated = await options.authenticate(apiKey, randomUUID(), address, authorization);
          // Counted and registered (watch) in one synchronous step: concurrent connections cannot both pass.
          const held = options.sockets.countOf(authenticated.account.id);
          if (held >= options.maxConnectionsPerAccount) {
            refusedConnections.inc({ reason: 'account_connections' });
            await ctx.extra.socket.close(CLOSE_TOO_MANY_REQUESTS, `This account has ${held} connections open, the most it may; close one first.`);
            return false;
          }
          watch(ctx.extra.socket, authenticated);
          ctx.extra.accountId = authenticated.account.id;
          ctx.extra.address = address;
          ctx.extra.apiKey = apiKey;
          ctx.extra.authorization = authorization;
          ctx.extra.subscriptions = new Set();
          ctx.extra.metrics = new WsOperationMetrics();
          return true;
        } catch (err) {
          if (err instanceof DomainError && err.code === 'UNAUTHENTICATED') {
            refusedConnections.inc({ reason: 'unauthenticated' });
            await ctx.extra.socket.close(CloseCode.Unauthorized, err.message.slice(0, 120));
            return false;
          }
          refusedConnections.inc({ reason: 'unavailable' });
          log.warn({ err }, 'graphql-ws connection refused: authentication unavailable');
          await ctx.extra.socket.close(1013, 'Authentication is temporarily unavailable; please retry.');
          return false;
        }
      },
      async onSubscribe(ctx, id) {
        const refusal = await options.admit({ apiKey: credentialOf(ctx.extra.apiKey, ctx.extra.authorization), address: ctx.extra.address ?? 'unknown' });
        if (refusal) return tooMany('rate', `Too many requests for this API key; retry in ${retrySeconds(refusal)} s.`);
        const open = ctx.extra.subscriptions!;
        if (open.size >= options.maxSubscriptionsPerConnection) {
          return tooMany('connection', `A connection may hold at most ${options.maxSubscriptionsPerConnection} subscriptions.`);
        }
        if (!streams.take(ctx.extra.accountId!)) {
          return tooMany('account', `This account holds ${streams.max} subscriptions, the most it may; complete one first.`);
        }
        open.add(id);
        subscriptionsGauge.inc();
        return undefined;
      },
      onComplete(ctx, id) {
        release(ctx.extra, id);
        ctx.extra.metrics?.completed(id);
      },
      context(ctx, _id, _payload, args): GraphqlContext {
        const requestId = randomUUID();
        const req = ctx.extra.request;
        const operation = { writes: getOperationAST(args.document, args.operationName)?.operation === 'mutation' };
        return {
          requestId,
          clients: options.clients,
          log: log.child({ requestId }),
          baseUrl: baseUrlOf(options.publicBaseUrl, { protocol: 'http', host: req.headers.host }),
          documentLinks: options.documentLinks,
          operation,
          // Checked again for each subscription, as for each HTTP request: a key revoked (or a token expired)
          // while the socket is open can start nothing new, and its running streams end with the socket (open-sockets.ts).
          auth: lazyAuth(operation, () => options.authenticate(ctx.extra.apiKey, requestId, ctx.extra.address, ctx.extra.authorization)),
        };
      },
      onOperation(ctx, id, _payload, args) {
        ctx.extra.metrics?.started(id, args.document, args.operationName);
        return undefined;
      },
      onError: (ctx, id, payload, errors) => {
        release(ctx.extra, id);
        const formatted = format(errors);
        ctx.extra.metrics?.failed(id, payload.operationName, formatted);
        return formatted;
      },
      onClose(ctx) {
        ctx.extra.metrics?.closed();
        // Subscriptions still open when the socket goes were completed without onComplete.
        for (const id of [...(ctx.extra.subscriptions ?? [])]) release(ctx.extra, id);
      },
      onNext: (ctx, id, _payload, _args, result) => {
        if (!result.errors) return undefined;
        const errors = format(result.errors);
        ctx.extra.metrics?.result(id, errors);
        return { ...result, errors };
      },
    },
    wss,
  );

  return {
    async close() {
      server.off('upgrade', onUpgrade);
      openConnections.delete(gauge);
      await disposable.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

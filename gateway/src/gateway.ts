import http from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import express from 'express';
import type { Logger } from '@green-impact/shared/logger';
import type { EventBus, Subscription } from '@green-impact/shared/bus/event-bus';
import { createAuthenticator } from './auth.js';
import { BearerVerifier } from './oidc/bearer-tokens.js';
import { AuthCache, forgettingRevokedKeys } from './auth-cache.js';
import { followIdentityEvents, followTaxonomyEvents } from './cache-invalidation.js';
import { cachingSharedReads, ReferenceCache } from './reference-cache.js';
import { reportRoutes } from './report-routes.js';
import { euGbsRoutes } from './eu-gbs-routes.js';
import { chainRoutes } from './chain-routes.js';
import { rendererClient, type PrintPdf } from './pages/pdf.js';
import { createClients, type GatewayClients } from './clients.js';
import { guardedClients } from './backend-calls.js';
import { DocumentLinks } from './document-links.js';
import type { GatewayConfig } from './config.js';
import { corsAllowList } from './cors.js';
import { errorHandler, notFound } from './error-handler.js';
import { createGraphql } from './graphql/apollo.js';
import type { DocumentCache } from './graphql/document-cache.js';
import { explorerIssuer, explorerRoutes } from './graphql/explorer.js';
import { DEFAULT_QUERY_LIMITS } from './graphql/limits.js';
import { OpenSockets } from './graphql/subscriptions/open-sockets.js';
import { attachSubscriptions } from './graphql/subscriptions/ws-server.js';
import { observeRequests } from './http-metrics.js';
import { jsonBody } from './json-body.js';
import { nftRoutes } from './nft-routes.js';
import { opsRoutes } from './ops-routes.js';
import { clientAddress, upgradeClientIp } from './rate-limit/client-address.js';
import { learnKeyVerdicts, rateLimit } from './rate-limit/rate-limit-middleware.js';
import { RateLimiter } from './rate-limit/rate-limiter.js';
import { requestId, routeLabel } from './request-context.js';
import { requestDeadline } from './request-deadline.js';
import { callRoute } from './v1/call-route.js';
import { operationTable, type OperationTable } from './v1/operation-table.js';

export interface GatewayOptions {
  config: GatewayConfig;
  log: Logger;
  /** Ready-made clients (tests, embedded launcher). Without them the gateway opens its own from config. */
  clients?: GatewayClients;
  /** Defaults to the full operation table. */
  table?: OperationTable;
  /**
   * Where identity announces revoked keys (identity-events.ts). Without it cached authentications end
   * only by their TTL (AUTH_CACHE_TTL_MS).
   */
  bus?: EventBus | undefined;
  /** Prints pages to PDF in this process (the embedded system); otherwise the renderer at config.pdfRenderer.url, if any. */
  printPdf?: PrintPdf | undefined;
}

export interface Gateway {
  server: http.Server;
  /**
   * Starts Apollo and connects the rate limiter's Redis, then listens on config.host:config.port (port 0 picks a
   * free one), or takes over `bound`: a listener the caller bound earlier (on port 0) because others had to know
   * the port before the gateway could be built. Resolves with the port it listens on.
   */
  listen(bound?: Server): Promise<{ port: number }>;
  /** The parsed and validated GraphQL documents kept (graphql/document-cache.ts). */
  graphqlDocuments: DocumentCache;
  /** Stops accepting, lets in-flight requests finish (up to shutdownGraceMs), stops Apollo and the limiter, closes owned clients. */
  close(): Promise<void>;
}

/**
 * Builds the gateway: /v1/call, /graphql (HTTP, graphql-ws subscriptions and the GraphiQL explorer), the chain's pages (/jobs/<id>.html, /ipfs/<cid>, /rpc/<network>),
 * the public NFT pages (/certificates/…, /claim, /explorer/…), /healthz, /readyz, /metrics on one HTTP server.
 */
export function createGateway(options: GatewayOptions): Gateway {
  const { config, log } = options;
  const clientSet = createClients(config.backends, { deadlineMs: config.grpcDeadlineMs, injected: options.clients });
  const authCache = new AuthCache(config.authCache);
  const sockets = new OpenSockets();
  const referenceCache = new ReferenceCache(config.referenceCache);
  const limiter = new RateLimiter(config.limits.rateLimit, log);
  // What an identity change must reach at once: the authentication cache, the limiter's known-good keys,
  // the open WebSockets (first the caches, so a socket that reconnects is checked with identity).
  const identityFollowers = [authCache, limiter.knownKeys, sockets];
  const guarded = guardedClients(clientSet.clients, config.limits.backendCalls);
  const { taxonomy } = guarded;
  const clients = {
    ...guarded,
    identity: forgettingRevokedKeys(guarded.identity, identityFollowers),
    ...(taxonomy ? { taxonomy: cachingSharedReads(taxonomy, referenceCache) } : {}),
  };
  const bearer = new BearerVerifier(config.oidc?.issuers ?? [], { jwksCooldownMs: config.oidc?.jwksCooldownMs });
  const authenticate = learnKeyVerdicts(createAuthenticator(clients.identity, authCache, bearer), limiter);
  const announcements: Subscription[] = [];
  const documentLinks = new DocumentLinks(config.documentLinks);
  if (config.documentLinks.generated) {
    log.warn('no DOCUMENT_LINK_SECRET: document links are signed with a secret of this process alone; they stop opening at restart and on other replicas');
  }
  const graphql = createGraphql({
    authenticate,
    clients,
    log,
    production: config.nodeEnv === 'production',
    limits: {
      ...DEFAULT_QUERY_LIMITS,
      maxDepth: config.graphql.maxDepth,
      maxCost: config.graphql.maxCost,
      maxAliases: config.graphql.maxAliases,
      maxRootFields: config.graphql.maxRootFields,
    },
    publicBaseUrl: config.publicBaseUrl,
    documentLinks,
  });
  let closing = false;
  let closed: Promise<void> | undefined;

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', config.trustProxy);
  const handleError = errorHandler(log);
  const deadline = requestDeadline(config.limits.requestDeadlineMs, handleError);
  const limit = rateLimit(limiter);
  app.use(requestId, observeRequests(log), (_req, res, next) => {
    if (closing) res.setHeader('Connection', 'close');
    next();
  });
  app.use(['/graphql', '/v1/call'], corsAllowList(config.corsAllowedOrigins));
  app.use(opsRoutes({ backends: clientSet.backends, timeoutMs: config.readyCheckTimeoutMs, isClosing: () => closing }));
  app.use(
    callRoute({
      table: options.table ?? operationTable,
      authenticate,
      clients,
      log,
      bodyLimitBytes: config.bodyLimitBytes,
      publicBaseUrl: config.publicBaseUrl,
      rateLimit: limit,
      deadline,
      documentLinks,
    }),
  );
  const printPdf = options.printPdf ?? (config.pdfRenderer.url ? rendererClient(config.pdfRenderer.url, config.pdfRenderer.timeoutMs) : undefined);
  app.use(chainRoutes({ authenticate, clients, bodyLimitBytes: config.bodyLimitBytes, rateLimit: limit, documentLinks, printPdf }));
  app.use(reportRoutes({ authenticate, clients, rateLimit: limit, documentLinks, printPdf }));
  app.use(euGbsRoutes({ authenticate, clients, rateLimit: limit, documentLinks, printPdf }));
  app.use(nftRoutes({ clients, log, publicBaseUrl: config.publicBaseUrl, rateLimit: limit }));
  // Counted once for every /graphql request: the explorer's page and assets as well as the API.
  app.use('/graphql', routeLabel('/graphql'), limit);
  app.use(explorerRoutes(config.graphql.explorer, explorerIssuer(config.oidc?.issuers ?? [])));
  app.use('/graphql', jsonBody(config.bodyLimitBytes, { requireJsonType: false }), deadline, graphql.handler);
  app.use(notFound);
  app.use(handleError);

  const server = http.createServer(
    {
      // Slow clients (slowloris): Node answers 408 and closes when the headers or the whole request take
      // longer. It checks every connectionsCheckingInterval (30 s by default): every second keeps the limits.
      headersTimeout: config.limits.headersTimeoutMs,
      requestTimeout: config.limits.requestTimeoutMs,
      connectionsCheckingInterval: 1_000,
    },
    app,
  );
  const subscriptions = attachSubscriptions(server, {
    ...graphql.shared,
    authenticate,
    clients,
    log,
    publicBaseUrl: config.publicBaseUrl,
    documentLinks,
    maxPayloadBytes: config.bodyLimitBytes,
    maxSubscriptionsPerConnection: config.graphql.maxSubscriptionsPerConnection,
    maxConnectionsPerAccount: config.graphql.maxConnectionsPerAccount,
    maxSubscriptionsPerAccount: config.graphql.maxSubscriptionsPerAccount,
    maxConnectionLifetimeMs: config.graphql.maxConnectionLifetimeMs,
    sockets,
    production: config.nodeEnv === 'production',
    admit: (request) => limiter.admit(request),
    addressOf: (request) => clientAddress(upgradeClientIp(request, app.get('trust proxy fn') as (address: string, hop: number) => boolean)),
  });
  return {
    server,
    graphqlDocuments: graphql.documents,
    async listen(bound) {
      await Promise.all([graphql.start(), limiter.start()]);
      // Joined before the first request, so no revocation can slip between a cached key and the listener.
      const { bus } = options;
      // Always followed with a bus: the known keys and the open WebSockets follow these events even with the cache off.
      if (bus) announcements.push(await followIdentityEvents(bus, identityFollowers, log));
      if (bus && referenceCache.enabled) announcements.push(await followTaxonomyEvents(bus, referenceCache, log));
      if (!bus && (authCache.enabled || referenceCache.enabled)) {
        log.info(
          { authTtlMs: config.authCache.ttlMs, referenceTtlMs: config.referenceCache.ttlMs },
          'caches without change events (no KAFKA_BROKERS): revoked keys and other replicas\' writes expire by TTL',
        );
      }
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        const listening = () => {
          server.off('error', reject);
          resolve({ port: (server.address() as AddressInfo).port });
        };
        // A bound server's socket is taken over as it is: the port is never released in between.
        if (bound) server.listen(bound, listening);
        else server.listen(config.port, config.host, listening);
      });
    },
    close: () => (closed ??= shutdown()),
  };

  async function shutdown(): Promise<void> {
    closing = true;
    // Subscriptions never finish by themselves: end them first (clients see 1001 and reconnect elsewhere).
    await subscriptions.close();
    await new Promise<void>((resolve) => {
      // Keep-alive connections go as soon as their in-flight request is answered; after the grace
      // period the rest are cut.
      const sweep = setInterval(() => server.closeIdleConnections(), 100);
      const force = setTimeout(() => server.closeAllConnections(), config.shutdownGraceMs);
      server.close(() => {
        clearInterval(sweep);
        clearTimeout(force);
        resolve();
      });
      server.closeIdleConnections();
    });
    await graphql.stop();
    await limiter.close();
    await Promise.all(announcements.map((a) => a.close()));
    clientSet.close();
  }
}

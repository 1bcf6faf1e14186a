import { ApolloServer, HeaderMap } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from '@green-impact/shared/logger';
import { UnavailableError } from '@green-impact/shared/errors';
import type { Authenticate } from '../auth.js';
import type { GatewayClients } from '../clients.js';
import { locals } from '../request-context.js';
import { createContextFactory, readOnlyTokensPlugin, type GraphqlContext } from './context.js';
import { schema } from './executable-schema.js';
import { createFormatError } from './format-error.js';
import { noStorePlugin, requestErrorStatus, requestErrorStatusPlugin, retryAfterStatusPlugin, singleResultMediaType } from './response-status.js';
import { MAX_QUERY_TOKENS, aliasError, nestingError, queryLimitRules, type QueryLimits } from './limits.js';
import type { DocumentLinks } from '../document-links.js';
import { countOperation, unresolvedLabel } from './graphql-metrics.js';
import { graphqlMetricsPlugin, timeRootFields } from './graphql-metrics-plugin.js';
import { DocumentCache } from './document-cache.js';

export interface GraphqlEndpoint {
  /** Mount after a JSON body parser at /graphql. Answers 503 until start() has finished. */
  handler: RequestHandler;
  /** The parsed and validated documents Apollo keeps (document-cache.ts). */
  documents: DocumentCache;
  /** The shared pieces graphql-ws needs to serve the same schema the same way. */
  shared: { schema: typeof schema; formatError: ReturnType<typeof createFormatError>; validationRules: ReturnType<typeof queryLimitRules> };
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Apollo Server with the gateway's schema, context and error shaping. Built synchronously so the
 * gateway's express app is complete at once; Apollo itself starts in start() (called by listen()).
 *
 * Request errors (parse, validation, variables) answer 200 in application/json and 400 in
 * application/graphql-response+json, as GraphQL over HTTP asks (response-status.ts).
 *
 * Safety: CSRF prevention on; documents nested over MAX_NESTING brackets refused before parse and over
 * MAX_QUERY_TOKENS tokens at parse; depth and cost
 * limits as validation rules (a document is kept parsed and validated, document-cache.ts, only once it passed
 * them); introspection and schema hints off in production; no stack traces. Automatic
 * persisted queries use Apollo's bounded in-memory cache (per replica: a client that meets
 * PERSISTED_QUERY_NOT_FOUND on another replica sends the query again, as the APQ protocol expects).
 * Apollo's own landing page (which loads from a CDN) is off: explorer.ts serves GraphiQL from here.
 *
 * Apollo's cache-control plugin is off: no type or field carries a @cacheControl hint, so every answer was
 * `Cache-Control: no-store` anyway (noStorePlugin still says so), while its per-field hook made Apollo wrap
 * and call back every resolved field. The HTTP side is served by answer() below rather than an integration
 * package: Apollo's answer goes out as it is, without a framework's per-response content negotiation.
 */
export function createGraphql(deps: {
  authenticate: Authenticate;
  clients: GatewayClients;
  log: Logger;
  production: boolean;
  limits: QueryLimits;
  /** PUBLIC_BASE_URL, for links in answers. */
  publicBaseUrl?: string | undefined;
  /** Signs the links to written pages (Document.pageUrl). */
  documentLinks: DocumentLinks;
}): GraphqlEndpoint {
  const log = deps.log.child({ component: 'graphql' });
  const formatError = createFormatError(log);
  const validationRules = queryLimitRules(deps.limits);
  timeRootFields(schema);
  const documents = new DocumentCache();
  const apollo = new ApolloServer<GraphqlContext>({
    schema,
    documentStore: documents,
    formatError,
    validationRules,
    parseOptions: { maxTokens: MAX_QUERY_TOKENS },
    csrfPrevention: true,
    introspection: !deps.production,
    hideSchemaDetailsFromClientErrors: deps.production,
    includeStacktraceInErrorResponses: false,
    persistedQueries: { ttl: 24 * 60 * 60 },
    plugins: [ApolloServerPluginLandingPageDisabled(), ApolloServerPluginCacheControlDisabled(), noStorePlugin, requestErrorStatusPlugin, retryAfterStatusPlugin, graphqlMetricsPlugin, readOnlyTokensPlugin],
    // The gateway owns shutdown (close()); Apollo must not re-raise SIGTERM and kill in-flight requests.
    stopOnTerminationSignals: false,
    logger: log,
  });
  const context = createContextFactory({ authenticate: deps.authenticate, clients: deps.clients, log, publicBaseUrl: deps.publicBaseUrl, documentLinks: deps.documentLinks });
  let started: Promise<void> | undefined;
  let inner: RequestHandler | undefined;
  return {
    handler: (req, res, next) => {
      if (!inner) return next(new UnavailableError('GraphQL is starting; please retry.'));
      const query = (req.body as { query?: unknown } | undefined)?.query ?? req.query['query'];
      const tooDeep = nestingError(query) ?? aliasError(query, deps.limits.maxAliases);
      if (tooDeep) {
        // Refused before Apollo parses and validates it (a refused bomb costs a scan, not a validation): answered with the status Apollo's own request errors get (response-status.ts).
        countOperation(unresolvedLabel((req.body as { operationName?: unknown } | undefined)?.operationName), 'refused', 'http');
        const mediaType = singleResultMediaType(req.get('accept')) ?? 'application/json; charset=utf-8';
        res.status(requestErrorStatus(mediaType)).type(mediaType);
        return void res.send(JSON.stringify({ errors: [{ message: tooDeep.message, extensions: tooDeep.extensions }] }));
      }
      return inner(req, res, next);
    },
    documents,
    shared: { schema, formatError, validationRules },
    start: () =>
      (started ??= apollo.start().then(() => {
        inner = (req, res, next) => answer(apollo, req, res, () => context({ req, requestId: locals(res).requestId, clientAddress: locals(res).clientAddress })).catch(next);
      })),
    async stop() {
      if (!started) return;
      await started.catch(() => undefined);
      inner = undefined;
      await apollo.stop();
    },
  };
}

/**
 * One GraphQL-over-HTTP request through Apollo (what @as-integrations/express5 does, without express's res.send):
 * the request's headers, query string and parsed body in, Apollo's status, headers and body out. An
 * incremental answer (@defer) is written chunk by chunk.
 */
async function answer(apollo: ApolloServer<GraphqlContext>, req: Request, res: Response, context: () => Promise<GraphqlContext>): Promise<void> {
  const headers = new HeaderMap();
  for (const [key, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
  }
  const searchAt = req.url.indexOf('?');
  const { status, headers: answerHeaders, body } = await apollo.executeHTTPGraphQLRequest({
    httpGraphQLRequest: { method: req.method.toUpperCase(), headers, search: searchAt < 0 ? '' : req.url.slice(searchAt), body: req.body as unknown },
    context,
  });
  for (const [key, value] of answerHeaders) res.setHeader(key, value);
  res.statusCode = status ?? 200;
  if (body.kind === 'complete') {
    res.setHeader('Content-Length', Buffer.byteLength(body.string));
    res.end(body.string);
    return;
  }
  for await (const chunk of body.asyncIterator) res.write(chunk);
  res.end();
}

import { ApolloServer } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import type { RequestHandler } from 'express';
import type { Logger } from '@green-impact/shared/logger';
import { UnavailableError } from '@green-impact/shared/errors';
import type { Authenticate } from '../auth.js';
import type { GatewayClients } from '../clients.js';
import { locals } from '../request-context.js';
import { createContextFactory, type GraphqlContext } from './context.js';
import { createFormatError } from './format-error.js';
import { resolvers } from './resolvers/index.js';
import { typeDefs } from './schema.js';

export interface GraphqlEndpoint {
  /** Mount after a JSON body parser at /graphql. Answers 503 until start() has finished. */
  handler: RequestHandler;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Apollo Server with the gateway's schema, context and error shaping. Built synchronously so the
 * gateway's express app is complete at once; Apollo itself starts in start() (called by listen()).
 */
export function createGraphql(deps: {
  authenticate: Authenticate;
  clients: GatewayClients;
  log: Logger;
  production: boolean;
  /** PUBLIC_BASE_URL, for links in answers. */
  publicBaseUrl?: string | undefined;
}): GraphqlEndpoint {
  const log = deps.log.child({ component: 'graphql' });
  const apollo = new ApolloServer<GraphqlContext>({
    typeDefs,
    resolvers,
    formatError: createFormatError(log),
    csrfPrevention: true,
    introspection: !deps.production,
    hideSchemaDetailsFromClientErrors: deps.production,
    includeStacktraceInErrorResponses: false,
    // The gateway owns shutdown (close()); Apollo must not re-raise SIGTERM and kill in-flight requests.
    stopOnTerminationSignals: false,
    logger: log,
  });
  const context = createContextFactory({ authenticate: deps.authenticate, clients: deps.clients, log, publicBaseUrl: deps.publicBaseUrl });
  let started: Promise<void> | undefined;
  let inner: RequestHandler | undefined;
  return {
    handler: (req, res, next) => {
      if (!inner) return next(new UnavailableError('GraphQL is starting; please retry.'));
      return inner(req, res, next);
    },
    start: () =>
      (started ??= apollo.start().then(() => {
        inner = expressMiddleware(apollo, { context: ({ req, res }) => context({ req, requestId: locals(res).requestId, clientAddress: locals(res).clientAddress }) });
      })),
    async stop() {
      if (!started) return;
      await started.catch(() => undefined);
      inner = undefined;
      await apollo.stop();
    },
  };
}

import type { ApolloServerPlugin } from '@apollo/server';
import type { Request } from 'express';
import type { Logger } from '@green-impact/shared/logger';
import { API_KEY_HEADER, AUTHORIZATION_HEADER, refuseReadOnlyWrite, type Authenticate, type Authenticated } from '../auth.js';
import type { GatewayClients } from '../clients.js';
import type { DocumentLinks } from '../document-links.js';
import { baseUrlOf } from '../base-url.js';
import { locals } from '../request-context.js';

/** Per-request GraphQL context. */
export interface GraphqlContext {
  requestId: string;
  clients: GatewayClients;
  log: Logger;
  /** Where clients reach the gateway (PUBLIC_BASE_URL, else the request's origin), for links such as /ipfs/<cid>. */
  baseUrl: string;
  /** Signs the links to written pages (Document.pageUrl). */
  documentLinks: DocumentLinks;
  /**
   * The authenticated caller, resolved on first use and memoised for the request. Lazy so that a
   * request without a key can still introspect; fields that need a caller fail with UNAUTHENTICATED.
   */
  auth(): Promise<Authenticated>;
  /**
   * Whether the operation is a mutation, set once it is parsed (readOnlyTokensPlugin, graphql-ws's context):
   * a read-only bearer token is then refused by auth(). A box, so that Apollo's shallow copies of the
   * context share it.
   */
  operation: { writes: boolean };
}

/** auth() for a context: memoised, and refusing a read-only token in a mutation. */
export function lazyAuth(operation: GraphqlContext['operation'], authenticate: () => Promise<Authenticated>): () => Promise<Authenticated> {
  let pending: Promise<Authenticated> | undefined;
  return async () => {
    const authenticated = await (pending ??= authenticate());
    if (operation.writes) refuseReadOnlyWrite(authenticated);
    return authenticated;
  };
}

/** Marks mutations in the context, so a read-only token's auth() refuses them (GraphQL's face of "write"). */
export const readOnlyTokensPlugin: ApolloServerPlugin<GraphqlContext> = {
  async requestDidStart() {
    return {
      async didResolveOperation({ operation, contextValue }) {
        contextValue.operation.writes = operation?.operation === 'mutation';
      },
    };
  },
};

export function createContextFactory(deps: {
  authenticate: Authenticate;
  clients: GatewayClients;
  log: Logger;
  publicBaseUrl?: string | undefined;
  documentLinks: DocumentLinks;
}) {
  return async ({ req, requestId, clientAddress }: { req: Request; requestId: string; clientAddress?: string | undefined }): Promise<GraphqlContext> => {
    const apiKey = req.header(API_KEY_HEADER);
    const authorization = req.header(AUTHORIZATION_HEADER);
    const operation = { writes: false };
    return {
      requestId,
      clients: deps.clients,
      log: deps.log.child({ requestId }),
      baseUrl: baseUrlOf(deps.publicBaseUrl, { protocol: req.protocol, host: req.get('host') }),
      documentLinks: deps.documentLinks,
      operation,
      auth: lazyAuth(operation, async () => {
        const authenticated = await deps.authenticate(apiKey, requestId, clientAddress, authorization);
        // The access log line (http-metrics.ts) names who the request was served for.
        if (req.res) locals(req.res).caller = authenticated.caller;
        return authenticated;
      }),
    };
  };
}

/** Call options for a gRPC call made on behalf of the context's caller. */
export async function callAs(ctx: GraphqlContext) {
  const { caller } = await ctx.auth();
  return { caller, requestId: ctx.requestId };
}

import type { Request } from 'express';
import type { Logger } from '@green-impact/shared/logger';
import { API_KEY_HEADER, type Authenticate, type Authenticated } from '../auth.js';
import type { GatewayClients } from '../clients.js';
import type { DocumentLinks } from '../document-links.js';
import { baseUrlOf } from '../base-url.js';

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
}

export function createContextFactory(deps: {
  authenticate: Authenticate;
  clients: GatewayClients;
  log: Logger;
  publicBaseUrl?: string | undefined;
  documentLinks: DocumentLinks;
}) {
  return async ({ req, requestId, clientAddress }: { req: Request; requestId: string; clientAddress?: string | undefined }): Promise<GraphqlContext> => {
    let pending: Promise<Authenticated> | undefined;
    const apiKey = req.header(API_KEY_HEADER);
    return {
      requestId,
      clients: deps.clients,
      log: deps.log.child({ requestId }),
      baseUrl: baseUrlOf(deps.publicBaseUrl, { protocol: req.protocol, host: req.get('host') }),
      documentLinks: deps.documentLinks,
      auth: () => (pending ??= deps.authenticate(apiKey, requestId, clientAddress)),
    };
  };
}

/** Call options for a gRPC call made on behalf of the context's caller. */
export async function callAs(ctx: GraphqlContext) {
  const { caller } = await ctx.auth();
  return { caller, requestId: ctx.requestId };
}

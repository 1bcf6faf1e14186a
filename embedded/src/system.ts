import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { protoFiles, protoRoot } from '@green-impact/proto/paths';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '@green-impact/shared/db/embedded-postgres';
import { startGrpcServer, type StartedGrpcServer } from '@green-impact/shared/grpc/server';
import type { Logger } from '@green-impact/shared/logger';
import type { ListingLimits } from '@green-impact/shared/config';
import { createIdentityService } from '@green-impact/identity/service';
import { createTaxonomyService } from '@green-impact/taxonomy/service';
import { createPortfolioService } from '@green-impact/portfolio/service';
import { createChainService } from '@green-impact/chain/service';
import { loadNetworkSpecs } from '@green-impact/chain/config';
import type { NetworkSpec } from '@green-impact/chain/networks/network-spec';
import type { RelayQuotaSettings } from '@green-impact/chain/networks/relay-quota';
import type { NftOptions } from '@green-impact/chain/nfts/nft-options';
import { createEventBus } from '@green-impact/shared/bus/create-bus';
import type { EventBus } from '@green-impact/shared/bus/event-bus';
import { createGateway } from '@green-impact/gateway/gateway';
import { PdfRenderer, type PdfRendererSettings } from '@green-impact/shared/pdf/renderer';
import type { AuthCacheSettings } from '@green-impact/gateway/auth-cache';
import type { ReferenceCacheSettings } from '@green-impact/gateway/reference-cache';
import { loadGatewayConfig, type GatewayLimits, type GraphqlConfig, type OidcSettings } from '@green-impact/gateway/config';

export interface SystemOptions {
  /** Gateway port; 0 picks a free one. */
  port: number;
  host: string;
  /** PGlite data directory; in memory when undefined and no databaseUrl is given. */
  pgliteDataDir?: string | undefined;
  databaseUrl?: string | undefined;
  /** Kafka brokers for the event bus; the in-process bus when empty. */
  kafkaBrokers?: string[];
  /** A bus made by the caller (shared with other parts of a test); kafkaBrokers is then ignored and the caller closes it. */
  bus?: EventBus | undefined;
  /** Content-addressed store of the chain service; a temporary directory when undefined. */
  contentDir?: string | undefined;
  /** Chain networks (from CHAIN_NETWORKS…); the embedded networks when undefined. */
  chainNetworks?: NetworkSpec[] | undefined;
  /** false (CHAIN_ENABLED=false): no chain service; the gateway answers its operations 503 and reports still render. */
  chain?: boolean | undefined;
  /** NFT e-mail, pinning and image settings; .eml files in a temporary outbox when undefined. */
  nfts?: NftOptions | undefined;
  /** The public relay's own budget on each network; DEFAULT_RELAY_QUOTA when undefined. */
  chainRelayQuota?: RelayQuotaSettings | undefined;
  bootstrapApiKey?: string | undefined;
  publicBaseUrl?: string | undefined;
  /** NODE_ENV as the gateway sees it (production: no explorer, document links need a secret); development when undefined. */
  nodeEnv?: string;
  /** First gRPC port: identity on it, taxonomy on the next; 0 (the default) picks free ports. */
  grpcBasePort?: number;
  /** gRPC server reflection on the loopback ports (GRPC_REFLECTION); off when undefined. */
  grpcReflection?: boolean;
  /** The gateway's time and rate limits; their defaults when undefined. */
  gatewayLimits?: GatewayLimits | undefined;
  /** GraphQL settings of the gateway; defaults from NODE_ENV. */
  gatewayGraphql?: GraphqlConfig | undefined;
  /** The gateway's API-key cache; its defaults (AUTH_CACHE_*) when undefined. */
  gatewayAuthCache?: AuthCacheSettings | undefined;
  /** OpenID Connect issuers whose bearer tokens the gateway accepts; none (API keys only) when undefined. */
  gatewayOidc?: OidcSettings | undefined;
  /** The gateway's reference-data cache; its defaults (REFERENCE_CACHE_*) when undefined. */
  gatewayReferenceCache?: ReferenceCacheSettings | undefined;
  /** Browser origins allowed across origins (CORS_ALLOWED_ORIGINS); none when unset. */
  gatewayCorsOrigins?: string[] | undefined;
  /** The gateway's DOCUMENT_LINK_* settings; without a secret, links are signed with one of this process. */
  gatewayDocumentLinks?: Partial<Record<'DOCUMENT_LINK_SECRET' | 'DOCUMENT_LINK_PREVIOUS_SECRET' | 'DOCUMENT_LINK_TTL_SECONDS', string>> | undefined;
  /** MAX_LIST_ITEMS and MAX_PUBLIC_ITEMS_PER_ACCOUNT of taxonomy and portfolio; their defaults when undefined. */
  listingLimits?: ListingLimits | undefined;
  /** MAX_API_KEYS_PER_ACCOUNT of identity; its default when undefined. */
  maxApiKeysPerAccount?: number | undefined;
  /** Prints pages to PDF in this process (Chromium); no PDFs when undefined. */
  pdfRenderer?: PdfRendererSettings | undefined;
  /** A renderer service instead (the gateway's PDF_RENDERER_URL); pdfRenderer wins when both are given. */
  pdfRendererUrl?: string | undefined;
  log: Logger;
}

export interface RunningSystem {
  gatewayUrl: string;
  databaseUrl: string;
  grpc: Record<'identity' | 'taxonomy' | 'portfolio', string> & { chain?: string | undefined };
  stop(): Promise<void>;
}

/**
 * Starts every service in this process, each on its own loopback gRPC port exactly as it would run
 * alone, then the gateway in front of them. Stops in reverse order: the gateway stops taking requests
 * first, then the services drain, then the database closes.
 */
export async function startSystem(opts: SystemOptions): Promise<RunningSystem> {
  const stack: (() => Promise<void>)[] = [];
  const stop = async () => {
    while (stack.length) await stack.pop()!().catch((err: unknown) => opts.log.error({ err }, 'error while stopping'));
  };
  try {
    // Links the services hand out (NFT metadata, certificates, claim links) point at the gateway, so its
    // port is settled before they start: bound here, and the gateway later listens on this very socket
    // (a port picked, released and bound again could be taken in between by another process).
    const reserved = await bindGatewayPort(opts.host, opts.port);
    stack.push(() => reserved.release());
    const port = reserved.port;
    const shownHost = opts.host === '0.0.0.0' || opts.host === '::' ? '127.0.0.1' : opts.host;
    const publicBaseUrl = opts.publicBaseUrl ?? `http://${shownHost}:${port}`;
    let embedded: EmbeddedPostgres | undefined;
    let databaseUrl = opts.databaseUrl;
    if (!databaseUrl) {
      embedded = await startEmbeddedPostgres(opts.pgliteDataDir ? { dataDir: opts.pgliteDataDir } : {});
      stack.push(() => embedded!.stop());
      databaseUrl = embedded.url;
    }

    let bus = opts.bus;
    if (!bus) {
      const own = createEventBus({
        ...(opts.kafkaBrokers?.length ? { kafkaBrokers: opts.kafkaBrokers } : {}),
        clientId: 'green-impact',
        logger: opts.log.child({ component: 'bus' }),
      });
      stack.push(() => own.close());
      bus = own;
    }

    const identity = await createIdentityService({
      databaseUrl,
      bootstrapApiKey: opts.bootstrapApiKey,
      bus,
      limits: opts.listingLimits,
      maxApiKeysPerAccount: opts.maxApiKeysPerAccount,
      log: opts.log.child({ component: 'identity' }),
      poolSize: embedded ? 4 : 10,
    });
    stack.push(() => identity.close());
    const grpcPort = (offset: number) => (opts.grpcBasePort ? opts.grpcBasePort + offset : 0);
    const identityServer = await serve('identity', identity.registration, opts, grpcPort(0));
    stack.push(() => identityServer.shutdown());

    const taxonomy = await createTaxonomyService({
      databaseUrl,
      bus,
      limits: opts.listingLimits,
      log: opts.log.child({ component: 'taxonomy' }),
      poolSize: embedded ? 4 : 10,
    });
    stack.push(() => taxonomy.close());
    const taxonomyServer = await serve('taxonomy', taxonomy.registration, opts, grpcPort(1));
    stack.push(() => taxonomyServer.shutdown());

    const portfolio = await createPortfolioService({
      databaseUrl,
      taxonomyAddress: taxonomyServer.address,
      bus,
      limits: opts.listingLimits,
      log: opts.log.child({ component: 'portfolio' }),
      poolSize: embedded ? 4 : 10,
    });
    stack.push(() => portfolio.close());
    const portfolioServer = await serve('portfolio', portfolio.registration, opts, grpcPort(2));
    stack.push(() => portfolioServer.shutdown());

    let chainServer: StartedGrpcServer | undefined;
    if (opts.chain !== false) {
      let contentDir = opts.contentDir;
      if (!contentDir) {
        contentDir = await mkdtemp(join(tmpdir(), 'gi-content-'));
        const dir = contentDir;
        stack.push(() => rm(dir, { recursive: true, force: true }));
      }
      const chain = await createChainService({
        databaseUrl,
        bus,
        networks: opts.chainNetworks ?? loadNetworkSpecs({}),
        contentDir,
        log: opts.log.child({ component: 'chain' }),
        poolSize: embedded ? 4 : 10,
        publicBaseUrl,
        nfts: opts.nfts ?? { mailOutboxDir: join(contentDir, '..', 'mail-outbox') },
        relayQuota: opts.chainRelayQuota,
        limits: opts.listingLimits,
      });
      stack.push(() => chain.close());
      chainServer = await serve('chain', chain.registration, opts, grpcPort(3));
      const started = chainServer;
      stack.push(() => started.shutdown());
    }

    const gatewayConfig = loadGatewayConfig({
      PORT: String(port),
      HOST: opts.host,
      IDENTITY_GRPC_ADDR: identityServer.address,
      TAXONOMY_GRPC_ADDR: taxonomyServer.address,
      PORTFOLIO_GRPC_ADDR: portfolioServer.address,
      CHAIN_GRPC_ADDR: chainServer?.address,
      NODE_ENV: opts.nodeEnv ?? 'development',
      PUBLIC_BASE_URL: publicBaseUrl,
      PDF_RENDERER_URL: opts.pdfRendererUrl,
      ...opts.gatewayDocumentLinks,
    });
    const limits = opts.gatewayLimits ?? gatewayConfig.limits;
    const graphql = opts.gatewayGraphql ?? gatewayConfig.graphql;
    const authCache = opts.gatewayAuthCache ?? gatewayConfig.authCache;
    const referenceCache = opts.gatewayReferenceCache ?? gatewayConfig.referenceCache;
    const renderer = opts.pdfRenderer ? new PdfRenderer(opts.pdfRenderer, opts.log.child({ component: 'pdf-renderer' })) : undefined;
    if (renderer) stack.push(() => renderer.close());
    const gateway = createGateway({
      config: { ...gatewayConfig, limits, graphql, authCache, referenceCache, corsAllowedOrigins: opts.gatewayCorsOrigins ?? [], oidc: opts.gatewayOidc },
      bus,
      log: opts.log.child({ component: 'gateway' }),
      printPdf: renderer ? (page) => renderer.render(page) : undefined,
    });
    await gateway.listen(reserved.server);
    stack.push(() => gateway.close());

    return {
      gatewayUrl: `http://${shownHost}:${port}`,
      databaseUrl,
      grpc: { identity: identityServer.address, taxonomy: taxonomyServer.address, portfolio: portfolioServer.address, chain: chainServer?.address },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

export const EMBEDDED_GRPC_HOST = '127.0.0.1';

async function serve(
  name: keyof typeof protoFiles,
  registration: Parameters<typeof startGrpcServer>[0]['services'][number],
  opts: Pick<SystemOptions, 'log' | 'grpcReflection'>,
  port: number,
): Promise<StartedGrpcServer> {
  return startGrpcServer({
    services: [registration],
    // Loopback only: nothing outside this process has its caller key, and nothing outside this machine
    // should learn the ports are there. A container runs the services standalone (GRPC_HOST).
    host: EMBEDDED_GRPC_HOST,
    port,
    protoRoot,
    protoFiles: [protoFiles[name]],
    log: opts.log.child({ component: name }),
    reflection: opts.grpcReflection === true,
  });
}

/**
 * The gateway's listener, bound before the gateway exists. Until the gateway takes it over (gateway.listen(server)),
 * connections are reset at once (as good as refused: nothing serves yet). release() closes it: a no-op once the
 * gateway, which takes it over and stops before it is released, closed it.
 */
async function bindGatewayPort(host: string, port: number): Promise<{ server: Server; port: number; release(): Promise<void> }> {
  const server = createServer((socket) => socket.resetAndDestroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    release: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function pgliteDir(dataDir: string): string {
  return join(dataDir, 'pglite');
}

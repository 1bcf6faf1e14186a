import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadPdfRenderLimits } from '@green-impact/shared/pdf/server';
import type { PdfRendererSettings } from '@green-impact/shared/pdf/renderer';
import { envReader, listingLimits, loadLogLevel, type Env, type ListingLimits, type LogLevel } from '@green-impact/shared/config';
import { grpcReflection } from '@green-impact/shared/grpc/server-settings';
import { strongSecret } from '@green-impact/shared/secret-strength';
import { parseAllowedOrigins } from '@green-impact/gateway/cors';
import type { AuthCacheSettings } from '@green-impact/gateway/auth-cache';
import type { ReferenceCacheSettings } from '@green-impact/gateway/reference-cache';
import { loadAuthCacheSettings, loadDocumentLinkSettings, loadGatewayLimits, loadGraphqlConfig, loadOidcSettings, loadReferenceCacheSettings, type GatewayLimits, type GraphqlConfig, type OidcSettings } from '@green-impact/gateway/config';
import { loadNetworkSpecs, loadNftSettings, loadRelayQuota } from '@green-impact/chain/config';
import { maxApiKeysPerAccount } from '@green-impact/identity/config';

import type { NftOptions } from '@green-impact/chain/nfts/nft-options';
import type { NetworkSpec } from '@green-impact/chain/networks/network-spec';
import type { RelayQuotaSettings } from '@green-impact/chain/networks/relay-quota';

/** Configuration of the all-in-one process (`npm start`), validated before anything starts. */
export interface EmbeddedConfig {
  /** LOG_LEVEL (and NODE_ENV=test: silent). */
  logLevel: LogLevel;
  /** NODE_ENV, as the gateway sees it (production: no GraphQL explorer, no gRPC reflection). */
  nodeEnv: string;
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL instead of PGlite, when set. */
  databaseUrl: string | undefined;
  kafkaBrokers: string[];
  bootstrapApiKey: string | undefined;
  publicBaseUrl: string | undefined;
  /** Loopback gRPC ports start here (identity, taxonomy, …); 0 picks free ones. */
  grpcBasePort: number;
  /** GRPC_REFLECTION: reflection on those ports (default on, off with NODE_ENV=production). */
  grpcReflection: boolean;
  /**
   * CHAIN_NETWORKS / CHAIN_NETWORKS_FILE, or the embedded networks when neither is set; undefined with
   * CHAIN_ENABLED=false: no chain service at all (reports only; blockchain operations answer 503).
   */
  chainNetworks: NetworkSpec[] | undefined;
  /** NFT e-mail, pinning and image settings (SMTP_URL, IPFS_API_URL, NFT_…). */
  nfts: NftOptions;
  /** The public relay's own budget on each network (CHAIN_RELAY_*). */
  chainRelayQuota: RelayQuotaSettings;
  /** The gateway's time and rate limits (REQUEST_DEADLINE_MS, RATE_LIMIT_…, REDIS_URL, …). */
  gatewayLimits: GatewayLimits;
  /** The gateway's GraphQL settings (GRAPHQL_EXPLORER, GRAPHQL_MAX_DEPTH, …). */
  gatewayGraphql: GraphqlConfig;
  gatewayAuthCache: AuthCacheSettings;
  /** OIDC_ISSUERS, OIDC_JWKS_COOLDOWN_MS: bearer tokens beside API keys (docs/sign-in.md). */
  gatewayOidc: OidcSettings;
  gatewayReferenceCache: ReferenceCacheSettings;
  /** CORS_ALLOWED_ORIGINS: browser origins allowed to call /graphql and /v1/call. */
  gatewayCorsOrigins: string[];
  /** DOCUMENT_LINK_*, as set (checked here); main.ts keeps a secret under DATA_DIR when none is. */
  documentLinks: { secret: string | undefined; previousSecret: string | undefined; ttlSeconds: number };
  /** MAX_LIST_ITEMS and MAX_PUBLIC_ITEMS_PER_ACCOUNT of the taxonomy and portfolio services. */
  listingLimits: ListingLimits;
  /** MAX_API_KEYS_PER_ACCOUNT of the identity service. */
  maxApiKeysPerAccount: number;
  /** The in-process PDF renderer (CHROMIUM_PATH, PDF_RENDER_*): when that Chromium is there and PDF_RENDERER is not off. */
  pdfRenderer: PdfRendererSettings | undefined;
}

export function loadEmbeddedConfig(env: Env): EmbeddedConfig {
  const read = envReader(env);
  return {
    logLevel: loadLogLevel(env),
    nodeEnv: read.string('NODE_ENV', 'development'),
    port: read.port('PORT', 8080),
    host: read.string('HOST', '127.0.0.1'),
    dataDir: resolve(read.string('DATA_DIR', './data')),
    databaseUrl: read.url('DATABASE_URL', ['postgres', 'postgresql']),
    kafkaBrokers: read.list('KAFKA_BROKERS'),
    bootstrapApiKey: strongSecret('BOOTSTRAP_API_KEY', read.optionalString('BOOTSTRAP_API_KEY')),
    publicBaseUrl: read.url('PUBLIC_BASE_URL', ['http', 'https']),
    grpcBasePort: read.port('GRPC_BASE_PORT', 50051),
    grpcReflection: grpcReflection(read),
    chainNetworks: read.bool('CHAIN_ENABLED', true) ? loadNetworkSpecs(env) : undefined,
    nfts: { mailOutboxDir: resolve(read.string('DATA_DIR', './data'), 'mail-outbox'), ...loadNftSettings(read).nfts },
    chainRelayQuota: loadRelayQuota(read),
    gatewayLimits: loadGatewayLimits(env),
    gatewayGraphql: loadGraphqlConfig(env),
    gatewayAuthCache: loadAuthCacheSettings(env),
    gatewayOidc: loadOidcSettings(env),
    gatewayReferenceCache: loadReferenceCacheSettings(env),
    gatewayCorsOrigins: parseAllowedOrigins(read.optionalString('CORS_ALLOWED_ORIGINS')),
    documentLinks: documentLinkSettings(env),
    listingLimits: listingLimits(read),
    maxApiKeysPerAccount: maxApiKeysPerAccount(read),
    pdfRenderer: pdfRenderer(env),
  };
}

/** Chromium where CHROMIUM_PATH (default /usr/bin/chromium) says: pages get PDFs; otherwise none (503, no link). */
function pdfRenderer(env: Env): PdfRendererSettings | undefined {
  const read = envReader(env);
  if (!read.bool('PDF_RENDERER', true)) return undefined;
  const chromiumPath = read.string('CHROMIUM_PATH', '/usr/bin/chromium');
  return existsSync(chromiumPath) ? { chromiumPath, ...loadPdfRenderLimits(env) } : undefined;
}

/** Checked by the gateway's own loader; a missing secret is fine here (kept under DATA_DIR), also in production. */
function documentLinkSettings(env: Env): EmbeddedConfig['documentLinks'] {
  const read = envReader(env);
  const secret = read.optionalString('DOCUMENT_LINK_SECRET');
  const checked = loadDocumentLinkSettings({ ...env, NODE_ENV: 'development' });
  return { secret, previousSecret: read.optionalString('DOCUMENT_LINK_PREVIOUS_SECRET'), ttlSeconds: checked.ttlSeconds };
}

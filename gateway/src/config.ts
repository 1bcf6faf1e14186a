import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { ConfigError, envReader, type Env, type EnvReader } from '@green-impact/shared/config';
import type { AuthCacheSettings } from './auth-cache.js';
import { loadOidcIssuers, type OidcIssuer } from './oidc/issuers.js';
import type { CacheSettings } from './lru-cache.js';
import { DEFAULT_LINK_TTL_SECONDS, MAX_LINK_TTL_SECONDS, MIN_SECRET_LENGTH, type DocumentLinkSettings } from './document-links.js';
import type { ReferenceCacheSettings } from './reference-cache.js';
import type { BackendCallSettings } from './backend-calls.js';
import type { BackendAddresses } from './clients.js';
import { parseAllowedOrigins } from './cors.js';
import { DEFAULT_QUERY_LIMITS } from './graphql/limits.js';
import type { BucketRule } from '@green-impact/shared/token-bucket';
import { strongSecret } from '@green-impact/shared/secret-strength';

/** Everything the gateway reads from the environment, validated once at start. */
export interface GatewayConfig {
  port: number;
  host: string;
  nodeEnv: string;
  /** Upper bound for request bodies of /v1/call and /graphql. */
  bodyLimitBytes: number;
  /** Base URL clients reach the gateway at, for links in responses; undefined when not configured. */
  publicBaseUrl: string | undefined;
  /** Deadline for each gRPC call to a backend. */
  grpcDeadlineMs: number;
  /** Deadline for each backend's health check behind /readyz. */
  readyCheckTimeoutMs: number;
  /** How long close() lets in-flight requests finish before cutting connections. */
  shutdownGraceMs: number;
  /** Express's `trust proxy`: how many proxies (or which addresses) may set X-Forwarded-For; 0 trusts none. */
  trustProxy: number | string[];
  /** Browser origins allowed to call /graphql and /v1/call across origins (CORS_ALLOWED_ORIGINS); none by default. */
  corsAllowedOrigins: string[];
  limits: GatewayLimits;
  graphql: GraphqlConfig;
  /** The API-key authentication cache (auth-cache.ts). */
  authCache: AuthCacheSettings;
  /** The cache of shared reference reads (reference-cache.ts). */
  referenceCache: ReferenceCacheSettings;
  /** Signed links to written documents (document-links.ts, DOCUMENT_LINK_*). */
  documentLinks: DocumentLinkSettings;
  /** The PDF renderer (PDF_RENDERER_URL, PDF_RENDERER_TIMEOUT_MS); no URL: no PDFs (503, no link). */
  pdfRenderer: { url: string | undefined; timeoutMs: number };
  backends: BackendAddresses;
  /** OpenID Connect issuers whose bearer tokens authenticate like API keys (OIDC_ISSUERS, docs/sign-in.md); none: keys only. */
  oidc?: OidcSettings | undefined;
}

export interface OidcSettings {
  issuers: OidcIssuer[];
  /** Least time between two JWKS fetches for a token naming an unknown key (OIDC_JWKS_COOLDOWN_MS). */
  jwksCooldownMs: number;
}

/** OIDC_*: also read by `npm start`. */
export function loadOidcSettings(env: Env): OidcSettings {
  return {
    issuers: loadOidcIssuers(env),
    jwksCooldownMs: envReader(env).int('OIDC_JWKS_COOLDOWN_MS', 30_000, { min: 0, max: 3_600_000 }),
  };
}

/** GraphQL limits and the explorer page. */
export interface GraphqlConfig {
  /** Serve GraphiQL at /graphql to browsers; default on except in production. */
  explorer: boolean;
  /** Deepest nesting of fields an operation may have. */
  maxDepth: number;
  /** Largest estimated number of fields an answer may hold (lists count `first`, else 10). */
  maxCost: number;
  /** Aliased fields an operation may have (GRAPHQL_MAX_ALIASES). */
  maxAliases: number;
  /** Root fields an operation may ask for (GRAPHQL_MAX_ROOT_FIELDS). */
  maxRootFields: number;
  /** Subscriptions one WebSocket connection may hold at once. */
  maxSubscriptionsPerConnection: number;
  /** WebSocket connections one account may hold open on one gateway (GRAPHQL_WS_MAX_CONNECTIONS_PER_ACCOUNT). */
  maxConnectionsPerAccount: number;
  /** Subscriptions (WatchJobs streams) one account may hold on one gateway, over all its sockets. */
  maxSubscriptionsPerAccount: number;
  /** Longest a WebSocket stays open; the server then closes it (4000) and the client reconnects. */
  maxConnectionLifetimeMs: number;
}

/** Time and rate limits of the HTTP face (docs/configuration.md, SECURITY.md). */
export interface GatewayLimits {
  /** Node's headersTimeout: a client must send all request headers within this (slowloris). */
  headersTimeoutMs: number;
  /** Node's requestTimeout: a client must send the whole request, body included, within this. */
  requestTimeoutMs: number;
  /** Budget of each /v1/call and /graphql request from its body read to its answer; 504 beyond. */
  requestDeadlineMs: number;
  rateLimit: RateLimitSettings;
  /** Shares of the backend calls per request and per account (backend-calls.ts, BACKEND_CALLS_*). */
  backendCalls: BackendCallSettings;
}


export interface RateLimitSettings {
  /** Requests carrying an X-Api-Key, per key; undefined when off. */
  perKey: BucketRule | undefined;
  /** Requests without a key or with a key not yet known good, and refused keys (counted apart), per client address; undefined when off. */
  perAddress: BucketRule | undefined;
  /** The same requests, all addresses together (RATE_LIMIT_UNAUTH_*); undefined when off. */
  unauthenticated: BucketRule | undefined;
  /** The keys identity accepted, which alone draw from a bucket of their own (rate-limit/known-keys.ts). */
  knownKeys: CacheSettings;
  /** Shared buckets in Redis when set; in this process's memory otherwise. */
  redisUrl: string | undefined;
  /** Prefix of every Redis key the limiter writes. */
  redisPrefix: string;
}

export function loadGatewayConfig(env: Env): GatewayConfig {
  const read = envReader(env);
  const address = (name: string): string | undefined => {
    const value = read.optionalString(name);
    if (value !== undefined && !/^[A-Za-z0-9.\-_[\]:]+:\d{1,5}$/.test(value)) {
      throw new ConfigError(`${name} must be host:port, got "${value}".`);
    }
    return value;
  };
  const identity = address('IDENTITY_GRPC_ADDR');
  if (identity === undefined) throw new ConfigError('IDENTITY_GRPC_ADDR is required but not set.');
  const nodeEnv = read.string('NODE_ENV', 'development');
  return {
    port: read.port('PORT', 8080),
    host: read.string('HOST', '0.0.0.0'),
    nodeEnv,
    bodyLimitBytes: read.int('BODY_LIMIT_BYTES', 1024 * 1024, { min: 1024, max: 64 * 1024 * 1024 }),
    publicBaseUrl: read.url('PUBLIC_BASE_URL', ['http', 'https'])?.replace(/\/+$/, ''),
    grpcDeadlineMs: read.int('GRPC_DEADLINE_MS', 15_000, { min: 100 }),
    readyCheckTimeoutMs: read.int('READY_CHECK_TIMEOUT_MS', 2_000, { min: 50 }),
    shutdownGraceMs: read.int('SHUTDOWN_GRACE_MS', 10_000, { min: 0 }),
    graphql: loadGraphqlConfig(env),
    authCache: loadAuthCacheSettings(env),
    oidc: loadOidcSettings(env),
    referenceCache: loadReferenceCacheSettings(env),
    documentLinks: loadDocumentLinkSettings(env),
    pdfRenderer: { url: read.url('PDF_RENDERER_URL', ['http', 'https'])?.replace(/\/+$/, ''), timeoutMs: read.int('PDF_RENDERER_TIMEOUT_MS', 30_000, { min: 100, max: 300_000 }) },
    trustProxy: trustProxy(read),
    corsAllowedOrigins: parseAllowedOrigins(read.optionalString('CORS_ALLOWED_ORIGINS')),
    limits: loadGatewayLimits(env),
    backends: {
      identity,
      taxonomy: address('TAXONOMY_GRPC_ADDR'),
      portfolio: address('PORTFOLIO_GRPC_ADDR'),
      chain: address('CHAIN_GRPC_ADDR'),
    },
  };
}

/** AUTH_CACHE_*: also read by `npm start`, whose gateway is built in code. */
export function loadAuthCacheSettings(env: Env): AuthCacheSettings {
  const read = envReader(env);
  return {
    ttlMs: read.int('AUTH_CACHE_TTL_MS', 10_000, { min: 0, max: 300_000 }),
    maxEntries: read.int('AUTH_CACHE_MAX_ENTRIES', 10_000, { min: 1, max: 10_000_000 }),
  };
}

/** REFERENCE_CACHE_*: also read by `npm start`. */
export function loadReferenceCacheSettings(env: Env): ReferenceCacheSettings {
  const read = envReader(env);
  return {
    ttlMs: read.int('REFERENCE_CACHE_TTL_MS', 30_000, { min: 0, max: 3_600_000 }),
    maxEntries: read.int('REFERENCE_CACHE_MAX_ENTRIES', 2_000, { min: 1, max: 1_000_000 }),
  };
}

/** The gateway's limits alone, for launchers that build the rest of the gateway's config themselves. */
/** GRAPHQL_*: the explorer and the query limits (also read by `npm start`, whose gateway is built in code). */
export function loadGraphqlConfig(env: Env): GraphqlConfig {
  const read = envReader(env);
  return {
    explorer: read.bool('GRAPHQL_EXPLORER', read.string('NODE_ENV', 'development') !== 'production'),
    maxDepth: read.int('GRAPHQL_MAX_DEPTH', DEFAULT_QUERY_LIMITS.maxDepth, { min: 2, max: 100 }),
    maxCost: read.int('GRAPHQL_MAX_COST', DEFAULT_QUERY_LIMITS.maxCost, { min: 10, max: 10_000_000 }),
    maxAliases: read.int('GRAPHQL_MAX_ALIASES', DEFAULT_QUERY_LIMITS.maxAliases, { min: 0, max: 10_000 }),
    maxRootFields: read.int('GRAPHQL_MAX_ROOT_FIELDS', DEFAULT_QUERY_LIMITS.maxRootFields, { min: 1, max: 10_000 }),
    maxSubscriptionsPerConnection: read.int('GRAPHQL_WS_MAX_SUBSCRIPTIONS', 20, { min: 1, max: 1_000 }),
    maxConnectionsPerAccount: read.int('GRAPHQL_WS_MAX_CONNECTIONS_PER_ACCOUNT', 20, { min: 1, max: 100_000 }),
    maxSubscriptionsPerAccount: read.int('GRAPHQL_WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT', 100, { min: 1, max: 1_000_000 }),
    // At least a second (a shorter socket only churns), at most a day (a socket is authenticated once).
    maxConnectionLifetimeMs: read.int('GRAPHQL_WS_MAX_LIFETIME_MS', 3_600_000, { min: 1_000, max: 86_400_000 }),
  };
}

export function loadGatewayLimits(env: Env): GatewayLimits {
  const read = envReader(env);
  const headersTimeoutMs = read.int('HTTP_HEADERS_TIMEOUT_MS', 10_000, { min: 100 });
  const requestTimeoutMs = read.int('HTTP_REQUEST_TIMEOUT_MS', 60_000, { min: 100 });
  // Node refuses a headers timeout longer than the request timeout; say so by name.
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError(`HTTP_HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not exceed HTTP_REQUEST_TIMEOUT_MS (${requestTimeoutMs}).`);
  }
  return {
    headersTimeoutMs,
    requestTimeoutMs,
    requestDeadlineMs: read.int('REQUEST_DEADLINE_MS', 30_000, { min: 100 }),
    rateLimit: {
      perKey: bucketRule(read, 'RATE_LIMIT_PER_KEY', 200, 'RATE_LIMIT_KEY_BURST', 400),
      perAddress: bucketRule(read, 'RATE_LIMIT_PER_ADDRESS', 20, 'RATE_LIMIT_ADDRESS_BURST', 100),
      unauthenticated: bucketRule(read, 'RATE_LIMIT_UNAUTH_PER_SECOND', 200, 'RATE_LIMIT_UNAUTH_BURST', 1_000),
      knownKeys: {
        ttlMs: read.int('RATE_LIMIT_KNOWN_KEYS_TTL_MS', 3_600_000, { min: 1_000, max: 86_400_000 }),
        maxEntries: read.int('RATE_LIMIT_KNOWN_KEYS_MAX', 100_000, { min: 1, max: 10_000_000 }),
      },
      redisUrl: read.url('REDIS_URL', ['redis', 'rediss']),
      redisPrefix: read.string('RATE_LIMIT_REDIS_PREFIX', 'green-impact:rate-limit:'),
    },
    backendCalls: {
      perRequest: read.int('BACKEND_CALLS_PER_REQUEST', 8, { min: 1, max: 1_000 }),
      perCaller: {
        limit: read.int('BACKEND_CALLS_PER_CALLER', 16, { min: 1, max: 10_000 }),
        maxQueue: read.int('BACKEND_CALLS_CALLER_QUEUE', 64, { min: 0, max: 100_000 }),
        maxWaitMs: read.int('BACKEND_CALLS_CALLER_WAIT_MS', 250, { min: 0, max: 60_000 }),
      },
    },
  };
}

/**
 * DOCUMENT_LINK_*: the secret is required in production (every replica must accept the others' links);
 * elsewhere a missing one is generated for this process. `npm start` persists one under DATA_DIR instead
 * (embedded/src/link-secret.ts) and passes it as `secret`. The links themselves: document-links.ts.
 */
export function loadDocumentLinkSettings(env: Env, secret?: string): DocumentLinkSettings {
  const read = envReader(env);
  const production = read.string('NODE_ENV', 'development') === 'production';
  const configured = secret ?? read.optionalString('DOCUMENT_LINK_SECRET');
  const previous = read.optionalString('DOCUMENT_LINK_PREVIOUS_SECRET');
  if (configured === undefined && production) {
    throw new ConfigError(
      'DOCUMENT_LINK_SECRET is required in production: every gateway replica signs and checks document links with it ' +
        `(at least ${MIN_SECRET_LENGTH} characters, e.g. openssl rand -base64 32).`,
    );
  }
  return {
    secret: configured === undefined ? randomBytes(32) : secretBytes('DOCUMENT_LINK_SECRET', configured),
    previousSecret: previous === undefined ? undefined : secretBytes('DOCUMENT_LINK_PREVIOUS_SECRET', previous),
    ttlSeconds: read.int('DOCUMENT_LINK_TTL_SECONDS', DEFAULT_LINK_TTL_SECONDS, { min: 60, max: MAX_LINK_TTL_SECONDS }),
    generated: configured === undefined,
  };
}

/** A weak secret is refused at start: whoever guesses it opens every document page it could sign. */
function secretBytes(name: string, value: string): Buffer {
  return Buffer.from(strongSecret(name, value)!, 'utf8');
}

/** A rate of 0 turns the limit off; a burst below one second's worth would refuse a steady client. */
function bucketRule(read: EnvReader, rateName: string, rate: number, burstName: string, burst: number): BucketRule | undefined {
  const perSecond = read.int(rateName, rate, { min: 0, max: 1_000_000 });
  if (perSecond === 0) return undefined;
  const max = read.int(burstName, Math.max(burst, perSecond), { min: 1, max: 10_000_000 });
  if (max < perSecond) throw new ConfigError(`${burstName} (${max}) must be at least ${rateName} (${perSecond}).`);
  return { perSecond, burst: max };
}

const TRUST_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** TRUST_PROXY: a hop count, or addresses/CIDRs/names of trusted proxies. `true` (trust anyone) is refused. */
function trustProxy(read: EnvReader): number | string[] {
  const value = read.optionalString('TRUST_PROXY');
  if (value === undefined) return 0;
  if (/^\d+$/.test(value)) return read.int('TRUST_PROXY', 0, { min: 0, max: 10 });
  const entries = value.split(',').map((e) => e.trim()).filter(Boolean);
  for (const entry of entries) {
    const [ip, bits, extra] = entry.split('/');
    const family = isIP(ip ?? '');
    const bitsOk = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
    if (!TRUST_NAMES.has(entry) && (family === 0 || !bitsOk || extra !== undefined)) {
      throw new ConfigError(`TRUST_PROXY must be a hop count or a list of proxy addresses, CIDRs, loopback, linklocal or uniquelocal; "${entry}" is none of these.`);
    }
  }
  return entries;
}

import { ConfigError, envReader } from '@green-impact/shared/config';

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
  limits: GatewayLimits;
  backends: BackendAddresses;
}

/** Time limits of the HTTP face (docs/configuration.md, SECURITY.md). */
export interface GatewayLimits {
  /** Node's headersTimeout: a client must send all request headers within this (slowloris). */
  headersTimeoutMs: number;
  /** Node's requestTimeout: a client must send the whole request, body included, within this. */
  requestTimeoutMs: number;
  /** Budget of each /v1/call and /graphql request from its body read to its answer; 504 beyond. */
  requestDeadlineMs: number;
}

/** host:port of each gRPC backend. Only identity is required until the other services exist. */
export interface BackendAddresses {
  identity: string;
  taxonomy: string | undefined;
  portfolio: string | undefined;
  chain: string | undefined;
}

export function loadGatewayConfig(env: Record<string, string | undefined> = process.env): GatewayConfig {
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
  return {
    port: read.port('PORT', 8080),
    host: read.string('HOST', '0.0.0.0'),
    nodeEnv: read.string('NODE_ENV', 'development'),
    bodyLimitBytes: read.int('BODY_LIMIT_BYTES', 1024 * 1024, { min: 1024, max: 64 * 1024 * 1024 }),
    publicBaseUrl: read.url('PUBLIC_BASE_URL', ['http', 'https'])?.replace(/\/+$/, ''),
    grpcDeadlineMs: read.int('GRPC_DEADLINE_MS', 15_000, { min: 100 }),
    readyCheckTimeoutMs: read.int('READY_CHECK_TIMEOUT_MS', 2_000, { min: 50 }),
    shutdownGraceMs: read.int('SHUTDOWN_GRACE_MS', 10_000, { min: 0 }),
    limits: loadGatewayLimits(env),
    backends: {
      identity,
      taxonomy: address('TAXONOMY_GRPC_ADDR'),
      portfolio: address('PORTFOLIO_GRPC_ADDR'),
      chain: address('CHAIN_GRPC_ADDR'),
    },
  };
}

/** The gateway's limits alone, for launchers that build the rest of the gateway's config themselves. */
export function loadGatewayLimits(env: Record<string, string | undefined> = process.env): GatewayLimits {
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
  };
}

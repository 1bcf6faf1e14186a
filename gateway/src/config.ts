import { ConfigError, envReader } from '@green-impact/shared/config';
import { DEFAULT_QUERY_LIMITS } from './graphql/limits.js';

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
  graphql: GraphqlConfig;
  backends: BackendAddresses;
}

/** GraphQL limits and the explorer page. */
export interface GraphqlConfig {
  /** Serve GraphiQL at /graphql to browsers; default on except in production. */
  explorer: boolean;
  /** Deepest nesting of fields an operation may have. */
  maxDepth: number;
  /** Largest estimated number of fields an answer may hold (lists count `first`, else 10). */
  maxCost: number;
  /** Subscriptions one WebSocket connection may hold at once. */
  maxSubscriptionsPerConnection: number;
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
    graphql: {
      explorer: read.bool('GRAPHQL_EXPLORER', nodeEnv !== 'production'),
      maxDepth: read.int('GRAPHQL_MAX_DEPTH', DEFAULT_QUERY_LIMITS.maxDepth, { min: 2, max: 100 }),
      maxCost: read.int('GRAPHQL_MAX_COST', DEFAULT_QUERY_LIMITS.maxCost, { min: 10, max: 10_000_000 }),
      maxSubscriptionsPerConnection: read.int('GRAPHQL_WS_MAX_SUBSCRIPTIONS', 20, { min: 1, max: 1_000 }),
    },
    backends: {
      identity,
      taxonomy: address('TAXONOMY_GRPC_ADDR'),
      portfolio: address('PORTFOLIO_GRPC_ADDR'),
      chain: address('CHAIN_GRPC_ADDR'),
    },
  };
}

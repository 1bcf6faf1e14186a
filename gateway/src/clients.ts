import { Client, credentials } from '@grpc/grpc-js';
import { createGrpcClient, type TypedClient } from '@green-impact/shared/grpc/client';
import { UnavailableError } from '@green-impact/shared/errors';
import { ChainServiceService } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { IdentityServiceService } from '@green-impact/proto/greenimpact/identity/v1/identity';
import { PortfolioServiceService } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { TaxonomyServiceService } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';

/** host:port of each gRPC backend. Only identity is required until the other services exist. */
export interface BackendAddresses {
  identity: string;
  taxonomy: string | undefined;
  portfolio: string | undefined;
  chain: string | undefined;
}

export type IdentityClient = TypedClient<typeof IdentityServiceService>;
export type TaxonomyClient = TypedClient<typeof TaxonomyServiceService>;
export type PortfolioClient = TypedClient<typeof PortfolioServiceService>;
export type ChainClient = TypedClient<typeof ChainServiceService>;

/**
 * The gRPC clients operation handlers and resolvers call. When a backend's proto lands, add its typed
 * client here and in createClients; /readyz then checks it without further changes.
 */
export interface GatewayClients {
  identity: IdentityClient;
  /**
   * Absent when TAXONOMY_GRPC_ADDR is not set. Reach it through {@link taxonomyClient}, which turns the
   * absence into 503 UNAVAILABLE.
   */
  taxonomy?: TaxonomyClient | undefined;
  /**
   * Absent when PORTFOLIO_GRPC_ADDR is not set. Reach it through {@link portfolioClient}, which turns the
   * absence into 503 UNAVAILABLE.
   */
  portfolio?: PortfolioClient | undefined;
  /**
   * Absent when CHAIN_GRPC_ADDR is not set. Reach it through {@link chainClient}, which turns the absence
   * into 503 UNAVAILABLE.
   */
  chain?: ChainClient | undefined;
}

/** The taxonomy client, or 503 UNAVAILABLE when this gateway has no taxonomy backend configured. */
export function taxonomyClient(clients: GatewayClients): TaxonomyClient {
  if (!clients.taxonomy) {
    throw new UnavailableError('The taxonomy service is not available: this gateway has no taxonomy backend configured.');
  }
  return clients.taxonomy;
}

/** The portfolio client, or 503 UNAVAILABLE when this gateway has no portfolio backend configured. */
export function portfolioClient(clients: GatewayClients): PortfolioClient {
  if (!clients.portfolio) {
    throw new UnavailableError('The portfolio service is not available: this gateway has no portfolio backend configured.');
  }
  return clients.portfolio;
}

/** The chain client, or 503 UNAVAILABLE when this gateway has no chain backend configured. */
export function chainClient(clients: GatewayClients): ChainClient {
  if (!clients.chain) {
    throw new UnavailableError('The chain service is not available: this deployment runs without it (CHAIN_GRPC_ADDR is not set; npm start: CHAIN_ENABLED=false).');
  }
  return clients.chain;
}

/** A backend /readyz checks: its name and the channel to ask. */
export interface Backend {
  name: string;
  channel: Client;
}

export interface ClientSet {
  clients: GatewayClients;
  backends: Backend[];
  /** Closes the channels this set opened (injected clients are left to their owner). */
  close(): void;
}

/**
 * Opens clients for every configured backend, unless `injected` supplies them (an injected set without
 * an optional client gets one opened from its configured address). Configured backends that have no
 * typed client yet still get a bare channel so readiness covers them.
 */
export function createClients(
  addresses: BackendAddresses,
  options: { deadlineMs: number; injected?: GatewayClients | undefined },
): ClientSet {
  const owned: { close(): void }[] = [];
  const own = <C extends { close(): void }>(client: C): C => (owned.push(client), client);
  const defaults = { deadlineMs: options.deadlineMs };
  const injected = options.injected;
  const clients: GatewayClients = {
    identity: injected?.identity ?? own(createGrpcClient(IdentityServiceService, addresses.identity, defaults)),
    taxonomy:
      injected?.taxonomy ??
      (addresses.taxonomy === undefined ? undefined : own(createGrpcClient(TaxonomyServiceService, addresses.taxonomy, defaults))),
    portfolio:
      injected?.portfolio ??
      (addresses.portfolio === undefined ? undefined : own(createGrpcClient(PortfolioServiceService, addresses.portfolio, defaults))),
    chain:
      injected?.chain ??
      (addresses.chain === undefined ? undefined : own(createGrpcClient(ChainServiceService, addresses.chain, defaults))),
  };
  const backends: Backend[] = [];
  for (const [name, client] of Object.entries(clients)) {
    if (client !== undefined) backends.push({ name, channel: (client as { raw: Client }).raw });
  }
  for (const [name, address] of Object.entries(addresses)) {
    if (address === undefined || backends.some((b) => b.name === name)) continue;
    const channel = new Client(address, credentials.createInsecure());
    owned.push(channel);
    backends.push({ name, channel });
  }
  return { clients, backends, close: () => owned.forEach((c) => c.close()) };
}

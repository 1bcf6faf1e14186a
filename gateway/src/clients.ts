import { Client, credentials } from '@grpc/grpc-js';
import { createGrpcClient, type TypedClient } from '@green-impact/shared/grpc/client';
import { IdentityServiceService } from '@green-impact/proto/greenimpact/identity/v1/identity';
import type { BackendAddresses } from './config.js';

export type IdentityClient = TypedClient<typeof IdentityServiceService>;

/**
 * The gRPC clients operation handlers and resolvers call. When a backend's proto lands, add its typed
 * client here and in createClients; /readyz then checks it without further changes.
 */
export interface GatewayClients {
  identity: IdentityClient;
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
 * Opens clients for every configured backend, unless `injected` supplies them. Configured backends that
 * have no typed client yet still get a bare channel so readiness covers them.
 */
export function createClients(
  addresses: BackendAddresses,
  options: { deadlineMs: number; injected?: GatewayClients | undefined },
): ClientSet {
  const owned: { close(): void }[] = [];
  let clients = options.injected;
  if (!clients) {
    clients = { identity: createGrpcClient(IdentityServiceService, addresses.identity, { deadlineMs: options.deadlineMs }) };
    owned.push(clients.identity);
  }
  const backends: Backend[] = Object.entries(clients).map(([name, client]) => ({
    name,
    channel: (client as { raw: Client }).raw,
  }));
  for (const [name, address] of Object.entries(addresses)) {
    if (address === undefined || backends.some((b) => b.name === name)) continue;
    const channel = new Client(address, credentials.createInsecure());
    owned.push(channel);
    backends.push({ name, channel });
  }
  return { clients, backends, close: () => owned.forEach((c) => c.close()) };
}

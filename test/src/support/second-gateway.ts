import type { EventBus } from '@green-impact/shared/bus/event-bus';
import type { Logger } from '@green-impact/shared/logger';
import type { RunningSystem } from '@green-impact/embedded/system';
import { loadGatewayConfig } from '@green-impact/gateway/config';
import { createGateway, type Gateway } from '@green-impact/gateway';

/** Another gateway replica over the running system's services, following `bus`, with `env` on top. */
export async function startSecondGateway(system: RunningSystem, bus: EventBus, log: Logger, env: Record<string, string> = {}): Promise<{ gateway: Gateway; url: string }> {
  const config = loadGatewayConfig({
    HOST: '127.0.0.1',
    PORT: '0',
    IDENTITY_GRPC_ADDR: system.grpc.identity,
    TAXONOMY_GRPC_ADDR: system.grpc.taxonomy,
    PORTFOLIO_GRPC_ADDR: system.grpc.portfolio,
    CHAIN_GRPC_ADDR: system.grpc.chain,
    NODE_ENV: 'test',
    ...env,
  });
  const gateway = createGateway({ config, bus, log });
  return { gateway, url: `http://127.0.0.1:${(await gateway.listen()).port}` };
}

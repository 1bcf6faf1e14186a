import type { PortfolioServiceService } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import type { StreamHandlers, UnaryHandlers } from '@green-impact/shared/grpc/server';
import { assetHandlers } from './assets/handlers.js';
import { documentHandlers } from './documents/handlers.js';
import { impactHandlers, impactStreamHandlers } from './impacts/handlers.js';
import { investorHandlers } from './investors/handlers.js';
import { recomputeJobHandlers } from './jobs/handlers.js';
import { portfolioHandlers } from './portfolios/handlers.js';
import { positionHandlers } from './positions/handlers.js';
import { reportHandlers } from './reports/handlers.js';
import type { PortfolioStores } from './stores.js';

/** Every PortfolioService method, composed from the method groups. */
export function portfolioServiceHandlers(stores: PortfolioStores): UnaryHandlers<typeof PortfolioServiceService> {
  return {
    ...assetHandlers(stores),
    ...investorHandlers(stores),
    ...positionHandlers(stores),
    ...portfolioHandlers(stores),
    ...impactHandlers(stores),
    ...documentHandlers(stores),
    ...reportHandlers(stores),
    ...recomputeJobHandlers(stores),
  };
}

/** Every server-streaming PortfolioService method. */
export function portfolioStreamHandlers(stores: PortfolioStores): StreamHandlers<typeof PortfolioServiceService> {
  return { ...impactStreamHandlers(stores) };
}

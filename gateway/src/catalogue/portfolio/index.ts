import { assetOperations } from './assets.js';
import { impactOperations } from './impacts.js';
import { investorOperations } from './investors.js';
import { portfolioOperations } from './portfolios.js';
import { positionOperations } from './positions.js';
import { recomputeJobOperations } from './recompute-jobs.js';
import { reportOperations } from './reports.js';

/**
 * The portfolio domain (spec §4.8–§4.10, and the impact and recompute-job operations the gateway adds),
 * served by PortfolioService.
 */
export const portfolioDomainOperations = [
  ...assetOperations,
  ...investorOperations,
  ...positionOperations,
  ...portfolioOperations,
  ...impactOperations,
  ...recomputeJobOperations,
  ...reportOperations,
];

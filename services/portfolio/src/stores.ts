import type { DataSource } from 'typeorm';
import type { ListingLimits } from '@green-impact/shared/config';
import type { Logger } from '@green-impact/shared/logger';
import { AssetFrameworkDetailsReader } from './assets/asset-framework-details.js';
import { AssetStore } from './assets/asset-store.js';
import { PositionDocumentRenderer } from './documents/position-document-renderer.js';
import type { FrameworkSource } from './framework-source.js';
import { ImpactCalculator } from './impacts/impact-calculator.js';
import { ImpactService } from './impacts/impact-service.js';
import { ImpactStore } from './impacts/impact-store.js';
import { InvestorStore } from './investors/investor-store.js';
import { RecomputeJobStore } from './jobs/recompute-job-store.js';
import { RecomputeJobs } from './jobs/recompute-jobs.js';
import { RecomputeRunner, type RecomputeRunnerOptions } from './jobs/recompute-runner.js';
import { StaleImpactMarker } from './jobs/stale-impacts.js';
import { PortfolioStore } from './portfolios/portfolio-store.js';
import { PositionStore } from './positions/position-store.js';

/** Everything the handlers call, all on the service's data source and the taxonomy service. */
export interface PortfolioStores {
  assets: AssetStore;
  assetDetails: AssetFrameworkDetailsReader;
  investors: InvestorStore;
  positions: PositionStore;
  portfolios: PortfolioStore;
  impacts: ImpactService;
  documents: PositionDocumentRenderer;
  recomputeJobs: RecomputeJobs;
  /** Runs the recompute jobs of every replica (started by createPortfolioService). */
  recomputeRunner: RecomputeRunner;
  staleImpacts: StaleImpactMarker;
}

export function createStores(
  ds: DataSource,
  frameworks: FrameworkSource,
  log: Logger,
  recompute: RecomputeRunnerOptions = {},
  limits?: ListingLimits,
): PortfolioStores {
  const assets = new AssetStore(ds, frameworks, log, limits);
  const investors = new InvestorStore(ds, limits?.maxListItems);
  const calculator = new ImpactCalculator(frameworks);
  const impactStore = new ImpactStore();
  const positions = new PositionStore(ds, assets, investors, calculator, impactStore, limits?.maxListItems);
  const portfolios = new PortfolioStore(ds, investors, limits?.maxListItems);
  const impacts = new ImpactService(ds, positions, portfolios, investors, calculator, impactStore);
  const recomputeRunner = new RecomputeRunner(ds, new RecomputeJobStore(ds), impacts, log.child({ component: 'recompute-jobs' }), recompute);
  const recomputeJobs = new RecomputeJobs(ds, new RecomputeJobStore(ds), recomputeRunner, investors, portfolios);
  return {
    recomputeJobs,
    recomputeRunner,
    staleImpacts: new StaleImpactMarker(ds, calculator, recomputeJobs, log.child({ component: 'stale-impacts' })),
    assets,
    assetDetails: new AssetFrameworkDetailsReader(assets, frameworks),
    investors,
    positions,
    portfolios,
    impacts,
    documents: new PositionDocumentRenderer(ds, positions, impacts, impactStore, frameworks),
  };
}

import { PortfolioServiceService } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import type { Caller } from '@green-impact/shared/caller';
import { implement } from '@green-impact/shared/grpc/server';
import { serveFake } from './fake-server.js';
import { createLogger } from '@green-impact/shared/logger';
import { computeRecords } from './fake-portfolio-impacts.js';
import { fakeAssetHandlers } from './fake-portfolio-assets.js';
import { fakeHoldingHandlers } from './fake-portfolio-holdings.js';
import { fakePortfolioHandlers } from './fake-portfolio-portfolios.js';
import { holding } from './fake-portfolio-records.js';
import { fakePortfolioStore } from './fake-portfolio-store.js';
import { fakeImpactStreams } from './fake-portfolio-streams.js';

/**
 * A small in-memory PortfolioService served over real gRPC, for the gateway's own tests. It is not the
 * portfolio service: messages are modelled on services/portfolio/src/messages.ts and rules are only as
 * faithful as the gateway's tests need. Frameworks (for addAsset, asset details and impacts) come from the
 * fake TaxonomyService over gRPC, as the caller, as the real service does it. PII "encryption" keeps the
 * key next to the name: a read shows the name only with that key, masks it without one, and refuses a
 * key that opens none of the encrypted records read.
 */
export interface FakePortfolio {
  address: string;
  /** Every call received: method name, the request as decoded, and the caller the gateway sent. */
  calls: { method: string; request: unknown; caller: Caller | undefined }[];
  /** Number of calls of one method (e.g. `getPositionsByIds`) since the start. */
  count(method: string): number;
  /**
   * Adds `count` positions of an existing investor in an existing asset directly (no gRPC), with the
   * impacts of `year` and in the investor's portfolio `portfolioIdentifier` when given; answers their ids.
   * For tests that need many positions.
   */
  seedPositions(
    caller: Caller,
    seed: { investorIdentifier: string; assetIdentifier: string; count: number; amount: number; year?: number; portfolioIdentifier?: string },
  ): Promise<number[]>;
  /** Adds finished recompute jobs created at the given times (ISO); answers their ids. For the jobs connection. */
  seedRecomputeJobs(caller: Caller, createdAt: string[]): string[];
  stop(): Promise<void>;
}

export async function startFakePortfolio(options: { taxonomyAddress: string }): Promise<FakePortfolio> {
  const log = createLogger('fake-portfolio', { level: 'silent' });
  const calls: FakePortfolio['calls'] = [];
  const store = fakePortfolioStore(options.taxonomyAddress, calls);
  const implementation = implement(
    'greenimpact.portfolio.v1.PortfolioService',
    PortfolioServiceService,
    { ...fakeAssetHandlers(store), ...fakeHoldingHandlers(store), ...fakePortfolioHandlers(store) },
    log,
    fakeImpactStreams(store),
  );

  const started = await serveFake({ name: 'greenimpact.portfolio.v1.PortfolioService', definition: PortfolioServiceService, implementation, protoFile: 'portfolio' }, log);
  return {
    address: started.address,
    calls,
    count: (method) => calls.filter((c) => c.method === method).length,
    async seedPositions(caller, seed) {
      const investor = store.readInvestor(caller, seed.investorIdentifier);
      const asset = store.readAsset(caller, seed.assetIdentifier);
      const detail = seed.year === undefined ? undefined : await store.frameworkDetail(caller, asset.frameworkIdentifier, seed.year);
      const ids: number[] = [];
      for (let n = 0; n < seed.count; n++) {
        const p = store.newPosition(caller, investor, asset, { amount: seed.amount, currency: asset.currency });
        if (detail && seed.year !== undefined) p.impacts.set(seed.year, computeRecords(holding(p), detail, seed.year, store.impactId));
        store.db.positions.push(p);
        ids.push(p.id);
      }
      if (seed.portfolioIdentifier !== undefined) store.portfolioOf(caller, seed.investorIdentifier, seed.portfolioIdentifier).positionIds.push(...ids);
      return ids;
    },
    seedRecomputeJobs: (caller, seed) => store.recomputeJobs.seed(caller, seed),
    async stop() {
      store.taxonomy.close();
      await started.shutdown(1_000);
    },
  };
}

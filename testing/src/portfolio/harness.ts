import assert from 'node:assert/strict';
import { PortfolioServiceService } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { protoFiles, protoRoot } from '@green-impact/proto/paths';
import type { Caller } from '@green-impact/shared/caller';
import { createGrpcClient, type TypedClient } from '@green-impact/shared/grpc/client';
import { startGrpcServer } from '@green-impact/shared/grpc/server';
import { createLogger } from '@green-impact/shared/logger';
import type { TestDatabase } from '../shared/databases.js';
import { createTaxonomyService } from '@green-impact/taxonomy/service';
import { createTaxonomyClient, type TaxonomyClient } from '@green-impact/shared/clients/taxonomy-client';
import { InProcessBus } from '@green-impact/shared/bus/in-process-bus';
import type { ListingLimits } from '@green-impact/shared/config';
import type { RecomputeRunnerOptions } from '@green-impact/portfolio/jobs/recompute-runner';
import { createPortfolioService, type PortfolioService } from '@green-impact/portfolio/service';

export type PortfolioClient = TypedClient<typeof PortfolioServiceService>;

/**
 * The real taxonomy service and the portfolio service on one fresh database, each served over real gRPC
 * on a loopback port (as in the embedded default), with clients for both.
 */
export interface PortfolioHarness {
  service: PortfolioService;
  portfolio: PortfolioClient;
  taxonomy: TaxonomyClient;
  /** Issuer account with the operator role: loads the reference data and owns the frameworks and assets. */
  issuer: Caller;
  /** Another account (role user): an investor manager that sees only the issuer's public items. */
  investor: Caller;
  /** A third account, for privacy checks. */
  stranger: Caller;
  stop(): Promise<void>;
}

export interface HarnessOptions {
  /** An in-process bus between the two services: taxonomy writes are announced and impacts marked stale. */
  bus?: boolean;
  recompute?: RecomputeRunnerOptions;
  /** MAX_LIST_ITEMS and MAX_PUBLIC_ITEMS_PER_ACCOUNT of the portfolio service. */
  limits?: ListingLimits;
}

export async function startPortfolioHarness(db: TestDatabase, opts: HarnessOptions = {}): Promise<PortfolioHarness> {
  const started = await db.start();
  const log = createLogger('portfolio-test');
  const bus = opts.bus ? new InProcessBus() : undefined;
  const taxonomyService = await createTaxonomyService({ databaseUrl: started.url, log, poolSize: 4, bus });
  const taxonomyServer = await startGrpcServer({
    services: [taxonomyService.registration],
    host: '127.0.0.1',
    port: 0,
    protoRoot,
    protoFiles: [protoFiles.taxonomy],
    log,
  });
  const service = await createPortfolioService({
    databaseUrl: started.url,
    taxonomyAddress: taxonomyServer.address,
    log,
    poolSize: 4,
    bus,
    ...(opts.recompute ? { recompute: opts.recompute } : {}),
    ...(opts.limits ? { limits: opts.limits } : {}),
  });
  const server = await startGrpcServer({
    services: [service.registration],
    host: '127.0.0.1',
    port: 0,
    protoRoot,
    protoFiles: [protoFiles.portfolio],
    log,
  });
  const portfolio = createGrpcClient(PortfolioServiceService, server.address);
  const taxonomy = createTaxonomyClient(taxonomyServer.address);
  return {
    service,
    portfolio,
    taxonomy,
    issuer: { accountId: 'a1111111-1111-4111-8111-111111111111', role: 'operator' },
    investor: { accountId: 'b2222222-2222-4222-8222-222222222222', role: 'user' },
    stranger: { accountId: 'c3333333-3333-4333-8333-333333333333', role: 'user' },
    async stop() {
      portfolio.close();
      taxonomy.close();
      await server.shutdown(1000);
      await service.close();
      await taxonomyServer.shutdown(1000);
      await taxonomyService.close();
      await bus?.close();
      await started.stop();
    },
  };
}

export { rejectsWith } from '../shared/assertions.js';

/** Equal within floating-point noise (relative 1e-12): amounts pass through FX rates. */
export function near(actual: number | undefined, expected: number, what = 'value'): void {
  assert.ok(
    actual !== undefined && Math.abs(actual - expected) <= Math.max(1e-12, Math.abs(expected) * 1e-12),
    `${what}: ${actual} ≉ ${expected}`,
  );
}

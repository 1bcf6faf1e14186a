import { protoFiles, protoRoot } from '@green-impact/proto/paths';
import type { Caller } from '@green-impact/shared/caller';
import { startGrpcServer } from '@green-impact/shared/grpc/server';
import { createLogger } from '@green-impact/shared/logger';
import type { TestDatabase } from '../shared/databases.js';
import { createTaxonomyService, type TaxonomyService } from '@green-impact/taxonomy/service';
import { createTaxonomyClient, type TaxonomyClient } from '@green-impact/shared/clients/taxonomy-client';

/** A taxonomy service on a fresh database, served over real gRPC on a loopback port, and a client. */
export interface TaxonomyHarness {
  service: TaxonomyService;
  client: TaxonomyClient;
  address: string;
  databaseUrl: string;
  operator: Caller;
  user: Caller;
  stop(): Promise<void>;
}

export async function startTaxonomyHarness(db: TestDatabase): Promise<TaxonomyHarness> {
  const started = await db.start();
  const log = createLogger('taxonomy-test');
  const service = await createTaxonomyService({ databaseUrl: started.url, log, poolSize: 4 });
  const server = await startGrpcServer({
    services: [service.registration],
    host: '127.0.0.1',
    port: 0,
    protoRoot,
    protoFiles: [protoFiles.taxonomy],
    log,
  });
  const client = createTaxonomyClient(server.address);
  return {
    service,
    client,
    address: server.address,
    databaseUrl: started.url,
    operator: { accountId: '11111111-1111-4111-8111-111111111111', role: 'operator' },
    user: { accountId: '22222222-2222-4222-8222-222222222222', role: 'user' },
    async stop() {
      client.close();
      await server.shutdown(1000);
      await service.close();
      await started.stop();
    },
  };
}

export { rejectsWith } from '../shared/assertions.js';

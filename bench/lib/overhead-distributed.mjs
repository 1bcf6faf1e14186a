// (a) in the production shape: the gateway and each service in a process of its own (scripts/start-distributed.mjs,
// as on Kubernetes), on PostgreSQL. The gateway's hop then costs its own process's CPU rather than a share of
// one event loop, which is what a platform team running separate pods sees.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { httpClient } from './http.mjs';
import { measureOverhead, overheadReads } from './overhead.mjs';
import { seedDataset } from './seed.mjs';
import { importDist, scratchPostgres } from './system.mjs';

export async function overheadDistributed({ operatorKey, sizes, year, concurrency, seconds, progress }) {
  const { startTopology, topologyEnv, topologyPorts } = await importDist('test/dist/support/distributed.js');
  const { createGrpcClient } = await importDist('services/shared/dist/grpc/client.js');
  const { callerKeysForChildren } = await importDist('testing/dist/shared/caller-keys.js');
  const taxonomyProto = await importDist('proto/dist/gen/greenimpact/taxonomy/v1/taxonomy.js');
  const portfolioProto = await importDist('proto/dist/gen/greenimpact/portfolio/v1/portfolio.js');
  const scratch = await scratchPostgres();
  if (scratch.unreachable) return { skipped: scratch.unreachable };
  const contentDir = mkdtempSync(join(tmpdir(), 'bench-distributed-'));
  progress('starting the gateway and the services, a process each…');
  const topology = await startTopology(
    topologyEnv(await topologyPorts(), {
      DATABASE_URL: scratch.url,
      CONTENT_DIR: contentDir,
      BOOTSTRAP_API_KEY: operatorKey,
      // The gateway's key is this process's too: the bench's own gRPC calls go straight to the services.
      CALLER_SIGNING_KEY: callerKeysForChildren().CALLER_SIGNING_KEY,
      LOG_LEVEL: 'error',
      NODE_ENV: 'production',
      DOCUMENT_LINK_SECRET: randomBytes(32).toString('base64'),
      // One key from one address: the bench measures what the system does, not what the limits let through.
      RATE_LIMIT_PER_KEY: '0',
      RATE_LIMIT_PER_ADDRESS: '0',
    }),
  );
  const client = httpClient(topology.url, { connections: concurrency * 2 });
  const grpc = {
    taxonomy: createGrpcClient(taxonomyProto.TaxonomyServiceService, `127.0.0.1:${topology.ports.taxonomy}`),
    portfolio: createGrpcClient(portfolioProto.PortfolioServiceService, `127.0.0.1:${topology.ports.portfolio}`),
  };
  try {
    progress(`seeding ${JSON.stringify(sizes)}…`);
    const data = await seedDataset(client, operatorKey, { sizes, year });
    const metricsUrls = Object.values(topology.ports.metrics).filter((p) => p > 0).map((p) => `http://127.0.0.1:${p}/metrics`);
    return { rows: await measureOverhead(overheadReads({ client, grpc, data, year }), { concurrency, seconds, metricsUrls, progress }) };
  } finally {
    client.close();
    for (const c of Object.values(grpc)) c.close();
    await topology.stop();
    await scratch.stop();
    rmSync(contentDir, { recursive: true, force: true });
  }
}

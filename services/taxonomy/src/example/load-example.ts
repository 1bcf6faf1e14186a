import { protoFiles, protoRoot } from '@green-impact/proto/paths';
import type { Caller } from '@green-impact/shared/caller';
import { ConfigError, envReader, processEnvironment } from '@green-impact/shared/config';
import { loadCallerTrust } from '@green-impact/shared/callers/caller-trust-config';
import { useCallerTrust } from '@green-impact/shared/callers/caller-trust';
import { GATEWAY_ISSUER } from '@green-impact/shared/callers/caller-verifier';
import { startEmbeddedPostgres } from '@green-impact/shared/db/embedded-postgres';
import { startGrpcServer } from '@green-impact/shared/grpc/server';
import { createLogger } from '@green-impact/shared/logger';
import { createTaxonomyService } from '../service.js';
import { createTaxonomyClient } from '@green-impact/shared/clients/taxonomy-client';
import { loadExample } from './example-loader.js';
import { ICMA_TAXONOMY } from './icma-taxonomy.js';

/**
 * Loads the ICMA example taxonomy through the TaxonomyService gRPC API, idempotently. Where to:
 *   TAXONOMY_GRPC_ADDR=host:port  a running taxonomy service (e.g. 127.0.0.1:50052 in the distributed
 *                                 topology), which accepts only signed callers: CALLER_SIGNING_KEY must
 *                                 then be the gateway's key (the tool acts as the gateway would);
 *   DATABASE_URL=postgres://…     a database: the service is started in this process on a loopback port;
 *   PGLITE_DATA_DIR=./data/pglite the embedded default's data, while the system is stopped.
 * EXAMPLE_ACCOUNT_ID names the operator account the calls are made as (default "example-loader").
 */
const log = createLogger('load-example');
const stack: (() => Promise<void>)[] = [];
try {
  const env = envReader(processEnvironment());
  const caller: Caller = { accountId: env.string('EXAMPLE_ACCOUNT_ID', 'example-loader'), role: 'operator' };
  let address = env.optionalString('TAXONOMY_GRPC_ADDR');
  if (address !== undefined) useCallerTrust(loadCallerTrust(env, { signsAs: GATEWAY_ISSUER, verifies: false }));
  else {
    let databaseUrl = env.optionalString('DATABASE_URL');
    const pgliteDir = env.optionalString('PGLITE_DATA_DIR');
    if (databaseUrl === undefined && pgliteDir !== undefined) {
      const pglite = await startEmbeddedPostgres({ dataDir: pgliteDir });
      stack.push(() => pglite.stop());
      databaseUrl = pglite.url;
    }
    if (databaseUrl === undefined) throw new ConfigError('Set TAXONOMY_GRPC_ADDR, DATABASE_URL or PGLITE_DATA_DIR.');
    const service = await createTaxonomyService({ databaseUrl, poolSize: 2, log });
    stack.push(() => service.close());
    const server = await startGrpcServer({
      services: [service.registration],
      host: '127.0.0.1',
      port: 0,
      protoRoot,
      protoFiles: [protoFiles.taxonomy],
      log,
    });
    stack.push(() => server.shutdown(1000));
    address = server.address;
  }
  const client = createTaxonomyClient(address);
  stack.push(async () => client.close());
  const summary = await loadExample(client, caller, ICMA_TAXONOMY);
  process.stdout.write(
    `${summary.changed ? 'Loaded' : 'Already loaded (nothing changed)'}: example taxonomy ${summary.reportingYear}: ` +
      `${summary.categories} categories, ${summary.subCategories} sub categories, ${summary.superIndicators} super indicators, ` +
      `${summary.indicators} indicators, ${summary.units} units, ${summary.taxonomyRows} taxonomy rows, ${summary.fxRates} FX rates.\n`,
  );
} catch (err) {
  if (err instanceof ConfigError) log.fatal(`configuration error: ${err.message}`);
  else log.error({ err }, 'loading the example failed');
  process.exitCode = err instanceof ConfigError ? 78 : 1;
} finally {
  while (stack.length) await stack.pop()!().catch(() => undefined);
}

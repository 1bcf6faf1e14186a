import { join } from 'node:path';
import { ConfigError, processEnvironment } from '@green-impact/shared/config';
import { createLogger } from '@green-impact/shared/logger';
import { initTracing } from '@green-impact/shared/tracing/tracing';
import { loadEmbeddedConfig } from './config.js';
import { firstStartKey } from './first-start-key.js';
import { documentLinkSecret } from './link-secret.js';
import { pgliteDir, startSystem } from './system.js';
import { oldNodeNotice, repositoryEngines } from './node-version.js';

const oldNode = oldNodeNotice(process.versions.node, repositoryEngines());
if (oldNode) process.stderr.write(`${oldNode}\n`);

let config;
try {
  const environment = processEnvironment();
  config = loadEmbeddedConfig(environment);
  initTracing('green-impact', { env: environment }); // only when OTEL_EXPORTER_OTLP_ENDPOINT / OTEL_TRACES_EXPORTER say so
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  // Always shown, whatever LOG_LEVEL says: nothing started, and the operator must see why.
  process.stderr.write(`configuration error: ${err.message}\n`);
  process.exit(78);
}
const log = createLogger('green-impact', { level: config.logLevel });

const key = firstStartKey(config);
const links = documentLinkSecret(config.dataDir, config.documentLinks.secret);
const system = await startSystem({
  port: config.port,
  host: config.host,
  nodeEnv: config.nodeEnv,
  pgliteDataDir: config.databaseUrl ? undefined : pgliteDir(config.dataDir),
  databaseUrl: config.databaseUrl,
  bootstrapApiKey: key.bootstrapApiKey,
  publicBaseUrl: config.publicBaseUrl,
  grpcBasePort: config.grpcBasePort,
  grpcReflection: config.grpcReflection,
  kafkaBrokers: config.kafkaBrokers,
  contentDir: join(config.dataDir, 'content'),
  chainNetworks: config.chainNetworks,
  chain: config.chainNetworks !== undefined,
  nfts: config.nfts,
  chainRelayQuota: config.chainRelayQuota,
  gatewayLimits: config.gatewayLimits,
  gatewayGraphql: config.gatewayGraphql,
  gatewayAuthCache: config.gatewayAuthCache,
  gatewayOidc: config.gatewayOidc,
  gatewayReferenceCache: config.gatewayReferenceCache,
  gatewayCorsOrigins: config.gatewayCorsOrigins,
  listingLimits: config.listingLimits,
  maxApiKeysPerAccount: config.maxApiKeysPerAccount,
  pdfRenderer: config.pdfRenderer,
  gatewayDocumentLinks: {
    DOCUMENT_LINK_SECRET: links.secret,
    DOCUMENT_LINK_TTL_SECONDS: String(config.documentLinks.ttlSeconds),
    ...(config.documentLinks.previousSecret ? { DOCUMENT_LINK_PREVIOUS_SECRET: config.documentLinks.previousSecret } : {}),
  },
  log,
});

const lines = [
  '',
  'Green-asset impact service is up (embedded mode).',
  `  /v1/call   POST ${system.gatewayUrl}/v1/call`,
  `  GraphQL    ${system.gatewayUrl}/graphql${config.gatewayGraphql.explorer ? '  (open it in a browser for the explorer; subscriptions over WebSocket)' : ''}`,
  `  health     ${system.gatewayUrl}/healthz  ${system.gatewayUrl}/readyz  metrics: ${system.gatewayUrl}/metrics`,
  `  gRPC       ${Object.entries(system.grpc).filter(([, v]) => v).map(([k, v]) => `${k} ${v}`).join(', ')}`,
  ...(system.grpc.chain ? [] : ['  chain      off (CHAIN_ENABLED=false): reports render, blockchain operations answer 503']),
  `  events     ${config.kafkaBrokers.length ? `Kafka ${config.kafkaBrokers.join(',')}` : 'in-process bus'}`,
  `  database   ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${pgliteDir(config.dataDir)}`}`,
  `  links      document links signed with the secret in ${links.source}`,
  '',
  ...key.howToGetAKey(system.gatewayUrl),
  '',
  // Its gRPC ports take only callers signed with this process's own key, so the loader brings a taxonomy service of its own.
  'Example taxonomy (ICMA core indicators, 2024), loaded once through the taxonomy API:',
  config.databaseUrl ? '  DATABASE_URL=<the same> npm run example:load' : `  with the system stopped: PGLITE_DATA_DIR=${pgliteDir(config.dataDir)} npm run example:load`,
  '',
];
process.stdout.write(lines.join('\n') + '\n');

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    void system.stop().then(() => {
      log.info('stopped');
      // Everything is drained and closed; a handle some library left open must not keep us alive.
      setTimeout(() => {
        log.warn('handles still open after shutdown; exiting');
        process.exit(0);
      }, 3_000).unref();
    });
  });
}

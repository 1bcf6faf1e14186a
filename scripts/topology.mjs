// The processes of the multi-process topology (each service and the gateway its own process, as on
// Kubernetes): entry file and environment of each, from the parent's environment. Used by
// start-distributed.mjs and by the tests that start, kill and restart single processes.
const host = '127.0.0.1';

/** [{ name, entry, env }] in start order; env holds only what differs from the parent's. */
export function topologyProcesses(parentEnv = process.env) {
  const ports = {
    identity: Number(parentEnv.IDENTITY_GRPC_PORT ?? 50051),
    taxonomy: Number(parentEnv.TAXONOMY_GRPC_PORT ?? 50052),
    portfolio: Number(parentEnv.PORTFOLIO_GRPC_PORT ?? 50053),
    chain: Number(parentEnv.CHAIN_GRPC_PORT ?? 50054),
  };
  const processes = [
    { name: 'identity', entry: 'services/identity/dist/index.js', env: { GRPC_PORT: String(ports.identity), GRPC_HOST: host } },
    { name: 'taxonomy', entry: 'services/taxonomy/dist/index.js', env: { GRPC_PORT: String(ports.taxonomy), GRPC_HOST: host } },
    {
      name: 'portfolio',
      entry: 'services/portfolio/dist/index.js',
      env: { GRPC_PORT: String(ports.portfolio), GRPC_HOST: host, TAXONOMY_GRPC_ADDR: `${host}:${ports.taxonomy}` },
    },
    {
      name: 'chain',
      entry: 'services/chain/dist/index.js',
      env: { GRPC_PORT: String(ports.chain), GRPC_HOST: host, CONTENT_DIR: parentEnv.CONTENT_DIR ?? 'data/content' },
    },
    {
      name: 'gateway',
      entry: 'gateway/dist/index.js',
      env: {
        PORT: parentEnv.PORT ?? '8080',
        IDENTITY_GRPC_ADDR: `${host}:${ports.identity}`,
        TAXONOMY_GRPC_ADDR: `${host}:${ports.taxonomy}`,
        PORTFOLIO_GRPC_ADDR: `${host}:${ports.portfolio}`,
        CHAIN_GRPC_ADDR: `${host}:${ports.chain}`,
      },
    },
  ];
  // One METRICS_PORT for every child would collide: each service gets its own (or its default).
  for (const p of processes) {
    const own = parentEnv[`${p.name.toUpperCase()}_METRICS_PORT`];
    if (own !== undefined && p.name !== 'gateway') p.env.METRICS_PORT = own;
  }
  return processes;
}

/** The parent's environment as every child inherits it: without the one METRICS_PORT they cannot share. */
export function inheritedEnv(parentEnv = process.env) {
  const { METRICS_PORT: _shared, ...inherited } = parentEnv;
  return inherited;
}

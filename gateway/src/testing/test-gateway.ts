import { createLogger } from '@green-impact/shared/logger';
import { loadGatewayConfig } from '../config.js';
import { createGateway, type Gateway } from '../gateway.js';
import { startFakeChain, type FakeChain } from './fake-chain.js';
import { startFakeIdentity, type FakeIdentity } from './fake-identity.js';
import { startFakePortfolio, type FakePortfolio } from './fake-portfolio.js';
import { startFakeTaxonomy, type FakeTaxonomy } from './fake-taxonomy.js';

export interface TestGateway {
  baseUrl: string;
  gateway: Gateway;
  identity: FakeIdentity;
  /** Present when started with `{ taxonomy: true }` or `{ portfolio: true }`. */
  taxonomy: FakeTaxonomy | undefined;
  /** Present when started with `{ portfolio: true }`. */
  portfolio: FakePortfolio | undefined;
  /** Present when started with `{ chain: true }`. */
  chain: FakeChain | undefined;
  stop(): Promise<void>;
}

/**
 * A gateway on a free loopback port in front of the fake identity service (with `taxonomy`, the fake
 * taxonomy service as TAXONOMY_GRPC_ADDR; with `portfolio`, the fake portfolio service as
 * PORTFOLIO_GRPC_ADDR, over the fake taxonomy service; with `chain`, the fake chain service as
 * CHAIN_GRPC_ADDR), all over real sockets.
 */
export async function startTestGateway(
  env: Record<string, string> = {},
  options: { taxonomy?: boolean; portfolio?: boolean; chain?: boolean } = {},
): Promise<TestGateway> {
  const identity = await startFakeIdentity();
  const taxonomy = options.taxonomy || options.portfolio ? await startFakeTaxonomy() : undefined;
  const portfolio = options.portfolio && taxonomy ? await startFakePortfolio({ taxonomyAddress: taxonomy.address }) : undefined;
  const chain = options.chain ? await startFakeChain() : undefined;
  const config = loadGatewayConfig({
    IDENTITY_GRPC_ADDR: identity.address,
    ...(taxonomy ? { TAXONOMY_GRPC_ADDR: taxonomy.address } : {}),
    ...(portfolio ? { PORTFOLIO_GRPC_ADDR: portfolio.address } : {}),
    ...(chain ? { CHAIN_GRPC_ADDR: chain.address } : {}),
    HOST: '127.0.0.1',
    PORT: '0',
    NODE_ENV: 'test',
    BODY_LIMIT_BYTES: '16384',
    SHUTDOWN_GRACE_MS: '1000',
    // Off here: these tests count the reads each request makes (memo, batching) and seed the fakes behind
    // the gateway's back. The cache has suites of its own (reference-cache.test.ts, gateway-caches-e2e).
    REFERENCE_CACHE_TTL_MS: '0',
    ...env,
  });
  const gateway = createGateway({ config, log: createLogger('gateway-test', { level: 'silent' }) });
  const { port } = await gateway.listen();
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    gateway,
    identity,
    taxonomy,
    portfolio,
    chain,
    async stop() {
      await gateway.close();
      await identity.stop();
      await portfolio?.stop();
      await taxonomy?.stop();
      await chain?.stop();
    },
  };
}

/** POSTs a raw body to /v1/call and returns status, parsed JSON (or text) and headers. */
export async function postCall(
  baseUrl: string,
  body: string | object,
  headers: Record<string, string> = { 'content-type': 'application/json', 'x-api-key': 'user-key' },
) {
  const res = await fetch(`${baseUrl}/v1/call`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json: json as Record<string, unknown> & unknown[], text, headers: res.headers };
}

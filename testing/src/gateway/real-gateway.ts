import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { protoFiles, protoRoot } from '@green-impact/proto/paths';
import { AccountRole, IdentityServiceService } from '@green-impact/proto/greenimpact/identity/v1/identity';
import { TaxonomyServiceService } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import { PortfolioServiceService } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { ChainServiceService, JobStatus, type Job } from '@green-impact/proto/greenimpact/chain/v1/chain';
import type { Caller } from '@green-impact/shared/caller';
import { createEventBus } from '@green-impact/shared/bus/create-bus';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '@green-impact/shared/db/embedded-postgres';
import { createGrpcClient, type TypedClient } from '@green-impact/shared/grpc/client';
import { startGrpcServer, type GrpcServiceRegistration } from '@green-impact/shared/grpc/server';
import { createLogger, type Logger } from '@green-impact/shared/logger';
import { createIdentityService } from '@green-impact/identity/service';
import { loadGatewayConfig } from '@green-impact/gateway/config';
import { createGateway, type Gateway } from '@green-impact/gateway/gateway';
import type { OperationTable } from '@green-impact/gateway/v1/operation-table';
import type { LoadSummary } from '@green-impact/taxonomy/example/example-loader';
import type { NftOptions } from '@green-impact/chain/nfts/nft-options';
import type { NetworkSpec } from '@green-impact/chain/networks/network-spec';
import type { TestDatabase } from '../shared/databases.js';
import { tapRegistration, type ServiceTap } from './service-tap.js';

/**
 * A real service behind the test gateway: its loopback gRPC address, what its gRPC face received (and
 * the faults a test puts in front of it, service-tap.ts), and a client signed as the gateway signs, to
 * seed data through the service's own API (`{ caller }` says for whom).
 */
export type RealService<D> = ServiceTap & {
  address: string;
  client: TypedClient<D>;
  /** Stops serving at once, as a service going away: open calls and streams end UNAVAILABLE / cancelled. */
  stopServing(): Promise<void>;
};

/** The chain service's levers the gateway's tests pull, as an operator or a fault would. */
export interface ChainLevers {
  /** Its content store's folder: a file changed under `blocks/<cid>` is a document tampered with. */
  contentDir: string;
  /** Where it writes the mails it sends (NFT claim links), one .eml file each. */
  mailOutboxDir: string;
  /** Stops its job worker (replicas without one, CHAIN_WORKER=false): jobs queued meanwhile stay QUEUED. */
  stopWorker(): Promise<void>;
  /** Starts its job worker again: the queued jobs run. */
  startWorker(): Promise<void>;
  /**
   * Empties the balance of the service's signer on embedded `network` (a Hardhat method of its node): the
   * node then refuses its transactions, as a signer that cannot pay. Answers the function that refills it.
   */
  drainSigner(network: string): Promise<() => Promise<void>>;
  /**
   * Counts from now on the JSON-RPC requests the service sends to the node of embedded `network` (on its
   * provider's way to the node, `_send`): the methods asked, in order.
   */
  watchNodeRequests(network: string): string[];
}

/** An account made through identity's CreateAccount: its first API key and the caller it authenticates as. */
export interface TestAccount {
  apiKey: string;
  keyId: string;
  caller: Caller;
}

export interface TestGateway {
  baseUrl: string;
  gateway: Gateway;
  /** The bootstrap operator (BOOTSTRAP_API_KEY): its key and caller. */
  operatorKey: string;
  operator: Caller;
  /** A USER account ("Acme") made at start: its key, the key's id and its caller. */
  userKey: string;
  userKeyId: string;
  user: Caller;
  identity: RealService<typeof IdentityServiceService>;
  /** Present when started with `{ taxonomy: true }` or `{ portfolio: true }`. */
  taxonomy: RealService<typeof TaxonomyServiceService> | undefined;
  /** Present when started with `{ portfolio: true }`. */
  portfolio: RealService<typeof PortfolioServiceService> | undefined;
  /** Present when started with `{ chain: true }`. */
  chain: RealService<typeof ChainServiceService> | undefined;
  /** Present when started with `{ chain: true }`. */
  chainLevers: ChainLevers | undefined;
  /**
   * Another gateway over the same services and bus, on a port of its own, configured as this one plus
   * `env`: for tests of the gateway's own state (rate limits, caches) each with a fresh gateway, without
   * starting the services again. A setting given as undefined is left out (`CHAIN_GRPC_ADDR: undefined`: a
   * gateway with no chain backend). Stopped with this one if not before.
   */
  another(env: Record<string, string | undefined>): Promise<AnotherGateway>;
  /** Creates an account (USER unless said) with the operator's authority, as an operator would. */
  createAccount(name: string, role?: 'user' | 'operator'): Promise<TestAccount>;
  /** A key identity issued (to a fresh USER account) and then revoked. */
  revokedKey(): Promise<string>;
  /**
   * Waits until the chain service settles job `jobId` on its embedded network (completed or failed), read
   * as `caller` (the user unless given), and answers it. Needs `{ chain: true }`.
   */
  settledJob(jobId: string, caller?: Caller): Promise<Job>;
  /**
   * Loads the ICMA example taxonomy (reporting year 2024, English with Swedish translations, FX rates)
   * through taxonomy's own API as the operator, as `npm run load-example` does. Needs `{ taxonomy: true }`.
   */
  loadExampleTaxonomy(): Promise<LoadSummary>;
  stop(): Promise<void>;
}

/** A gateway started by TestGateway.another. */
export interface AnotherGateway {
  baseUrl: string;
  gateway: Gateway;
  stop(): Promise<void>;
}

export interface TestGatewayOptions {
  /** The database every service's schema lives in; one in-memory PGlite unless given (testDatabases). */
  database?: TestDatabase;
  taxonomy?: boolean;
  portfolio?: boolean;
  chain?: boolean;
  /** The gateway's logger; silent unless given (the services' stay silent). */
  log?: Logger;
  /** The gateway's operation table; the full one unless given. */
  table?: OperationTable;
  /** The chain service's networks; loadNetworkSpecs({}) (the embedded sepolia, amoy and mumbai) unless given. */
  chainNetworks?: NetworkSpec[];
  /** How the chain service fetches NFT images (e.g. `{ allowPrivateHosts: true }` for an image served on loopback). */
  nftImage?: NftOptions['image'];
}

/** The headers of a JSON request with `apiKey` (none: no X-Api-Key). */
export function jsonHeaders(apiKey?: string, more: Record<string, string> = {}): Record<string, string> {
  return { 'content-type': 'application/json', ...(apiKey === undefined ? {} : { 'x-api-key': apiKey }), ...more };
}

/**
 * The gateway on a free loopback port in front of the real services, each served on its own loopback gRPC
 * port as the embedded system serves them (embedded/src/system.ts): identity always; taxonomy with
 * `taxonomy` or `portfolio`; portfolio (over that taxonomy) with `portfolio`; chain, on the embedded EVM
 * networks, with `chain`. One in-memory PGlite holds every service's schema; one in-process bus carries
 * their events to each other and to the gateway; callers are signed with this process's key pair.
 * `env` overrides the gateway's configuration (loadGatewayConfig), a backend address included.
 */
export async function startTestGateway(env: Record<string, string> = {}, options: TestGatewayOptions = {}): Promise<TestGateway> {
  const stack: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    while (stack.length) await stack.pop()!().catch(() => undefined);
  };
  try {
    const log = createLogger('gateway-test', { level: 'silent' });
    const reserved = await bindLoopbackPort();
    stack.push(() => reserved.release());
    const baseUrl = `http://127.0.0.1:${reserved.port}`;
    const db = options.database ? await options.database.start() : await freshEmbeddedPostgres();
    stack.push(() => db.stop());
    const bus = createEventBus({ clientId: 'gateway-test', logger: log });
    stack.push(() => bus.close());
    const common = { databaseUrl: db.url, bus, log, poolSize: 4 };

    const serve = async <D>(name: keyof typeof protoFiles, registration: GrpcServiceRegistration, definition: D): Promise<RealService<D>> => {
      const tapped = tapRegistration(registration);
      const server = await startGrpcServer({ services: [tapped.registration], host: '127.0.0.1', port: 0, protoRoot, protoFiles: [protoFiles[name]], log });
      let stopped: Promise<void> | undefined;
      const stopServing = () => (stopped ??= server.shutdown(0));
      stack.push(() => (stopped ??= server.shutdown(1_000)));
      const client = createGrpcClient(definition as never, server.address) as TypedClient<D>;
      stack.push(async () => client.close());
      return Object.assign(tapped.tap, { address: server.address, client, stopServing });
    };

    const operatorKey = randomBytes(32).toString('base64url');
    const identityService = await createIdentityService({ ...common, bootstrapApiKey: operatorKey });
    stack.push(() => identityService.close());
    const identity = await serve('identity', identityService.registration, IdentityServiceService);

    let taxonomy: RealService<typeof TaxonomyServiceService> | undefined;
    if (options.taxonomy || options.portfolio) {
      // Loaded only when asked for, as the others below: a test of identity alone does not pay for them.
      const { createTaxonomyService } = await import('@green-impact/taxonomy/service');
      const service = await createTaxonomyService(common);
      stack.push(() => service.close());
      taxonomy = await serve('taxonomy', service.registration, TaxonomyServiceService);
    }
    let portfolio: RealService<typeof PortfolioServiceService> | undefined;
    if (options.portfolio && taxonomy) {
      const { createPortfolioService } = await import('@green-impact/portfolio/service');
      const service = await createPortfolioService({ ...common, taxonomyAddress: taxonomy.address });
      stack.push(() => service.close());
      portfolio = await serve('portfolio', service.registration, PortfolioServiceService);
    }
    let chain: RealService<typeof ChainServiceService> | undefined;
    let chainLevers: ChainLevers | undefined;
    if (options.chain) {
      const files = await mkdtemp(join(tmpdir(), 'gi-gateway-test-'));
      stack.push(() => rm(files, { recursive: true, force: true }));
      const [contentDir, mailOutboxDir] = [join(files, 'content'), join(files, 'mail-outbox')];
      await Promise.all([mkdir(contentDir), mkdir(mailOutboxDir)]);
      const [{ createChainService }, { loadNetworkSpecs }] = await Promise.all([import('@green-impact/chain/service'), import('@green-impact/chain/config')]);
      const service = await createChainService({
        ...common,
        networks: options.chainNetworks ?? loadNetworkSpecs({}),
        contentDir,
        publicBaseUrl: baseUrl,
        nfts: { mailOutboxDir, ...(options.nftImage ? { image: options.nftImage } : {}) },
      });
      stack.push(() => service.close());
      chain = await serve('chain', service.registration, ChainServiceService);
      chainLevers = {
        contentDir,
        mailOutboxDir,
        stopWorker: () => service.stopWorker(),
        startWorker: async () => void (await service.startWorker()),
        async drainSigner(name) {
          const { provider, signerAddress } = service.networks.resolve(name).network;
          const balance = await provider.getBalance(signerAddress);
          await provider.send('hardhat_setBalance', [signerAddress, '0x0']);
          return async () => void (await provider.send('hardhat_setBalance', [signerAddress, `0x${balance.toString(16)}`]));
        },
        watchNodeRequests(name) {
          const provider = service.networks.resolve(name).network.provider as unknown as { _send(payload: { method: string } | { method: string }[]): Promise<unknown> };
          const methods: string[] = [];
          const send = provider._send.bind(provider);
          provider._send = (payload) => {
            for (const p of Array.isArray(payload) ? payload : [payload]) methods.push(p.method);
            return send(payload);
          };
          return methods;
        },
      };
    }

    const configFor = (more: Record<string, string | undefined>) => {
      const settings: Record<string, string | undefined> = {
        IDENTITY_GRPC_ADDR: identity.address,
        ...(taxonomy ? { TAXONOMY_GRPC_ADDR: taxonomy.address } : {}),
        ...(portfolio ? { PORTFOLIO_GRPC_ADDR: portfolio.address } : {}),
        ...(chain ? { CHAIN_GRPC_ADDR: chain.address } : {}),
        HOST: '127.0.0.1',
        PORT: String(reserved.port),
        PUBLIC_BASE_URL: baseUrl,
        NODE_ENV: 'test',
        BODY_LIMIT_BYTES: '16384',
        SHUTDOWN_GRACE_MS: '1000',
        // Off here: these tests count the reads each request makes (memo, batching). The cache has suites of
        // its own (reference-cache.test.ts, gateway-caches-e2e).
        REFERENCE_CACHE_TTL_MS: '0',
        ...more,
      };
      return loadGatewayConfig(Object.fromEntries(Object.entries(settings).filter((e): e is [string, string] => e[1] !== undefined)));
    };
    const gateway = createGateway({ config: configFor(env), bus, log: options.log ?? log, ...(options.table ? { table: options.table } : {}) });
    await gateway.listen(reserved.server);
    stack.push(() => gateway.close());
    const another = async (more: Record<string, string | undefined>): Promise<AnotherGateway> => {
      const other = createGateway({ config: configFor({ ...env, PORT: '0', ...more }), bus, log });
      const { port } = await other.listen();
      let closed: Promise<void> | undefined;
      const close = () => (closed ??= other.close());
      stack.push(close);
      return { baseUrl: `http://127.0.0.1:${port}`, gateway: other, stop: close };
    };

    const operator = await callerOf(identity.client, operatorKey);
    const createAccount = async (name: string, role: 'user' | 'operator' = 'user'): Promise<TestAccount> => {
      const made = await identity.client.createAccount(
        { name, role: role === 'operator' ? AccountRole.ACCOUNT_ROLE_OPERATOR : AccountRole.ACCOUNT_ROLE_USER },
        { caller: operator },
      );
      return { apiKey: made.apiKey, keyId: made.key!.id, caller: { accountId: made.account!.id, role } };
    };
    const acme = await createAccount('Acme');
    const revokedKey = async () => {
      const account = await createAccount(`Revoked ${randomBytes(4).toString('hex')}`);
      await identity.client.revokeApiKey({ keyId: account.keyId }, { caller: account.caller });
      return account.apiKey;
    };
    // What the services saw of the setup is no test's business: each tap starts empty.
    for (const service of [identity, taxonomy, portfolio, chain]) {
      service?.calls.splice(0);
      service?.cancelled.splice(0);
    }
    return {
      baseUrl,
      gateway,
      operatorKey,
      operator,
      userKey: acme.apiKey,
      userKeyId: acme.keyId,
      user: acme.caller,
      identity,
      taxonomy,
      portfolio,
      chain,
      chainLevers,
      another,
      createAccount,
      revokedKey,
      settledJob: (jobId, caller = acme.caller) => settledJob(chain, jobId, caller),
      async loadExampleTaxonomy() {
        if (!taxonomy) throw new Error('loadExampleTaxonomy needs the taxonomy service: start the gateway with { taxonomy: true }.');
        const [{ loadExample }, { ICMA_TAXONOMY }] = await Promise.all([
          import('@green-impact/taxonomy/example/example-loader'),
          import('@green-impact/taxonomy/example/icma-taxonomy'),
        ]);
        return loadExample(taxonomy.client, operator, ICMA_TAXONOMY);
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * An in-memory PGlite. initdb is most of a database's start: the first database of this process is dumped
 * fresh, and later ones start from that dump.
 */
async function freshEmbeddedPostgres(): Promise<EmbeddedPostgres> {
  const fresh = freshDataDir;
  const db = await startEmbeddedPostgres(fresh ? { loadDataDir: await fresh } : {});
  if (!fresh) await (freshDataDir = db.dumpDataDir());
  return db;
}

/** A freshly initialised data directory, dumped by this process's first test database. */
let freshDataDir: Promise<Blob> | undefined;

const SETTLED = new Set([JobStatus.JOB_STATUS_COMPLETED, JobStatus.JOB_STATUS_FAILED]);

async function settledJob(chain: RealService<typeof ChainServiceService> | undefined, jobId: string, caller: Caller, timeoutMs = 30_000): Promise<Job> {
  if (!chain) throw new Error('settledJob needs the chain service: start the gateway with { chain: true }.');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { job } = await chain.client.getJob({ jobId }, { caller });
    if (job && SETTLED.has(job.status)) return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} not settled within ${timeoutMs} ms: ${JSON.stringify(job)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function callerOf(identity: TypedClient<typeof IdentityServiceService>, apiKey: string): Promise<Caller> {
  const { account } = await identity.authenticate({ apiKey });
  return { accountId: account!.id, role: account!.role === AccountRole.ACCOUNT_ROLE_OPERATOR ? 'operator' : 'user' };
}

/**
 * The gateway's listener, bound first: the chain service hands out links to the gateway, so its port is
 * settled before the services start, and the gateway takes this very socket over (gateway.listen(server)).
 */
async function bindLoopbackPort(): Promise<{ server: Server; port: number; release(): Promise<void> }> {
  const server = createServer((socket) => socket.resetAndDestroy());
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  return {
    server,
    port: (server.address() as AddressInfo).port,
    release: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

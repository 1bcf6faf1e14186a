import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Metadata } from '@grpc/grpc-js';
import { ChainServiceService, JobStatus, type Job, type WatchJobsRequest, type WatchJobsResponse } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { protoFiles, protoRoot } from '@green-impact/proto/paths';
import type { EventBus } from '@green-impact/shared/bus/event-bus';
import { InProcessBus } from '@green-impact/shared/bus/in-process-bus';
import type { Caller } from '@green-impact/shared/caller';
import { signCall } from '@green-impact/shared/callers/call-metadata';
import { startGrpcServer, type StartedGrpcServer } from '@green-impact/shared/grpc/server';
import { createLogger } from '@green-impact/shared/logger';
import type { TestDatabase } from '../shared/databases.js';
import { createChainClient, type ChainClient } from './chain-client.js';
import { embeddedNetworkSpecs, type NetworkTuning } from '@green-impact/chain/networks/network-spec';
import { createChainService, type ChainService, type ChainServiceOptions } from '@green-impact/chain/service';

/**
 * Worker options with key-value inserts one per transaction (CHAIN_KV_BATCH=1; batching is on by
 * default): for the tests that count one transaction, one nonce and one attempt per insert job — the
 * sender, tracker and crash paths they prove are the same for a batch job, which is a job of its own.
 */
export const ONE_INSERT_PER_TRANSACTION = { sender: { keyValueBatchSize: 1 } } as const;

/** A chain service on a fresh database and fresh embedded networks, over real gRPC, and a client. */
export interface ChainHarness {
  service: ChainService;
  client: ChainClient;
  server: StartedGrpcServer;
  bus: EventBus;
  contentDir: string;
  alice: Caller;
  bob: Caller;
  /** A new service process on the same database, content and bus; embedded networks start afresh. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startChainHarness(opts: {
  db: TestDatabase;
  /** Default: a fresh in-process bus (closed by stop()). */
  bus?: EventBus;
  tuning?: Partial<NetworkTuning>;
  /** NFT settings (public base URL, mail, pinning, image fetching). */
  service?: Pick<ChainServiceOptions, 'publicBaseUrl' | 'nfts' | 'limits' | 'worker'>;
}): Promise<ChainHarness> {
  const started = await opts.db.start();
  const contentDir = await mkdtemp(join(tmpdir(), 'chain-content-'));
  const bus = opts.bus ?? new InProcessBus({ retry: { initialDelayMs: 20, maxDelayMs: 500 } });
  const log = createLogger('chain-test');
  const boot = async () => {
    const service = await createChainService({
      databaseUrl: started.url,
      bus,
      networks: embeddedNetworkSpecs({ pollIntervalMs: 50, stuckAfterMs: 1_500, ...opts.tuning }),
      contentDir,
      log,
      poolSize: 6,
      relayPollIntervalMs: 100,
      ...opts.service,
    });
    const server = await startGrpcServer({
      services: [service.registration],
      host: '127.0.0.1',
      port: 0,
      protoRoot,
      protoFiles: [protoFiles.chain],
      log,
    });
    return { service, server, client: createChainClient(server.address) };
  };
  const shutdown = async (h: ChainHarness) => {
    h.client.close();
    await h.server.shutdown(1_000);
    await h.service.close();
  };
  const h: ChainHarness = {
    ...(await boot()),
    bus,
    contentDir,
    alice: { accountId: '33333333-3333-4333-8333-333333333333', role: 'user' },
    bob: { accountId: '44444444-4444-4444-8444-444444444444', role: 'user' },
    async restart() {
      await shutdown(h);
      Object.assign(h, await boot());
    },
    async stop() {
      await shutdown(h);
      await bus.close();
      await started.stop();
      await rm(contentDir, { recursive: true, force: true });
    },
  };
  return h;
}

/** Polls GetJob until the job reaches one of `statuses` (bounded). */
export async function waitForJob(
  client: ChainClient,
  caller: Caller,
  jobId: string,
  statuses: JobStatus[] = [JobStatus.JOB_STATUS_COMPLETED, JobStatus.JOB_STATUS_FAILED],
  timeoutMs = 20_000,
): Promise<Job> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { job } = await client.getJob({ jobId }, { caller });
    if (job && statuses.includes(job.status)) return job;
    if (Date.now() > deadline) {
      throw new Error(`job ${jobId} still ${JobStatus[job?.status ?? 0]} after ${timeoutMs} ms (error: ${job?.error ?? '-'})`);
    }
    await sleep(100);
  }
}

/**
 * For "nothing was sent twice" checks, instead of a pause: one more key-value job on `network`, accepted
 * after everything the test did, its chain.jobs message published behind theirs (same signer, same key,
 * same partition: handled after them), and waited for until it completed. A duplicate send caused by what
 * came before would have been made by then, so the test counts on the node after this, including this job.
 * Returns its id.
 */
export async function fenceJob(h: ChainHarness, network: string, caller: Caller = h.alice, timeoutMs = 30_000): Promise<string> {
  const { jobId } = await h.client.insertString({ network, key: `fence-${Date.now()}`, value: 'fence' }, { caller });
  await h.service.relay.flush();
  const job = await waitForJob(h.client, caller, jobId, undefined, timeoutMs);
  assert.equal(job.status, JobStatus.JOB_STATUS_COMPLETED, `the fence job: ${job.error ?? ''}`);
  return jobId;
}

export async function waitUntil(condition: () => Promise<boolean> | boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(25);
  }
}

/** Opens a WatchJobs stream; collects what arrives until close(). `opened` resolves once the stream is live. */
export function watchJobs(client: ChainClient, caller: Caller, request: Partial<WatchJobsRequest>) {
  const received: WatchJobsResponse[] = [];
  const def = ChainServiceService.watchJobs;
  const call = client.raw.makeServerStreamRequest(
    def.path,
    def.requestSerialize as (v: WatchJobsRequest) => Buffer,
    def.responseDeserialize,
    { jobIds: [], sendCurrent: false, ...request },
    signCall(new Metadata(), caller, def.path),
    {},
  );
  call.on('data', (m: WatchJobsResponse) => received.push(m));
  call.on('error', () => undefined); // cancellation at close()
  // The server sends its headers once its listener is registered (job-watch.ts).
  const opened = new Promise<void>((resolve) => call.once('metadata', () => resolve()));
  return { received, opened, close: () => call.cancel() };
}

export { rejectsWith } from '../shared/assertions.js';

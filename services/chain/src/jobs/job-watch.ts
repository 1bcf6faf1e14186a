import { Metadata, type ServerWritableStream } from '@grpc/grpc-js';
import { ChainServiceService, type WatchJobsRequest, type WatchJobsResponse } from '@green-impact/proto/greenimpact/chain/v1/chain';
import type { EventBus, Subscription } from '@green-impact/shared/bus/event-bus';
import type { Caller } from '@green-impact/shared/caller';
import { withVerifiedCaller } from '@green-impact/shared/callers/call-metadata';
import { domainErrorToGrpc } from '@green-impact/shared/grpc/status-map';
import { toDomainError } from '@green-impact/shared/grpc/unexpected-error';
import type { Logger } from '@green-impact/shared/logger';
import { TOPIC_JOB_EVENTS } from '../schema.js';
import type { JobRow } from './entities.js';
import type { JobStore } from './job-store.js';
import { JOB_KINDS, JOB_STATUSES, nameOf, type JobEvent } from './job-types.js';
import { toJob } from './job-view.js';

type Listener = (event: JobEvent) => void;

/**
 * Fans chain.job-events out to the WatchJobs streams of this replica. Each replica is its own consumer
 * group (every replica sees every event) and starts at the end of the log: a stream is live, and
 * `send_current` covers what happened before it opened.
 */
export class JobEventHub {
  private readonly listeners = new Set<Listener>();
  private subscription: Subscription | undefined;

  constructor(private readonly log: Logger) {}

  async start(bus: EventBus, instanceId: string): Promise<void> {
    this.subscription = await bus.subscribe({
      topic: TOPIC_JOB_EVENTS,
      groupId: `chain-watch-${instanceId}`,
      fromBeginning: false,
      handler: async (msg) => {
        let event: JobEvent;
        try {
          event = JSON.parse(msg.value.toString('utf8')) as JobEvent;
        } catch {
          this.log.warn({ offset: msg.offset }, 'unreadable job event skipped');
          return;
        }
        for (const l of this.listeners) l(event);
      },
    });
  }

  on(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async stop(): Promise<void> {
    await this.subscription?.close();
    this.subscription = undefined;
  }
}

/** The WatchJobs server-streaming handler: the caller's job changes until the client cancels. */
export function watchJobsHandler(
  hub: JobEventHub,
  store: JobStore,
  txUrl: (row: JobRow, hash: string) => string | undefined,
  log: Logger,
) {
  return (call: ServerWritableStream<WatchJobsRequest, WatchJobsResponse>): void =>
    withVerifiedCaller(call, ChainServiceService.watchJobs.path, (caller) => watch(call, caller));
  function watch(call: ServerWritableStream<WatchJobsRequest, WatchJobsResponse>, caller: Caller): void {
    if (call.cancelled) return;
    const req = call.request;
    const ids = new Set(req.jobIds.map((id) => id.trim().toLowerCase()).filter(Boolean));
    const kind = req.kind !== undefined ? nameOf(JOB_KINDS, req.kind) : undefined;
    let open = true;
    let sending: Promise<void> = Promise.resolve();
    const send = (jobId: string, event: JobEvent | undefined) => {
      sending = sending
        .then(async () => {
          if (!open) return;
          const row = await store.load(jobId);
          if (!row || row.accountId !== caller.accountId) return;
          const job = toJob(event ? { ...row, status: event.status } : row, (hash) => txUrl(row, hash));
          call.write({
            job,
            ...(event?.previousStatus ? { previousStatus: JOB_STATUSES[event.previousStatus] } : {}),
          });
        })
        .catch((err: unknown) => {
          log.error({ err }, 'WatchJobs stream failed');
          if (open) call.emit('error', domainErrorToGrpc(toDomainError(err)));
          close();
        });
    };
    const off = hub.on((e) => {
      if (e.accountId !== caller.accountId) return;
      if (ids.size > 0 && !ids.has(e.jobId)) return;
      if (kind && e.kind !== kind) return;
      if (req.network && e.network !== req.network) return;
      send(e.jobId, e);
    });
    const close = () => {
      open = false;
      off();
    };
    call.on('cancelled', close);
    call.on('close', close);
    call.on('error', close);
    // Headers at once: the client learns that the stream is live, every event from here on reaches it.
    call.sendMetadata(new Metadata());
    if (req.sendCurrent) for (const id of ids) send(id, undefined);
  }
}

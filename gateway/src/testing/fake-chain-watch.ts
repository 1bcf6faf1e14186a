import type { ServerWritableStream } from '@grpc/grpc-js';
import { ChainServiceService, type Job, type JobStatus, type WatchJobsRequest, type WatchJobsResponse } from '@green-impact/proto/greenimpact/chain/v1/chain';
import { withVerifiedCaller } from '@green-impact/shared/callers/call-metadata';

/**
 * WatchJobs for the fake chain service, with the real one's rules (services/chain/src/jobs/job-watch.ts):
 * the caller's jobs only, filters by ids, kind and network, `send_current` first. `publish` is called by
 * the fake whenever a job changes; `open` counts live streams so a test can see a cancellation arrive.
 */
export function fakeJobWatch(lookup: (jobId: string) => { job: Job; account: string } | undefined) {
  const watchers = new Set<{ account: string; req: WatchJobsRequest; write: (r: WatchJobsResponse) => void }>();
  return {
    open: () => watchers.size,
    publish(job: Job, account: string, previousStatus: JobStatus | undefined) {
      for (const w of watchers) {
        if (w.account !== account) continue;
        if (w.req.jobIds.length > 0 && !w.req.jobIds.includes(job.id)) continue;
        if (w.req.kind !== undefined && w.req.kind !== job.kind) continue;
        if (w.req.network !== undefined && w.req.network !== job.network) continue;
        w.write({ job, ...(previousStatus !== undefined ? { previousStatus } : {}) });
      }
    },
    handler(call: ServerWritableStream<WatchJobsRequest, WatchJobsResponse>): void {
      withVerifiedCaller(call, ChainServiceService.watchJobs.path, (caller) => {
        const watcher = { account: caller.accountId, req: call.request, write: (r: WatchJobsResponse) => call.write(r) };
        watchers.add(watcher);
        const close = () => watchers.delete(watcher);
        call.on('cancelled', close);
        call.on('close', close);
        call.on('error', close);
        if (call.request.sendCurrent) {
          for (const id of call.request.jobIds) {
            const s = lookup(id);
            if (s && s.account === caller.accountId) call.write({ job: s.job });
          }
        }
      });
    },
  };
}

import assert from 'node:assert/strict';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

export interface WatchedJob {
  id: string;
  status: string;
  kind: string;
  txHash: string | null;
}

/** A graphql-ws client of the gateway at `baseUrl` (http(s)://…), authenticated in connection_init. */
export function subscriptionClient(baseUrl: string, apiKey: string): Client {
  return createClient({ url: `${baseUrl.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { apiKey }, retryAttempts: 0 });
}

/**
 * Subscribes to jobUpdated for one job and collects what arrives until the job is COMPLETED or FAILED
 * (or `timeoutMs` passes: the subscription is then ended and what was seen is answered).
 */
export async function watchJob(client: Client, jobId: string, timeoutMs: number): Promise<WatchedJob[]> {
  const updates = client.iterate<{ jobUpdated: WatchedJob }>({
    query: 'subscription($ids: [ID!]) { jobUpdated(ids: $ids) { id status kind txHash } }',
    variables: { ids: [jobId] },
  });
  const seen: WatchedJob[] = [];
  const timer = setTimeout(() => void updates.return?.(), timeoutMs);
  try {
    for await (const result of updates) {
      assert.equal(result.errors, undefined, JSON.stringify(result.errors));
      const job = result.data!.jobUpdated;
      seen.push(job);
      if (job.status === 'COMPLETED' || job.status === 'FAILED') break;
    }
  } finally {
    clearTimeout(timer);
  }
  return seen;
}

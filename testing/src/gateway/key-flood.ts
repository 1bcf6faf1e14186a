import { randomBytes } from 'node:crypto';

export interface KeyFloodResult {
  /** Requests answered with something else than 429: they got past the rate limits. */
  passed: number;
  /** Answers by HTTP status. */
  statuses: Record<number, number>;
  elapsedMs: number;
}

/**
 * An abuser's flood: `requests` POST /v1/call, each with a fresh made-up X-Api-Key, `concurrency` at a
 * time, from this process's one address. Shared by the rate-limit test and bench/made-up-keys.mjs.
 */
export async function floodWithMadeUpKeys(baseUrl: string, { requests = 600, concurrency = 50 } = {}): Promise<KeyFloodResult> {
  const statuses: Record<number, number> = {};
  const started = performance.now();
  let sent = 0;
  const body = JSON.stringify({ solution: 'SVC.ESG.Credits', operation: 'getGroups', parameters: {} });
  const worker = async () => {
    while (sent < requests) {
      sent++;
      const res = await fetch(`${baseUrl}/v1/call`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': `gi_${randomBytes(24).toString('base64url')}` },
        body,
      });
      await res.arrayBuffer();
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const passed = Object.entries(statuses).reduce((n, [status, count]) => (status === '429' ? n : n + count), 0);
  return { passed, statuses, elapsedMs: performance.now() - started };
}

/** What an address may get past the limiter in `elapsedMs`: its burst and what flowed in meanwhile. */
export function anonymousAllowance(rule: { perSecond: number; burst: number }, elapsedMs: number): number {
  return rule.burst + Math.ceil((elapsedMs / 1000) * rule.perSecond);
}

// Open-loop load: requests are sent on a fixed schedule (request i at start + i / rate), whatever the answers
// do, and each latency is measured from the request's scheduled time, not from when it was actually sent. A
// slow answer therefore shows in the latencies of every request scheduled behind it, instead of holding back
// the next send as a closed loop does (coordinated omission).
//
// The generator can fall behind its schedule (its event loop busy with answers): a request sent more than
// `lateMs` after its scheduled time counts as late (its latency still runs from the schedule). When
// `maxInFlight` requests are unanswered, a request that falls due is not sent and counts as dropped: the
// system is not keeping up with the offered rate, and the latencies of what was sent understate it.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { percentile } from './harness.mjs';

const round = (x, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

/**
 * Sends `requests` (autocannon request objects: {method, path, headers, body}, taken in turn) to `url` at
 * `rate` per second for `seconds`. `answerError(request, status, body)` says why an answer failed (undefined
 * when it succeeded). Answers {offeredRps, scheduled, sent, completed, errors, dropped, late, achievedRps,
 * p50, p90, p99, max (ms from the scheduled time), maxSendLagMs, firstError}.
 */
export async function openLoop({ url, requests, rate, seconds, answerError, connections = 64, maxInFlight = 1_000, lateMs = 10, timeoutMs = 10_000 }) {
  if (!(rate > 0)) throw new Error(`the open loop needs a rate above 0 requests/s, got ${rate}`);
  const base = new URL(url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const send = (r) =>
    new Promise((resolve, reject) => {
      const req = http.request(
        { host: base.hostname, port: base.port, method: r.method, path: r.path, agent, timeout: timeoutMs, headers: { ...r.headers, 'content-length': Buffer.byteLength(r.body ?? '') } },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      req.on('error', reject);
      req.end(r.body);
    });

  const total = Math.max(1, Math.round(rate * seconds));
  const interval = 1000 / rate;
  const latencies = [];
  const counts = { sent: 0, errors: 0, dropped: 0, late: 0 };
  let firstError;
  let maxSendLag = 0;
  let inFlight = 0;
  let next = 0;
  let lastAnswer = 0;
  const start = performance.now() + 20;
  try {
    await new Promise((resolve) => {
      const finished = () => next === total && inFlight === 0 && resolve();
      const tick = () => {
        const now = performance.now();
        for (; next < total && start + next * interval <= now; next++) {
          const scheduled = start + next * interval;
          const request = requests[next % requests.length];
          const lag = now - scheduled;
          maxSendLag = Math.max(maxSendLag, lag);
          if (lag > lateMs) counts.late++;
          if (inFlight >= maxInFlight) {
            counts.dropped++;
            continue;
          }
          counts.sent++;
          inFlight++;
          send(request)
            .then(
              ({ status, body }) => answerError(request, status, body),
              (err) => `${request.path}: ${err.message}`,
            )
            .then((error) => {
              lastAnswer = performance.now();
              if (error) {
                counts.errors++;
                firstError ??= error;
              } else latencies.push(lastAnswer - scheduled);
              inFlight--;
              finished();
            });
        }
        if (next < total) setTimeout(tick, Math.max(0, start + next * interval - performance.now()));
        else finished();
      };
      setTimeout(tick, Math.max(0, start - performance.now()));
    });
  } finally {
    agent.destroy();
  }
  latencies.sort((a, b) => a - b);
  // The schedule's span, or longer when the last answers came after it.
  const elapsed = Math.max(lastAnswer - start, total * interval) / 1000;
  return {
    offeredRps: round(rate),
    seconds: round(seconds),
    scheduled: total,
    ...counts,
    completed: latencies.length,
    achievedRps: round(latencies.length / elapsed),
    p50: round(percentile(latencies, 50)),
    p90: round(percentile(latencies, 90)),
    p99: round(percentile(latencies, 99)),
    max: round(latencies.at(-1) ?? NaN),
    maxSendLagMs: round(maxSendLag),
    ...(firstError ? { firstError } : {}),
  };
}

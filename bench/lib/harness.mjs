// Closed-loop load at a fixed concurrency for a fixed time: `concurrency` loops each await one call, then
// the next. Latencies in ms; percentiles by rank over every completed call. With a CPU probe (lib/cpu.mjs),
// the CPU time of each process it watches over the measured window (not the warm-up), per completed call.
import { performance } from 'node:perf_hooks';

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

async function loop(fn, concurrency, durationMs, record) {
  const end = performance.now() + durationMs;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const start = performance.now();
        try {
          await fn();
          record(performance.now() - start, undefined);
        } catch (err) {
          record(undefined, err);
        }
      }
    }),
  );
}

/** Warms up, then measures: {requests, errors, rps, p50, p90, p99, mean (ms), firstError, cpuMsPerRequest}. */
export async function measure(fn, { concurrency, durationMs, warmupMs = 1_000, cpu }) {
  await loop(fn, concurrency, warmupMs, () => undefined);
  const cpuBefore = await cpu?.sample();
  const latencies = [];
  let errors = 0;
  let firstError;
  const t0 = performance.now();
  await loop(fn, concurrency, durationMs, (ms, err) => {
    if (err) {
      errors++;
      firstError ??= String(err.message ?? err).slice(0, 300);
    } else latencies.push(ms);
  });
  const seconds = (performance.now() - t0) / 1000;
  const cpuAfter = await cpu?.sample({ clientFirst: true });
  latencies.sort((a, b) => a - b);
  const round = (x) => Math.round(x * 100) / 100;
  return {
    requests: latencies.length + errors,
    errors,
    rps: round(latencies.length / seconds),
    p50: round(percentile(latencies, 50)),
    p90: round(percentile(latencies, 90)),
    p99: round(percentile(latencies, 99)),
    mean: round(latencies.reduce((s, x) => s + x, 0) / Math.max(1, latencies.length)),
    ...(firstError ? { firstError } : {}),
    ...(cpu ? { cpuMsPerRequest: cpu.perRequest(cpuBefore, cpuAfter, latencies.length + errors) } : {}),
  };
}

// One /v1/call read whose answer streams (all of an investor's impact records), measured from the client:
// time to the first body byte and to the last, the rows received (counted as they arrive, without holding the
// answer), and the growth of a process's resident memory while it served the read (sampled from /proc) and
// the CPU time it spent on it (cpuMs: on a shared machine, steadier than the wall-clock time).
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { processCpuMs } from './cpu.mjs';

/** Resident set size of `pid` in MB (Linux /proc), undefined where it cannot be read. */
export function rssMb(pid) {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
    return line ? Number(line.split(/\s+/)[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

const round = (x, d = 2) => (x === undefined ? undefined : Math.round(x * 10 ** d) / 10 ** d);

/**
 * POSTs `body` to `${baseUrl}/v1/call` and reads the answer as it comes. `rowKey` is a key each row of the
 * streamed array has once (`"impact_id":`); rows are counted across chunk boundaries. `pid`: the process
 * whose RSS growth (peak during the read minus before it) and CPU time are reported.
 */
export function streamedRead({ baseUrl, key, body, rowKey, pid }) {
  const url = new URL(baseUrl);
  const payload = JSON.stringify(body);
  const before = rssMb(pid);
  const cpuBefore = processCpuMs(pid);
  let peak = before;
  const sampler = setInterval(() => {
    const now = rssMb(pid);
    if (now !== undefined && (peak === undefined || now > peak)) peak = now;
  }, 10);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, method: 'POST', path: '/v1/call', headers: { 'content-type': 'application/json', 'x-api-key': key, 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        let firstByteMs;
        let rows = 0;
        let bytes = 0;
        let carry = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          firstByteMs ??= performance.now() - started;
          bytes += Buffer.byteLength(chunk);
          const text = carry + chunk;
          for (let at = text.indexOf(rowKey); at >= 0; at = text.indexOf(rowKey, at + rowKey.length)) rows++;
          // The row key may be cut by a chunk's end: its start is kept for the next chunk (shorter than the
          // key, so never counted twice; the key has no prefix that is also its suffix).
          carry = text.slice(Math.max(0, text.length - (rowKey.length - 1)));
        });
        res.on('end', () => {
          clearInterval(sampler);
          const ms = performance.now() - started;
          if (res.statusCode !== 200) return reject(new Error(`streamed read: ${res.statusCode}`));
          const cpuMs = cpuBefore === undefined ? undefined : processCpuMs(pid) - cpuBefore;
          resolve({ ms: round(ms), firstByteMs: round(firstByteMs), cpuMs: round(cpuMs, 0), rows, megabytes: round(bytes / 1e6), rssBeforeMb: round(before), rssPeakMb: round(peak), rssGrowthMb: round(peak - before) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', (err) => {
      clearInterval(sampler);
      reject(err);
    });
    req.end(payload);
  });
}

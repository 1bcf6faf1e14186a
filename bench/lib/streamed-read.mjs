// One /v1/call read whose answer streams (all of an investor's impact records), measured from the client:
// time to the first body byte and to the last, the rows received (counted as they arrive, without holding the
// answer), and the growth of a process's resident memory while it served the read (sampled from /proc) and
// the CPU time it spent on it (cpuMs: on a shared machine, steadier than the wall-clock time), and with a
// probe (lib/cpu.mjs) the CPU time of every process it names. A read that fails (an error status, or an
// answer cut after its first bytes, as the gateway's request deadline cuts one on a busy machine) resolves
// with `failed` saying how and what arrived by then, so a benchmark reports it rather than stopping.
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
 * whose RSS growth (peak during the read minus before it) and CPU time are reported; `cpu`, optional: a
 * probe whose processes' CPU time over the read is reported as cpuMsByProcess.
 */
export async function streamedRead({ baseUrl, key, body, rowKey, pid, cpu }) {
  const url = new URL(baseUrl);
  const payload = JSON.stringify(body);
  const probeBefore = await cpu?.sample();
  const before = rssMb(pid);
  const cpuBefore = processCpuMs(pid);
  let peak = before;
  const sampler = setInterval(() => {
    const now = rssMb(pid);
    if (now !== undefined && (peak === undefined || now > peak)) peak = now;
  }, 10);
  const started = performance.now();
  let firstByteMs;
  let rows = 0;
  let bytes = 0;
  const finish = async (failed) => {
    clearInterval(sampler);
    const ms = performance.now() - started;
    const cpuMs = cpuBefore === undefined ? undefined : processCpuMs(pid) - cpuBefore;
    const cpuMsByProcess = probeBefore && cpu.perRequest(probeBefore, await cpu.sample({ clientFirst: true }), 1);
    return { ...(failed ? { failed } : {}), ms: round(ms), firstByteMs: round(firstByteMs), cpuMs: round(cpuMs, 0), ...(cpuMsByProcess ? { cpuMsByProcess } : {}), rows, megabytes: round(bytes / 1e6), rssBeforeMb: round(before), rssPeakMb: round(peak), rssGrowthMb: round(peak - before) };
  };
  const outcome = await new Promise((resolve) => {
    const cut = (err) => resolve(`cut after ${rows} rows and ${round(performance.now() - started, 0)} ms: ${err.message ?? err}`);
    const req = http.request(
      { host: url.hostname, port: url.port, method: 'POST', path: '/v1/call', headers: { 'content-type': 'application/json', 'x-api-key': key, 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        let carry = '';
        let start = ''; // the answer's first bytes, for an error status's message
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          firstByteMs ??= performance.now() - started;
          if (start.length < 200) start += chunk.slice(0, 200);
          bytes += Buffer.byteLength(chunk);
          const text = carry + chunk;
          for (let at = text.indexOf(rowKey); at >= 0; at = text.indexOf(rowKey, at + rowKey.length)) rows++;
          // The row key may be cut by a chunk's end: its start is kept for the next chunk (shorter than the
          // key, so never counted twice; the key has no prefix that is also its suffix).
          carry = text.slice(Math.max(0, text.length - (rowKey.length - 1)));
        });
        res.on('end', () => resolve(res.statusCode === 200 ? undefined : `status ${res.statusCode}: ${start.slice(0, 200)}`));
        res.on('error', cut);
        res.on('close', () => res.complete || cut(new Error('the connection closed before the answer ended')));
      },
    );
    req.on('error', cut);
    req.end(payload);
  });
  return finish(outcome);
}

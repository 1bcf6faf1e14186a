#!/usr/bin/env node
// npm run bench:fragments — issue 46: what refusing a fragment DAG costs a replica.
//
// Starts the whole system in this process (as `npm start` runs it), then for each FRAGMENT_LEVELS (default
// 20,22,30) posts, with no API key, `query Q{...F0} fragment F0 on Query{...F1 ...F1} … fragment Fn on
// Query{__typename}` (under 1 kB, 2^n selections when expanded) and, 20 ms later, GET /healthz: prints how
// long each took to be answered. Before the limit rule measured each fragment once, each level doubled both
// (2.1 s at 20 levels, 10 s at 22); a request not answered within FRAGMENT_TIMEOUT_MS (30 s) is reported so,
// and the run exits 1 when a document was not refused with QUERY_TOO_COMPLEX or /healthz did not answer.
import { startInProcess } from './lib/system.mjs';

const LEVELS = (process.env.FRAGMENT_LEVELS ?? '20,22,30').split(',').map(Number);
const TIMEOUT_MS = Number(process.env.FRAGMENT_TIMEOUT_MS ?? 30_000);

const dag = (levels) =>
  'query Q{...F0} ' +
  Array.from({ length: levels }, (_, i) => `fragment F${i} on Query{...F${i + 1} ...F${i + 1}}`).join(' ') +
  ` fragment F${levels} on Query{__typename}`;

/** Milliseconds until `url` answers (its status too), or undefined past the timeout. */
async function timed(url, init) {
  const started = performance.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    const body = await res.text();
    return { ms: performance.now() - started, status: res.status, body };
  } catch {
    return undefined;
  }
}

const system = await startInProcess({ bootstrapApiKey: 'fragment-dags-operator' });
try {
  for (const levels of LEVELS) {
    const query = dag(levels);
    const refused = timed(`${system.gatewayUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query }),
    });
    await new Promise((r) => setTimeout(r, 20));
    const health = await timed(`${system.gatewayUrl}/healthz`);
    const answer = await refused;
    const ms = (r) => (r ? `${r.ms.toFixed(1)} ms` : `not answered in ${TIMEOUT_MS} ms`);
    const code = answer ? /"code":"([A-Z_]+)"/.exec(answer.body)?.[1] : undefined;
    console.log(`[fragments] ${levels} levels (${query.length} bytes): refused in ${ms(answer)} (${answer?.status ?? '-'} ${code ?? ''}); /healthz meanwhile ${ms(health)}`);
    if (code !== 'QUERY_TOO_COMPLEX' || !health) process.exitCode = 1;
  }
} finally {
  await system.stop();
}

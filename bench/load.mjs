#!/usr/bin/env node
// npm run load — a load test of the whole system at a fixed concurrency.
//
// Starts the system in a child process, so the load generator does not share its event loop (in-memory
// PGlite, or PostgreSQL at LOAD_DATABASE_URL, which must be an empty database unless LOAD_OPERATOR_KEY
// names an existing operator key), seeds a realistic dataset (bench/lib/seed.mjs), then autocannon sends a
// fixed mix through /v1/call and /graphql for LOAD_DURATION seconds (default 20) over LOAD_CONNECTIONS
// connections (default 16). LOAD_DATABASE=postgresql uses a scratch database on the bench's PostgreSQL
// server (BENCH_POSTGRES_URL) instead. LOAD_MIX: `mixed` (default: 80 % reads, 20 % writes) or `read` (reads only).
// Prints throughput, p50/p99 and the error count; exits 1 when any request failed (a socket error, a
// timeout, a non-2xx answer, or a GraphQL answer carrying `errors`).
import autocannon from 'autocannon';
import { ESG, httpClient } from './lib/http.mjs';
import { machine } from './lib/machine.mjs';
import { seedDataset } from './lib/seed.mjs';
import { scratchPostgres, startChildProcess } from './lib/system.mjs';

const DURATION = Number(process.env.LOAD_DURATION ?? 20);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 16);
const OPERATOR_KEY = process.env.LOAD_OPERATOR_KEY ?? 'load-operator-key';
// LOAD_DATABASE=postgresql: a scratch database on the bench's PostgreSQL server, dropped afterwards.
const scratch = process.env.LOAD_DATABASE === 'postgresql' ? await scratchPostgres() : undefined;
if (scratch?.unreachable) throw new Error(scratch.unreachable);
const databaseUrl = scratch?.url ?? (process.env.LOAD_DATABASE_URL || undefined);
const MIX = process.env.LOAD_MIX ?? 'mixed';
if (MIX !== 'mixed' && MIX !== 'read') throw new Error(`LOAD_MIX must be mixed or read, got ${MIX}`);
/** GraphQL answers 200 with `errors` for a failed field: each one counts as a failed request. */
const graphqlErrors = { count: 0, first: undefined };
function countGraphqlErrors(_status, body) {
  try {
    const errors = JSON.parse(body).errors;
    if (errors?.length) {
      graphqlErrors.count++;
      graphqlErrors.first ??= JSON.stringify(errors[0]).slice(0, 300);
    }
  } catch {
    graphqlErrors.count++;
    graphqlErrors.first ??= `not JSON: ${String(body).slice(0, 200)}`;
  }
}

const log = (...args) => console.log(`[load ${new Date().toISOString().slice(11, 19)}]`, ...args);

/** A deterministic pseudo-random pick, so every run sends the same mix. */
function picker(seed = 42) {
  let s = seed;
  return (list) => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return list[s % list.length];
  };
}

/** The mix: 40 requests, 80 % reads (v1 and GraphQL), 20 % writes (positions, impacts, users, framework rows). */
function mix(data) {
  const pick = picker();
  const v1 = (operation, parameters) => ({
    method: 'POST',
    path: '/v1/call',
    headers: { 'content-type': 'application/json', 'x-api-key': data.key },
    body: JSON.stringify({ solution: ESG, operation, parameters }),
  });
  const gql = (query, variables) => ({
    method: 'POST',
    path: '/graphql',
    headers: { 'content-type': 'application/json', 'x-api-key': data.key },
    body: JSON.stringify({ query, variables }),
    onResponse: countGraphqlErrors,
  });
  const y = data.year;
  const reads = [
    () => v1('getFrameworks', { reporting_year: y }),
    () => v1('getFrameworkDetails', { framework_identifier: pick(data.frameworks), reporting_year: y }),
    () => v1('getCategories', { reporting_year: y }),
    () => v1('getTaxonomy', { reporting_year: y, language_code: 'en' }),
    () => v1('getAssets', { framework_identifier: pick(data.frameworks) }),
    () => v1('getAssetFrameworkDetails', { asset_identifier: pick(data.assets), reporting_year: y }),
    () => v1('getInvestors', {}),
    () => v1('getPositions', { investor_identifier: pick(data.investors) }),
    () => v1('getPortfolios', { investor_identifier: pick(data.portfolios).investor }),
    () => v1('getPortfolioPositions', { portfolio_identifier: pick(data.portfolios).portfolio }),
    () => v1('getInvestorImpacts', { investor_identifier: pick(data.investors), reporting_year: y }),
    () => v1('getUsers', {}),
    () => v1('getInvestorsOfUser', { user_identifier: pick(data.users) }),
    () => gql('query($p: String!) { portfolio(identifier: $p) { identifier positions { id amount asset { name } } impacts(year: 2024) { totals { value } } } }', { p: pick(data.portfolios).portfolio }),
    () => gql('query($y: Int!) { frameworks(year: $y) { nodes { identifier name } } categories(year: $y) { name subCategories { name } } }', { y }),
  ];
  const writes = [
    () => {
      const p = pick(data.positions);
      return v1('addPosition', { investor_identifier: p.investor, asset_identifier: p.asset, position_amount: 25_000, position_currency_code: 'EUR', reporting_year: y });
    },
    () => {
      const p = pick(data.positions);
      return v1('computePositionImpacts', { investor_identifier: p.investor, position_id: p.id, reporting_year: y });
    },
    () => v1('addUser', { user_identifier: pick(data.users), user_last_name: 'Updated' }),
    () => {
      const row = data.tax.subCategories[0];
      return v1('addCategoryIndicatorToFramework', { framework_identifier: pick(data.frameworks), sub_category_id: row.subCategory, sub_category_volume: 50_000_000, indicator_id: row.indicators[0], indicator_value: 1_234, reporting_year: y });
    },
  ];
  return Array.from({ length: 40 }, (_, i) => (MIX === 'mixed' && i % 5 === 4 ? pick(writes)() : pick(reads)()));
}

const started = Date.now();
log(`starting the system (${databaseUrl ? 'PostgreSQL at LOAD_DATABASE_URL' : 'in-memory PGlite'})…`);
const system = await startChildProcess({ databaseUrl, bootstrapApiKey: OPERATOR_KEY });
let exitCode = 1;
try {
  const client = httpClient(system.gatewayUrl);
  log('seeding the dataset…');
  const data = await seedDataset(client, OPERATOR_KEY, { suffix: databaseUrl ? `-${Date.now().toString(36)}` : '' });
  client.close();
  log(`seeded ${data.frameworks.length} frameworks, ${data.assets.length} assets, ${data.investors.length} investors, ${data.positions.length} positions, ${data.portfolios.length} portfolios in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  log(`autocannon: ${CONNECTIONS} connections for ${DURATION} s over a mix of 40 requests (${MIX === 'mixed' ? '80 % reads, 20 % writes' : 'reads only'})…`);
  const result = await autocannon({
    url: system.gatewayUrl,
    connections: CONNECTIONS,
    duration: DURATION,
    requests: mix(data),
  });
  const errors = result.errors + result.timeouts + result.non2xx + graphqlErrors.count;
  const m = machine();
  console.log(
    [
      '',
      `load test: ${databaseUrl ? 'PostgreSQL' : 'PGlite (in memory)'}, ${MIX === 'read' ? 'reads only' : '80/20 reads/writes'}, ${CONNECTIONS} connections, ${DURATION} s, ${m.cpuModel} × ${m.cores}, ${m.memoryGiB} GiB, node ${m.node}`,
      `  requests      ${result.requests.total} (${result.requests.average} req/s average, ${result.requests.min}–${result.requests.max} per second)`,
      `  latency       p50 ${result.latency.p50} ms   p90 ${result.latency.p90} ms   p99 ${result.latency.p99} ms   max ${result.latency.max} ms`,
      `  throughput    ${(result.throughput.average / 1024).toFixed(0)} KiB/s`,
      `  errors        ${errors} (socket errors ${result.errors}, timeouts ${result.timeouts}, non-2xx ${result.non2xx}, GraphQL answers with errors ${graphqlErrors.count})`,
      ...(graphqlErrors.first ? [`  first GraphQL error: ${graphqlErrors.first}`] : []),
      '',
    ].join('\n'),
  );
  exitCode = errors === 0 ? 0 : 1;
  // autocannon closes its sockets when the time is up; requests the system is still working on finish
  // before it stops (the gateway's close() only waits for open connections).
  await new Promise((resolve) => setTimeout(resolve, Math.min(10_000, result.latency.max + 1_000)));
  if (exitCode) console.error('load test FAILED: some requests did not succeed');
} finally {
  await system.stop();
  await scratch?.stop();
}
process.exitCode = exitCode;

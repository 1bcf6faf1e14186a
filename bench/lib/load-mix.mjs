// The request mix of `npm run load` (bench/load.mjs) and of the bench's open-loop run: 40 requests through
// /v1/call and /graphql over a seeded dataset (lib/seed.mjs), as autocannon request objects
// ({method, path, headers, body}), and what counts as a failed answer.
import autocannon from 'autocannon';
import { ESG } from './http.mjs';

export const MIXES = ['mixed', 'read'];

/** A deterministic pseudo-random pick, so every run sends the same mix. */
function picker(seed = 42) {
  let s = seed;
  return (list) => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return list[s % list.length];
  };
}

/** The mix: 40 requests; `mixed` 80 % reads (v1 and GraphQL), 20 % writes (positions, impacts, users, framework rows); `read` reads only. */
export function loadMix(data, kind) {
  if (!MIXES.includes(kind)) throw new Error(`the mix must be one of ${MIXES.join(', ')}, got ${kind}`);
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
  return Array.from({ length: 40 }, (_, i) => (kind === 'mixed' && i % 5 === 4 ? pick(writes)() : pick(reads)()));
}

/** A request of the mix by what it asks: the /v1/call operation, or `graphql` and the document's first root field. */
export function requestLabel(request) {
  const body = JSON.parse(request.body);
  if (request.path !== '/graphql') return body.operation;
  return `graphql ${/^\s*([A-Za-z]+)/.exec(body.query.slice(body.query.indexOf('{') + 1))?.[1] ?? '?'}`;
}

/**
 * Why an answer to `request` failed, or undefined when it succeeded: a non-2xx status, or (GraphQL answers
 * 200 with `errors` for a failed field) a GraphQL answer carrying errors or not JSON.
 */
export function answerError(request, status, body) {
  if (status < 200 || status > 299) return `${request.path}: ${status} ${String(body).slice(0, 200)}`;
  if (request.path !== '/graphql') return undefined;
  try {
    const errors = JSON.parse(body).errors;
    return errors?.length ? `graphql: ${JSON.stringify(errors[0]).slice(0, 300)}` : undefined;
  } catch {
    return `graphql: not JSON: ${String(body).slice(0, 200)}`;
  }
}

/**
 * The mix closed loop with autocannon: `connections` each send the next request when the last answered, for
 * `seconds`. Answers {rps, p50, p90, p99, max (ms), requests, errors, firstError, autocannon} where errors counts
 * socket errors, timeouts, non-2xx answers and GraphQL answers with errors.
 */
export async function closedLoop({ url, requests, connections, seconds }) {
  const graphql = { errors: 0, first: undefined };
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: requests.map((r) =>
      r.path === '/graphql'
        ? {
            ...r,
            onResponse: (status, body) => {
              if (status < 200 || status > 299) return; // counted by autocannon as non-2xx
              const error = answerError(r, status, body);
              if (error) (graphql.errors++, (graphql.first ??= error));
            },
          }
        : r,
    ),
  });
  return {
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.errors + result.timeouts + result.non2xx + graphql.errors,
    errorKinds: { socket: result.errors, timeouts: result.timeouts, non2xx: result.non2xx, graphql: graphql.errors },
    ...(graphql.first ? { firstError: graphql.first } : {}),
    autocannon: result,
  };
}

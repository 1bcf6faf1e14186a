// (a) Gateway overhead: the same read through /v1/call, through GraphQL and straight to the service's gRPC
// method, closed loop at a fixed concurrency; requests/s, p50/p99, SQL statements per request, the CPU time of
// each process per request (when given a probe, lib/cpu.mjs) and the ratios.
import { measure } from './harness.mjs';
import { ESG } from './http.mjs';
import { statementsPerRequest } from './statements.mjs';

const round = (x, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

/** The reads of (a): each through the three faces. `grpc` holds clients of the taxonomy and portfolio services. */
export function overheadReads({ client, grpc, data, year }) {
  const caller = { accountId: data.accountId, role: 'user' };
  const investor = data.positions[0].investor;
  return [
    {
      read: 'getCategories (taxonomy)',
      v1: () => client.v1(data.key, ESG, 'getCategories', { reporting_year: year }),
      graphql: () => client.graphql(data.key, 'query($y: Int!) { categories(year: $y) { id name language } }', { y: year }),
      grpc: () => grpc.taxonomy.getCategories({ reportingYear: year }, { caller }),
    },
    {
      read: 'getPositions (portfolio)',
      v1: () => client.v1(data.key, ESG, 'getPositions', { investor_identifier: investor }),
      graphql: () => client.graphql(data.key, 'query($i: String) { positions(investorIdentifier: $i, first: 1000) { nodes { id amount currencyCode days startDate investorIdentifier assetIdentifier } } }', { i: investor }),
      grpc: () => grpc.portfolio.getPositions({ investorIdentifier: investor, investorIdentifiersAllowed: [], investorFilterActive: false }, { caller }),
    },
  ];
}

/**
 * Measures every read through every face; `metricsUrls` are the /metrics that count the SQL statements, `cpu`
 * a probe of the processes whose CPU time per request each measurement reports.
 */
export async function measureOverhead(reads, { concurrency, seconds, warmupSeconds = 1, metricsUrls, cpu, progress }) {
  const rows = [];
  const faces = ['v1', 'graphql', 'grpc'];
  for (const r of reads) {
    const row = { read: r.read };
    // Every face of the read runs untimed first: the gateway's and the service's code of this read is cold until
    // then, and the face measured first would pay for it (seconds of a slower path, in both processes).
    progress(`(a) ${r.read}: warming every face up, ${warmupSeconds} s each…`);
    for (const face of faces) await measure(r[face], { concurrency, durationMs: warmupSeconds * 1000, warmupMs: 0 });
    for (const face of faces) {
      progress(`(a) ${r.read} via ${face}: ${concurrency} concurrent for ${seconds} s…`);
      row[face] = await measure(r[face], { concurrency, durationMs: seconds * 1000, cpu });
      if (row[face].errors) progress(`    ${row[face].errors} errors, first: ${row[face].firstError}`);
      row[face].statementsPerRequest = await statementsPerRequest(metricsUrls, r[face]);
    }
    row.ratios = {
      v1VsGrpcThroughput: round(row.v1.rps / row.grpc.rps, 3),
      graphqlVsGrpcThroughput: round(row.graphql.rps / row.grpc.rps, 3),
      v1VsGrpcP99: round(row.v1.p99 / row.grpc.p99, 2),
      graphqlVsGrpcP99: round(row.graphql.p99 / row.grpc.p99, 2),
    };
    rows.push(row);
  }
  return rows;
}

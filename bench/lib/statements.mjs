// Statements per request: db_statements_total (every SQL statement the services send, counted by their
// data sources) read from /metrics before and after a fixed number of sequential requests: the system's
// one /metrics when everything runs in one process, every service's when each runs in its own.

// Backend calls likewise: grpc_server_handled_total of every service (each gRPC call a service answered).

/** The sum of the counters named `metric` over `metricsUrls`. */
async function counterSoFar(metricsUrls, metric) {
  let total = 0;
  for (const url of metricsUrls) {
    const text = await (await fetch(url)).text();
    for (const line of text.split('\n')) {
      if (line.startsWith(`${metric}{`)) total += Number(line.slice(line.lastIndexOf(' ') + 1));
    }
  }
  return total;
}

const statementsSoFar = (metricsUrls) => counterSoFar(metricsUrls, 'db_statements_total');

/** SQL statements per call of `request`, over `n` calls made one after another (nothing else running). */
export async function statementsPerRequest(metricsUrls, request, n = 50) {
  await request(); // warm: the first call may fill caches that later calls reuse
  const before = await statementsSoFar(metricsUrls);
  for (let i = 0; i < n; i++) await request();
  const after = await statementsSoFar(metricsUrls);
  return Math.round(((after - before) / n) * 100) / 100;
}

/**
 * SQL statements and backend (gRPC) calls per call of `request`, over `n` calls made one after another:
 * { statements, backendCalls }. The /metrics of the processes that answer gRPC (not the gateway's alone).
 */
export async function countsPerRequest(metricsUrls, request, n = 20) {
  await request();
  const before = await Promise.all([statementsSoFar(metricsUrls), counterSoFar(metricsUrls, 'grpc_server_handled_total')]);
  for (let i = 0; i < n; i++) await request();
  const after = await Promise.all([statementsSoFar(metricsUrls), counterSoFar(metricsUrls, 'grpc_server_handled_total')]);
  const per = (i) => Math.round(((after[i] - before[i]) / n) * 100) / 100;
  return { statements: per(0), backendCalls: per(1) };
}

// Statements per request: db_statements_total (every SQL statement the services send, counted by their
// data sources) read from /metrics before and after a fixed number of sequential requests: the system's
// one /metrics when everything runs in one process, every service's when each runs in its own.

async function statementsSoFar(metricsUrls) {
  let total = 0;
  for (const url of metricsUrls) {
    const text = await (await fetch(url)).text();
    for (const line of text.split('\n')) {
      if (line.startsWith('db_statements_total{')) total += Number(line.slice(line.lastIndexOf(' ') + 1));
    }
  }
  return total;
}

/** SQL statements per call of `request`, over `n` calls made one after another (nothing else running). */
export async function statementsPerRequest(metricsUrls, request, n = 50) {
  await request(); // warm: the first call may fill caches that later calls reuse
  const before = await statementsSoFar(metricsUrls);
  for (let i = 0; i < n; i++) await request();
  const after = await statementsSoFar(metricsUrls);
  return Math.round(((after - before) / n) * 100) / 100;
}

// Statements per request: db_statements_total (every SQL statement the services send, counted by their
// data sources) read from the system's /metrics before and after a fixed number of sequential requests.

async function statementsSoFar(gatewayUrl) {
  const text = await (await fetch(`${gatewayUrl}/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('db_statements_total{')) total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

/** SQL statements per call of `request`, over `n` calls made one after another (nothing else running). */
export async function statementsPerRequest(gatewayUrl, request, n = 50) {
  await request(); // warm: the first call may fill caches that later calls reuse
  const before = await statementsSoFar(gatewayUrl);
  for (let i = 0; i < n; i++) await request();
  const after = await statementsSoFar(gatewayUrl);
  return Math.round(((after - before) / n) * 100) / 100;
}

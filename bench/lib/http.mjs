// A small HTTP client for the benchmarks: node's own http with keep-alive, so every face of the gateway
// is driven by the same code and the client's cost is the same for all of them.
import http from 'node:http';

export const ESG = 'SVC.ESG.Credits';
export const HASH = 'SVC.Blockchain.Hash';

export function httpClient(baseUrl, { connections = 64 } = {}) {
  const url = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });

  function request(method, path, headers, body) {
    return new Promise((resolve, reject) => {
      const req = http.request(
        { host: url.hostname, port: url.port, method, path, agent, headers: { ...headers, ...(body ? { 'content-length': Buffer.byteLength(body) } : {}) } },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  /** POST /v1/call; throws on anything but 200 (a benchmark counts it as an error). */
  async function v1(key, solution, operation, parameters, headers = {}) {
    const envelope = solution === ESG ? {} : { version: 1, network: 'sepolia' };
    const body = JSON.stringify({ solution, operation, ...envelope, ...(parameters ? { parameters } : {}) });
    const res = await request('POST', '/v1/call', { 'content-type': 'application/json', 'x-api-key': key, ...headers }, body);
    if (res.status !== 200) throw new Error(`${operation}: ${res.status} ${res.text.slice(0, 300)}`);
    return JSON.parse(res.text);
  }

  /** POST /graphql; throws on a non-200 or any error in the answer. */
  async function graphql(key, query, variables = {}) {
    const res = await request('POST', '/graphql', { 'content-type': 'application/json', 'x-api-key': key }, JSON.stringify({ query, variables }));
    const body = JSON.parse(res.text);
    if (res.status !== 200 || body.errors) throw new Error(`graphql: ${res.status} ${res.text.slice(0, 300)}`);
    return body.data;
  }

  return { request, v1, graphql, close: () => agent.destroy() };
}

/** Runs `fn` over `items` with at most `concurrency` at a time; answers the results in order. */
export async function pool(items, concurrency, fn) {
  const out = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i], i);
      }
    }),
  );
  return out;
}

/**
 * `call()`, again after a pause (up to 5 tries) when the system refuses it as unavailable for now: a 503 from
 * the gateway (an error `<operation>: 503 …` from httpClient) or UNAVAILABLE from a service over gRPC. A
 * service's per-account share of its database pool refuses a call that waited a second for a connection,
 * before the call touched the database; on a busy shared machine the bench's setup and chain jobs must not
 * fail on what the system itself asks to be retried.
 */
export async function retryingUnavailable(call) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      const unavailable = err?.code === 'UNAVAILABLE' || /^\w+: 503 /.test(String(err?.message));
      if (attempt >= 5 || !unavailable) throw err;
      await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
    }
  }
}

import assert from 'node:assert/strict';
import http from 'node:http';

/** What a client saw: an answer, or a transport error (`cut` when a started response broke off). */
export type Outcome = { status: number; body: any } | { error: string };

export const answered = (o: Outcome): o is { status: number; body: any } => 'status' in o;
/** 200, and for GraphQL no errors beside the data. */
export const succeeded = (o: Outcome): boolean => answered(o) && o.status === 200 && !(o.body !== null && typeof o.body === 'object' && 'errors' in o.body);

/**
 * One request on a connection of its own (no keep-alive), so a refusal can only mean "not accepted".
 * A response cut after it started is reported as the error `cut`.
 */
export function request(url: string, body: unknown, headers: Record<string, string>): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = http.request(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => (text += c));
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode!, body: JSON.parse(text) });
        } catch {
          resolve({ error: 'cut' });
        }
      });
      res.on('aborted', () => resolve({ error: 'cut' }));
      res.on('error', () => resolve({ error: 'cut' }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    req.end(JSON.stringify(body));
  });
}

/** POST /v1/call as `apiKey`, with extra headers (Idempotency-Key, …). */
export const v1Call = (baseUrl: string, apiKey: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  request(`${baseUrl}/v1/call`, body, { 'x-api-key': apiKey, ...headers });

/** POST /graphql as `apiKey`. */
export const graphqlCall = (baseUrl: string, apiKey: string, query: string, variables: Record<string, unknown> = {}) =>
  request(`${baseUrl}/graphql`, { query, variables }, { 'x-api-key': apiKey });

/**
 * A failure the client can act on: /v1/call's 503 with the error model's body `{message, code:
 * "UNAVAILABLE"}`, a message that says to retry and gives away nothing internal.
 */
export function assertUnavailable(o: Outcome, what: string): void {
  assert.ok(answered(o), `${what}: no answer (${JSON.stringify(o)})`);
  assert.equal(o.status, 503, `${what}: ${JSON.stringify(o.body)}`);
  // SVC.Blockchain.Hash and SVC.NFT.zK failures also carry the spec's statusCode/statusMessage envelope.
  const keys = Object.keys(o.body).sort();
  const envelope = keys.includes('statusCode');
  assert.deepEqual(keys, envelope ? ['code', 'message', 'statusCode', 'statusMessage'] : ['code', 'message'], `${what}: ${JSON.stringify(o.body)}`);
  if (envelope) assert.deepEqual([o.body.statusCode, o.body.statusMessage], [503, o.body.message], what);
  assert.equal(o.body.code, 'UNAVAILABLE', what);
  assertRetryMessage(o.body.message, what);
}

/** The same for /graphql: 200 with one error whose extensions.code is SERVICE_UNAVAILABLE (gRPC UNAVAILABLE), and no data. */
export function assertGraphqlUnavailable(o: Outcome, what: string): void {
  assert.ok(answered(o), `${what}: no answer (${JSON.stringify(o)})`);
  assert.equal(o.status, 200, `${what}: ${JSON.stringify(o.body)}`);
  const errors = o.body.errors as { message: string; extensions: { code: string } }[] | undefined;
  assert.equal(errors?.length, 1, `${what}: ${JSON.stringify(o.body)}`);
  assert.deepEqual(errors[0]!.extensions, { code: 'SERVICE_UNAVAILABLE', grpcStatus: 'UNAVAILABLE' }, `${what}: ${JSON.stringify(o.body)}`);
  assertRetryMessage(errors[0]!.message, what);
}

function assertRetryMessage(message: unknown, what: string): void {
  assert.equal(typeof message, 'string', what);
  assert.match(message as string, /temporarily unavailable; please retry\.$/, `${what}: ${String(message)}`);
  assert.doesNotMatch(message as string, /ECONN|terminated|timeout|pool|\bat\b.+:\d+/i, `${what}: internals in "${String(message)}"`);
}

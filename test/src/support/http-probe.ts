import assert from 'node:assert/strict';

/** One raw HTTP exchange of the adversarial suites: what was sent and what came back, verbatim. */
export interface Probe {
  path: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

export interface Answer {
  status: number;
  text: string;
  json: unknown;
}

export async function send(baseUrl: string, probe: Probe): Promise<Answer> {
  let res: Response;
  try {
    res = await fetch(`${baseUrl}${probe.path}`, {
      method: probe.method ?? 'POST',
      headers: probe.headers ?? {},
      ...(probe.body !== undefined ? { body: probe.body } : {}),
    });
  } catch (err) {
    // undici says only "fetch failed"; its cause (a reset socket, a closed keep-alive, a timeout) is what tells a fault from a race.
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(`${probe.method ?? 'POST'} ${probe.path} failed: ${cause?.code ?? ''} ${cause?.message ?? String(err)}`.trim(), { cause: err });
  }
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json };
}

/** What must never reach a client: stack frames, driver or SQL errors, file paths. */
const INTERNALS = [
  /\n\s+at [\w.<$]/, // a stack frame
  /QueryFailedError|TypeORMError|EntityNotFound|PostgresError|PGlite/i,
  /node_modules|file:\/\/\/|\.[cm]?js:\d+:\d+/,
  /\bSELECT\b.+\bFROM\b|\bINSERT INTO\b|\bUPDATE\b.+\bSET\b/,
  /"stack"\s*:/,
];

/** Fails on an internal detail in `text`, unless the client sent that very text (an echo of its input). */
function assertNoInternals(text: string, sent: string, where: string): void {
  for (const pattern of INTERNALS) {
    const found = pattern.exec(text);
    if (found && !sent.includes(found[0]) && !JSON.stringify(sent).includes(found[0])) {
      assert.fail(`internal detail ${JSON.stringify(found[0])} in the answer: ${where}`);
    }
  }
}

/** Short, printable description of a probe for failure messages. */
export function describeProbe(probe: Probe, who: string): string {
  const body = typeof probe.body === 'string' ? probe.body : probe.body ? `<${probe.body.length} bytes>` : '';
  const shown = body.length > 600 ? `${body.slice(0, 600)}… (${body.length} chars)` : body;
  return `${probe.method ?? 'POST'} ${probe.path} as ${who} headers=${JSON.stringify(probe.headers ?? {})} body=${JSON.stringify(shown)}`;
}

/**
 * The contract of /v1/call under any input: a 2xx (when `allowSuccess`) or a 4xx whose body is
 * `{message, code}`; never a 5xx, never an internal detail.
 */
export function assertV1Answer(answer: Answer, sent: string, context: string, allowSuccess: boolean): void {
  const where = `${context}\n→ ${answer.status} ${answer.text.slice(0, 400)}`;
  assert.ok(answer.status < 500, `5xx for client input: ${where}`);
  assertNoInternals(answer.text, sent, where);
  if (answer.status >= 200 && answer.status < 300) {
    assert.ok(allowSuccess, `an invalid request succeeded: ${where}`);
    assert.notEqual(answer.json, undefined, `a 2xx that is not JSON: ${where}`);
    return;
  }
  assert.ok(answer.status >= 400, `unexpected status: ${where}`);
  const body = answer.json as { message?: unknown; code?: unknown } | undefined;
  assert.ok(body && typeof body === 'object' && !Array.isArray(body), `error body is not a JSON object: ${where}`);
  assert.equal(typeof body.message, 'string', `error body without message: ${where}`);
  assert.equal(typeof body.code, 'string', `error body without code: ${where}`);
  assert.ok((body.message as string).length <= 2_000, `an error message echoes too much: ${where}`);
}

/**
 * The contract of /graphql under any input: 200 with `data` and/or `errors` (GraphQL over HTTP), or a
 * 4xx request error with `errors`; never a 5xx, never INTERNAL, never a stack trace.
 */
export function assertGraphqlAnswer(answer: Answer, sent: string, context: string): void {
  const where = `${context}\n→ ${answer.status} ${answer.text.slice(0, 400)}`;
  assert.ok(answer.status < 500, `5xx for client input: ${where}`);
  assertNoInternals(answer.text, sent, where);
  assert.ok(answer.status === 200 || (answer.status >= 400 && answer.status < 500), `unexpected status: ${where}`);
  const body = answer.json as { data?: unknown; errors?: { message?: unknown; extensions?: { code?: unknown } }[] } | undefined;
  assert.ok(body && typeof body === 'object', `not a JSON answer: ${where}`);
  if (answer.status !== 200) assert.ok(Array.isArray(body.errors) && body.errors.length > 0, `a 4xx without errors: ${where}`);
  for (const error of body.errors ?? []) {
    assert.equal(typeof error.message, 'string', `an error without message: ${where}`);
    const code = error.extensions?.code;
    assert.equal(typeof code, 'string', `an error without extensions.code: ${where}`);
    assert.ok(code !== 'INTERNAL' && code !== 'INTERNAL_SERVER_ERROR', `a server fault for client input: ${where}`);
    // A service's refusal also carries its gRPC status (docs/graphql.md, Errors); nothing else is there.
    assert.ok(Object.keys(error.extensions ?? {}).every((key) => key === 'code' || key === 'grpcStatus'), `extensions beyond code and grpcStatus: ${where}`);
  }
}

/**
 * The gateway's /readyz says every backend serves (`ready`): what a started system waits for. A 200
 * alone is not enough since /readyz stays 200 while a backend is down (`degraded`).
 */
export async function everyBackendServing(baseUrl: string): Promise<boolean> {
  const res = await fetch(`${baseUrl}/readyz`);
  return res.status === 200 && ((await res.json()) as { status?: string }).status === 'ready';
}

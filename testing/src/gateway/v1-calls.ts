/**
 * POSTs a raw body to `baseUrl`/v1/call as a legacy client would (a string is sent as it is: malformed
 * JSON included) and answers the status, the parsed JSON (undefined when the body is not JSON), the text
 * and the headers. The gateway tests' one /v1/call client; `headers` usually from jsonHeaders(key).
 */
export async function postCall(baseUrl: string, body: string | object, headers: Record<string, string>) {
  const res = await fetch(`${baseUrl}/v1/call`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json: json as Record<string, unknown> & unknown[], text, headers: res.headers };
}

/** A /v1/call answer. */
export type CallAnswer = Awaited<ReturnType<typeof postCall>>;

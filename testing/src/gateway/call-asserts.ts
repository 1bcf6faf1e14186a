import assert from 'node:assert/strict';
import type { CallAnswer } from './v1-calls.js';

/** A /v1/call answer as the chain's call tests read it (its JSON untyped). */
export type CallResponse = Omit<CallAnswer, 'json'> & { json: any };

/** The answer is the refusal `status` / `code` with this text (or a text matching it). */
export function assertCallError(res: CallResponse, status: number, code: string, message: string | RegExp): void {
  assert.equal(res.status, status, res.text);
  assert.equal(res.json.code, code, res.text);
  if (typeof message === 'string') assert.equal(res.json.message, message);
  else assert.match(String(res.json.message), message);
}

/** The last call of `method` a service (fake or tapped) received. */
export function lastCall(service: { calls: readonly { method: string; request: unknown }[] } | undefined, method: string): { method: string; request: any } {
  const found = service?.calls.filter((c) => c.method === method).at(-1);
  assert.ok(found, `no ${method} call`);
  return found as { method: string; request: any };
}

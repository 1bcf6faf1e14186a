import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { Response } from 'express';

/**
 * A /v1/call answer written as it streams: the JSON of an object one of whose keys holds an array too long
 * to hold in memory (an investor's 240 000 impact records), whose items arrive in batches (a service's
 * pages). The bytes are exactly JSON.stringify's of the whole object: `head` is the text before the
 * array's `[`, `tail` the text after its `]`, and each batch is written as JSON.stringify writes array items.
 */
export class StreamedJson {
  constructor(
    readonly head: string,
    readonly batches: AsyncIterable<Batch>,
    readonly tail: string,
  ) {}
}

/**
 * Items already written: `text` is what JSON.stringify writes between an array's brackets for `count`
 * items, for a batch whose JSON is cheaper to write without an object per item (impact-records-json.ts).
 */
export class JsonItems {
  constructor(
    readonly text: string,
    readonly count: number,
  ) {}
}

/** A batch of a streamed array: its items, or their JSON. */
export type Batch = readonly unknown[] | JsonItems;

/**
 * `value` with the array at `key` (which `value` has, in the place it keeps) streamed from `batches`.
 * The key's place is found by JSON-stringifying `value` with a fresh random marker there.
 */
export function streamedJson(value: Readonly<Record<string, unknown>>, key: string, batches: AsyncIterable<Batch>): StreamedJson {
  if (!(key in value)) throw new Error(`A streamed answer needs its key "${key}" in place.`);
  const marker = JSON.stringify(`\u0000${randomUUID()}`);
  const text = JSON.stringify({ ...value, [key]: JSON.parse(marker) as string });
  const at = text.indexOf(marker);
  return new StreamedJson(text.slice(0, at), batches, text.slice(at + marker.length));
}

/**
 * Below this many bytes an answer is sent whole, with Content-Length, as sendJson sends every other answer:
 * a small streamed answer is the very response it was before streaming. Past it, the answer goes out
 * chunked, each batch written as it comes and the next one asked for once the socket took the last
 * (res.write + 'drain'), so the gateway holds about one batch whatever the answer's size.
 */
export const WHOLE_ANSWER_BYTES = 256 * 1024;

/**
 * Writes a streamed answer with status 200. A failure before anything was sent is thrown (the error
 * handler answers it as usual); after the first bytes the status is gone, so the connection is cut
 * (res.destroy): the client sees an incomplete answer, never a well-formed but truncated one.
 */
export async function sendStreamedJson(res: Response, answer: StreamedJson): Promise<void> {
  const iterator = answer.batches[Symbol.asyncIterator]();
  const closed = once(res, 'close');
  closed.catch(() => undefined); // an 'error' on res rejects it; the socket's fate is seen through res.destroyed
  let pending: string[] = [answer.head, '['];
  let pendingBytes = 0;
  let started = false;
  let items = 0;
  const write = async (text: string) => {
    if (!started) {
      pending.push(text);
      pendingBytes += text.length;
      if (pendingBytes < WHOLE_ANSWER_BYTES) return;
      started = true;
      res.statusCode = 200;
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      text = pending.join('');
      pending = [];
    }
    if (!res.write(text)) await Promise.race([once(res, 'drain'), closed]);
  };
  try {
    for (;;) {
      if (res.destroyed) return;
      const next = await iterator.next();
      if (next.done) break;
      const batch = next.value;
      const count = batch instanceof JsonItems ? batch.count : batch.length;
      if (count === 0) continue;
      const json = batch instanceof JsonItems ? batch.text : JSON.stringify(batch).slice(1, -1);
      await write(items > 0 ? `,${json}` : json);
      items += count;
    }
  } catch (err) {
    if (!started) throw err;
    res.destroy(err instanceof Error ? err : new Error(String(err)));
    return;
  } finally {
    await iterator.return?.();
  }
  const end = `]${answer.tail}`;
  if (started) {
    res.end(end);
    return;
  }
  const body = pending.join('') + end;
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

import { identifier, text } from '../fields.js';
import { declare, type CallContext } from '../operation.js';
import { HASH } from '../renders.js';
import { jobAnswer, queuedJob } from './faces.js';
import { requestEcho } from './job-shapes.js';

/**
 * Key-value storage on a chain (spec §4.12, SVC.Blockchain.Hash), served by ChainService: each call a job,
 * answered at once with `{statusCode, statusMessage, info: {jobId}}` on /v1/call and the queued Job in a
 * JobPayload on GraphQL. The envelope carries version 1 and `network` (GraphQL: `input.network`); keys
 * live in the caller's namespace on the contract. The chain service owns every rule: keys of at most 32
 * characters without control characters, bytes32 values of 32 characters and 32 bytes, the network's
 * insertString limit, the network names, the Idempotency-Key.
 */

/** Keys arrive as numbers from some legacy clients: an identifier, so `42` is the key "42". */
const key = identifier('key', { doc: 'At most 32 characters.' });
/** GraphQL's one input type of both inserts, its value described for both. */
const KEY_VALUE_INPUT = { name: 'KeyValueInput', fields: { value: "insertBytes32: at most 32 characters and 32 bytes of UTF-8. insertString: up to the network's limit." } };

/** What a key-value request carries besides its key and value: the network, the Idempotency-Key and the legacy echo. */
function jobFields(operation: string, parameters: Record<string, unknown>, ctx: CallContext) {
  const network = ctx.envelope?.network ?? '';
  return { network, idempotencyKey: ctx.idempotencyKey, requestEcho: requestEcho(HASH, operation, parameters, { version: 1, ...ctx.envelope }) };
}

/** A key-value job of ChainService's method of the spec's name, queued on the envelope's network. */
const keyValueJob = <M extends string>(method: M, summary: string) => ({
  solution: HASH,
  operation: method,
  summary,
  service: 'chain' as const,
  method,
  envelope: { version: 'required', network: 'required' } as const,
  v1: jobAnswer,
});

/** Stores a value under a key; the inserts differ in what the value may hold. */
const insert = <M extends string>(method: M, summary: string, valueDoc: string) => ({
  ...keyValueJob(method, summary),
  input: { key, value: text('value', { doc: valueDoc }) },
  request: (i: { key: string; value: string }, ctx: CallContext) => ({ ...jobFields(method, i, ctx), key: i.key, value: i.value }),
  graphql: queuedJob(method, { input: KEY_VALUE_INPUT }),
});

/** Reads a key; the job's fetch answers the value. */
const select = <M extends string>(method: M, summary: string) => ({
  ...keyValueJob(method, summary),
  input: { key },
  request: (i: { key: string }, ctx: CallContext) => ({ ...jobFields(method, i, ctx), key: i.key }),
  graphql: queuedJob(method, { input: { name: 'KeySelectInput' } }),
});

const insertString = declare(insert('insertString', "Stores a string under a key of the caller's namespace; the network limits its size.", "Up to the network's limit."));
const insertBytes32 = declare(insert('insertBytes32', "Stores up to 32 bytes under a key of the caller's namespace.", 'At most 32 characters and 32 bytes of UTF-8.'));
const selectString = declare(select('selectString', 'Reads a string key; fetch answers the value.'));
const selectBytes32 = declare(select('selectBytes32', 'Reads a bytes32 key; fetch answers the value.'));

export const keyValueOperations = [insertString, insertBytes32, selectString, selectBytes32];

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


const insertString = declare({
  solution: HASH,
  operation: 'insertString',
  summary: "Stores a string under a key of the caller's namespace; the network limits its size.",
  input: { key, value: text('value', { doc: "Up to the network's limit." }) },
  service: 'chain',
  method: 'insertString',
  envelope: { version: 'required', network: 'required' },
  request: (i, ctx) => ({ ...jobFields('insertString', i, ctx), key: i.key, value: i.value }),
  v1: jobAnswer,
  graphql: queuedJob('insertString', { input: KEY_VALUE_INPUT }),
});

const insertBytes32 = declare({
  solution: HASH,
  operation: 'insertBytes32',
  summary: "Stores up to 32 bytes under a key of the caller's namespace.",
  input: { key, value: text('value', { doc: 'At most 32 characters and 32 bytes of UTF-8.' }) },
  service: 'chain',
  method: 'insertBytes32',
  envelope: { version: 'required', network: 'required' },
  request: (i, ctx) => ({ ...jobFields('insertBytes32', i, ctx), key: i.key, value: i.value }),
  v1: jobAnswer,
  graphql: queuedJob('insertBytes32', { input: KEY_VALUE_INPUT }),
});

const selectString = declare({
  solution: HASH,
  operation: 'selectString',
  summary: 'Reads a string key; fetch answers the value.',
  input: { key },
  service: 'chain',
  method: 'selectString',
  envelope: { version: 'required', network: 'required' },
  request: (i, ctx) => ({ ...jobFields('selectString', i, ctx), key: i.key }),
  v1: jobAnswer,
  graphql: queuedJob('selectString', { input: { name: 'KeySelectInput' } }),
});

const selectBytes32 = declare({
  solution: HASH,
  operation: 'selectBytes32',
  summary: 'Reads a bytes32 key; fetch answers the value.',
  input: { key },
  service: 'chain',
  method: 'selectBytes32',
  envelope: { version: 'required', network: 'required' },
  request: (i, ctx) => ({ ...jobFields('selectBytes32', i, ctx), key: i.key }),
  v1: jobAnswer,
  graphql: queuedJob('selectBytes32', { input: { name: 'KeySelectInput' } }),
});

export const keyValueOperations = [insertString, insertBytes32, selectString, selectBytes32];

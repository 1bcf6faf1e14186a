import { defineOperation, type OperationContext } from '../operation.js';
import { requestEcho } from './blockchain-params.js';
import { fetchAnswer, jobAccepted } from './blockchain-shapes.js';
import { chain, jobOf } from './chain-calls.js';
import { checkBytes32Value, checkKey, fetchParams, insertBytes32Params, insertStringParams, selectParams } from './hash-params.js';
import { call } from './taxonomy.js';

/**
 * /v1/call operations of SVC.Blockchain.Hash (spec §4.12): key-value storage on a chain, each call a job of
 * ChainService answered at once with `{statusCode, statusMessage, info: {jobId}}`; `fetch` (unnamed in the
 * spec) reads the job's outcome, for selects the value read. The envelope carries `version` 1 and
 * `network` (required, envelope.ts checks them); keys live in the caller's namespace on the contract.
 */

const HASH = 'SVC.Blockchain.Hash';
/** Every job-creating operation of the Hash solution needs both envelope fields. */
const JOB_ENVELOPE = { version: 'required', network: 'required' } as const;

/** What a key-value RPC takes besides key and value. */
function jobFields(ctx: OperationContext, operation: string, parameters: Record<string, unknown>) {
  const network = ctx.envelope.network!;
  return {
    network,
    idempotencyKey: ctx.http.idempotencyKey,
    requestEcho: requestEcho(HASH, operation, parameters, ctx.envelope),
  };
}

export const hashOperations = [
  defineOperation({
    solution: HASH,
    operation: 'insertString',
    params: insertStringParams,
    envelope: JOB_ENVELOPE,
    async handler(p, ctx) {
      const key = checkKey(p.key);
      const res = await chain(ctx).insertString({ ...jobFields(ctx, 'insertString', p), key, value: p.value }, call(ctx));
      return jobAccepted(res.jobId || jobOf(res).id);
    },
  }),
  defineOperation({
    solution: HASH,
    operation: 'selectString',
    params: selectParams,
    envelope: JOB_ENVELOPE,
    async handler(p, ctx) {
      const key = checkKey(p.key);
      const res = await chain(ctx).selectString({ ...jobFields(ctx, 'selectString', p), key }, call(ctx));
      return jobAccepted(res.jobId || jobOf(res).id);
    },
  }),
  defineOperation({
    solution: HASH,
    operation: 'insertBytes32',
    params: insertBytes32Params,
    envelope: JOB_ENVELOPE,
    async handler(p, ctx) {
      const key = checkKey(p.key);
      const value = checkBytes32Value(p.value);
      const res = await chain(ctx).insertBytes32({ ...jobFields(ctx, 'insertBytes32', p), key, value }, call(ctx));
      return jobAccepted(res.jobId || jobOf(res).id);
    },
  }),
  defineOperation({
    solution: HASH,
    operation: 'selectBytes32',
    params: selectParams,
    envelope: JOB_ENVELOPE,
    async handler(p, ctx) {
      const key = checkKey(p.key);
      const res = await chain(ctx).selectBytes32({ ...jobFields(ctx, 'selectBytes32', p), key }, call(ctx));
      return jobAccepted(res.jobId || jobOf(res).id);
    },
  }),
  defineOperation({
    // Any job of the account, whatever its kind (a document write's too): `{statusCode, statusMessage, info}`.
    // version is required as on every Hash call (spec §4.1); network is not: the job knows its network.
    solution: HASH,
    operation: 'fetch',
    params: fetchParams,
    envelope: { version: 'required' },
    async handler(p, ctx) {
      return fetchAnswer(jobOf(await chain(ctx).getJob({ jobId: p.jobId }, call(ctx))));
    },
  }),
];

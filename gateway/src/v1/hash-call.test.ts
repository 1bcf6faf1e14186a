import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { postCall } from '@green-impact/testing/gateway/v1-calls';
import { jsonHeaders, startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { assertCallError, lastCall, type CallResponse } from '@green-impact/testing/gateway/call-asserts';

/**
 * /v1/call for SVC.Blockchain.Hash (spec §4.12) on the real services: identity and the chain service running
 * the key-value jobs on its embedded network. The refusals of keys, values and networks are the chain
 * service's, with its texts; the answers' shapes, the request echo and the Idempotency-Key are the gateway's
 * declarations (catalogue/chain/key-value.ts).
 */

const HASH = 'SVC.Blockchain.Hash';
const UUID = /^[0-9a-f-]{36}$/;

let t: TestGateway;
let ACME: Record<string, string>;
let OTHER: Record<string, string>;
before(async () => {
  t = await startTestGateway({}, { chain: true });
  ACME = jsonHeaders(t.userKey);
  OTHER = jsonHeaders((await t.createAccount('Other')).apiKey);
});
after(async () => {
  await t.stop();
});

type Res = CallResponse;

const post = (body: object, headers: Record<string, string>): Promise<Res> => postCall(t.baseUrl, body, headers);
const hash = (operation: string, parameters: Record<string, unknown>, envelope: Record<string, unknown> = { version: 1, network: 'sepolia' }, headers = ACME) =>
  post({ solution: HASH, operation, ...envelope, parameters }, headers);

const assertError = assertCallError;

const lastChainRequest = (method: string) => lastCall(t.chain, method).request;

describe("the chain service's refusals reach the client as its 400", () => {
  test('a key of 33 characters: the text is the service\'s', async () => {
    assertError(await hash('insertString', { key: 'k'.repeat(33), value: 'v' }), 400, 'INVALID_ARGUMENT', 'key must be at most 32 characters, got 33.');
    assertError(await hash('selectBytes32', { key: 'k'.repeat(33) }), 400, 'INVALID_ARGUMENT', 'key must be at most 32 characters, got 33.');
  });
});

describe('unknown networks are 400 with the list of known ones', () => {
  test('on a Hash call (the chain service says so)', async () => {
    assertError(await hash('insertString', { key: 'k', value: 'v' }, { version: 1, network: 'goerli' }), 400, 'INVALID_ARGUMENT',
      'Unknown network "goerli"; expected one of sepolia, amoy, mumbai.');
  });
});

describe('key-value storage (SVC.Blockchain.Hash)', () => {
  test('insert, select and fetch; the select reads what was inserted', async () => {
    const insert = await hash('insertString', { key: 'greeting', value: 'hello' });
    assert.equal(insert.status, 200, insert.text);
    assert.deepEqual(Object.keys(insert.json), ['statusCode', 'statusMessage', 'info']);
    assert.equal(insert.json.statusCode, 200);
    assert.equal(insert.json.statusMessage, '');
    assert.match(insert.json.info.jobId, UUID);
    assert.deepEqual(lastChainRequest('insertString').requestEcho, {
      solution: HASH, version: 1, network: 'sepolia', operation: 'insertString', parameters: { key: 'greeting', value: 'hello' },
    });
    await t.settledJob(insert.json.info.jobId);

    const select = await hash('selectString', { key: 'greeting' });
    await t.settledJob(select.json.info.jobId);
    const fetched = await hash('fetch', { jobId: select.json.info.jobId }, { version: 1 });
    assert.equal(fetched.status, 200, fetched.text);
    assert.deepEqual(fetched.json.info.status, { Value: 'completed' });
    assert.deepEqual(fetched.json.info.result, { key: 'greeting', value: 'hello' });
    // job_id is accepted as well; the network, when sent, is only checked for its form.
    assert.deepEqual((await hash('fetch', { job_id: select.json.info.jobId }, { version: 1, network: 'amoy' })).json, fetched.json);
  });

  test('bytes32: 32 bytes of multi-byte UTF-8 pass', async () => {
    const res = await hash('insertBytes32', { key: 'k32', value: 'é'.repeat(16) });
    assert.equal(res.status, 200, res.text);
    assert.equal(lastChainRequest('insertBytes32').value, 'é'.repeat(16));
  });

  test('the body field `contract` is accepted in place of `solution`', async () => {
    const res = await post({ contract: HASH, version: 1, network: 'sepolia', operation: 'selectString', parameters: { key: 'greeting' } }, ACME);
    assert.equal(res.status, 200, res.text);
    assert.match(res.json.info.jobId, UUID);
  });

  test('Idempotency-Key: the same key answers the same job; another request with it is refused', async () => {
    const headers = { ...ACME, 'idempotency-key': 'order-42' };
    const first = await post({ solution: HASH, version: 1, network: 'sepolia', operation: 'insertString', parameters: { key: 'k', value: 'v1' } }, headers);
    const again = await post({ solution: HASH, version: 1, network: 'sepolia', operation: 'insertString', parameters: { key: 'k', value: 'v1' } }, headers);
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(again.json, first.json);
    assert.equal(lastChainRequest('insertString').idempotencyKey, 'order-42');
    const other = await post({ solution: HASH, version: 1, network: 'sepolia', operation: 'insertString', parameters: { key: 'k', value: 'v2' } }, headers);
    assertError(other, 400, 'FAILED_PRECONDITION', /^Idempotency-Key "order-42" was already used for a different request/);
    // Keys are per account: another account's same key is another job.
    const theirs = await post({ solution: HASH, version: 1, network: 'sepolia', operation: 'insertString', parameters: { key: 'k', value: 'v1' } }, { ...OTHER, 'idempotency-key': 'order-42' });
    assert.notEqual(theirs.json.info.jobId, first.json.info.jobId);
  });
});

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { postCall } from '@green-impact/testing/gateway/v1-calls';
import { jsonHeaders, startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';

const ESG = 'SVC.ESG.Credits';

let t: TestGateway;
/** The keys the cases name: `user-key` (account Acme), `op-key` (the bootstrap operator), `revoked-key` (issued, then revoked). */
let keys: Record<string, string>;
/** The case's headers with its named key put in. */
const keyed = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, name === 'x-api-key' ? (keys[value] ?? value) : value]));
const JSON_HEADERS = { 'content-type': 'application/json', 'x-api-key': 'user-key' };
before(async () => {
  t = await startTestGateway();
  keys = { 'user-key': t.userKey, 'op-key': t.operatorKey, 'revoked-key': await t.revokedKey() };
});
after(async () => {
  await t.stop();
});

/** Every failure is a 4xx with the one error body. */
function assertClientError(res: Awaited<ReturnType<typeof postCall>>, status: number, code: string, message?: string | RegExp, statusEnvelope = false) {
  assert.equal(res.status, status, `status for ${res.text}`);
  assert.equal(res.headers.get('content-type')?.split(';')[0], 'application/json');
  assert.equal(typeof res.json?.message, 'string', res.text);
  assert.equal(res.json.code, code, res.text);
  // Hash and NFT failures also carry the spec's {statusCode, statusMessage}.
  if (statusEnvelope) {
    assert.deepEqual(Object.keys(res.json).sort(), ['code', 'message', 'statusCode', 'statusMessage']);
    assert.deepEqual([res.json.statusCode, res.json.statusMessage], [status, res.json.message]);
  } else assert.deepEqual(Object.keys(res.json).sort(), ['code', 'message']);
  if (typeof message === 'string') assert.equal(res.json.message, message);
  else if (message) assert.match(res.json.message as string, message);
}

describe('bad input never yields a 5xx', () => {
  const cases: { name: string; body: string; headers?: Record<string, string>; status: number; code: string; message?: string | RegExp }[] = [
    { name: 'non-JSON', body: 'solution=SVC.ESG.Credits', status: 400, code: 'INVALID_ARGUMENT', message: 'The request body is not valid JSON.' },
    { name: 'truncated JSON', body: '{"solution": "SVC.ESG.Credits", "operation": ', status: 400, code: 'INVALID_ARGUMENT', message: 'The request body is not valid JSON.' },
    { name: 'empty body', body: '', status: 400, code: 'INVALID_ARGUMENT' },
    { name: 'JSON null', body: 'null', status: 400, code: 'INVALID_ARGUMENT', message: /must be a JSON object/ },
    { name: 'JSON string', body: '"getGroups"', status: 400, code: 'INVALID_ARGUMENT', message: /must be a JSON object/ },
    { name: 'array body', body: JSON.stringify([{ solution: ESG, operation: 'getGroups' }]), status: 400, code: 'INVALID_ARGUMENT', message: /must be a JSON object/ },
    { name: 'missing solution', body: JSON.stringify({ operation: 'getGroups' }), status: 400, code: 'INVALID_ARGUMENT', message: 'solution is required.' },
    { name: 'solution not a string', body: JSON.stringify({ solution: { a: 1 }, operation: 'getGroups' }), status: 400, code: 'INVALID_ARGUMENT', message: 'solution must be a string.' },
    { name: 'unknown solution', body: JSON.stringify({ solution: 'SVC.Nope', operation: 'getGroups' }), status: 400, code: 'INVALID_ARGUMENT', message: /Unknown solution "SVC\.Nope"/ },
    { name: 'missing operation', body: JSON.stringify({ solution: ESG }), status: 400, code: 'INVALID_ARGUMENT', message: 'operation is required.' },
    { name: 'operation not a string', body: JSON.stringify({ solution: ESG, operation: 7 }), status: 400, code: 'INVALID_ARGUMENT', message: 'operation must be a string.' },
    { name: 'unknown operation', body: JSON.stringify({ solution: ESG, operation: 'getEverything' }), status: 400, code: 'INVALID_ARGUMENT', message: `Unknown operation "getEverything" for solution ${ESG}.` },
    { name: 'operation of another solution', body: JSON.stringify({ solution: 'SVC.NFT.zK', version: 1, network: 'sepolia', operation: 'getGroups' }), status: 400, code: 'INVALID_ARGUMENT', message: /Unknown operation "getGroups" for solution SVC\.NFT\.zK/ },
    { name: 'Hash version 2', body: JSON.stringify({ solution: 'SVC.Blockchain.Hash', version: 2, network: 'sepolia', operation: 'insertString' }), status: 400, code: 'INVALID_ARGUMENT', message: 'version must be 1.' },
    { name: 'parameters an array', body: JSON.stringify({ solution: ESG, operation: 'getUsers', parameters: ['u1'] }), status: 400, code: 'INVALID_ARGUMENT', message: 'parameters must be a JSON object.' },
    { name: 'parameters a string', body: JSON.stringify({ solution: ESG, operation: 'getUsers', parameters: 'user_identifier=u1' }), status: 400, code: 'INVALID_ARGUMENT', message: 'parameters must be a JSON object.' },
    { name: 'null parameters where one is required', body: JSON.stringify({ solution: ESG, operation: 'removeUser', parameters: null }), status: 400, code: 'INVALID_ARGUMENT', message: 'user_identifier is required.' },
    { name: 'addUser without user_identifier', body: JSON.stringify({ solution: ESG, operation: 'addUser', parameters: { user_first_name: 'Ann' } }), status: 400, code: 'INVALID_ARGUMENT', message: 'User identifier is missing.' },
    { name: 'wrong parameter type', body: JSON.stringify({ solution: ESG, operation: 'removeUser', parameters: { user_identifier: { $ne: null } } }), status: 400, code: 'INVALID_ARGUMENT', message: 'user_identifier must be a string.' },
    { name: 'huge number as identifier', body: '{"solution":"SVC.ESG.Credits","operation":"removeUser","parameters":{"user_identifier":1e999}}', status: 400, code: 'INVALID_ARGUMENT', message: 'user_identifier must be a string.' },
    // An overlong identifier and a malformed e-mail address are the identity service's refusals now: checked
    // against the real service in catalogue/identity/identity.test.ts (same statuses and texts).
    { name: 'control characters in identifier', body: JSON.stringify({ solution: ESG, operation: 'removeUser', parameters: { user_identifier: 'u1\r\nX-Injected: 1' } }), status: 400, code: 'INVALID_ARGUMENT', message: 'user_identifier must not contain control characters.' },
    { name: 'bad user_role', body: JSON.stringify({ solution: ESG, operation: 'addUser', parameters: { user_identifier: 'u1', user_role: 'root' } }), status: 400, code: 'INVALID_ARGUMENT', message: 'user_role must be user or admin.' },
    // Refused before anything walks it, even where the operation would ignore the parameter (issue 46).
    { name: 'deeply nested JSON', body: `{"solution":"SVC.ESG.Credits","operation":"getUsers","parameters":{"x":${'['.repeat(5000)}${']'.repeat(5000)}}}`, status: 400, code: 'INVALID_ARGUMENT', message: 'The request body nests arrays and objects more than 64 levels deep; at most 64 are allowed.' },
    { name: 'oversized body', body: JSON.stringify({ solution: ESG, operation: 'getUsers', parameters: { pad: 'x'.repeat(20_000) } }), status: 413, code: 'PAYLOAD_TOO_LARGE', message: /larger than the limit of 16384 bytes/ },
    { name: 'text/plain content type', body: JSON.stringify({ solution: ESG, operation: 'getGroups' }), headers: { 'content-type': 'text/plain', 'x-api-key': 'user-key' }, status: 400, code: 'INVALID_ARGUMENT', message: 'Content-Type must be application/json.' },
    { name: 'form content type', body: 'solution=SVC.ESG.Credits', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-api-key': 'user-key' }, status: 400, code: 'INVALID_ARGUMENT', message: 'Content-Type must be application/json.' },
    { name: 'unsupported charset', body: JSON.stringify({ solution: ESG, operation: 'getGroups' }), headers: { 'content-type': 'application/json; charset=ebcdic', 'x-api-key': 'user-key' }, status: 400, code: 'INVALID_ARGUMENT', message: 'The request body must be encoded as UTF-8.' },
    { name: 'unsupported content encoding', body: JSON.stringify({ solution: ESG, operation: 'getGroups' }), headers: { 'content-type': 'application/json', 'content-encoding': 'br2', 'x-api-key': 'user-key' }, status: 400, code: 'INVALID_ARGUMENT' },
    { name: 'corrupt gzip body', body: JSON.stringify({ solution: ESG, operation: 'getGroups' }), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', 'x-api-key': 'user-key' }, status: 400, code: 'INVALID_ARGUMENT', message: 'The request body could not be read.' },
    { name: 'missing key', body: JSON.stringify({ solution: ESG, operation: 'getGroups' }), headers: { 'content-type': 'application/json' }, status: 401, code: 'UNAUTHENTICATED', message: 'Please submit client identifier.' },
    { name: 'empty key', body: JSON.stringify({ solution: ESG, operation: 'getGroups' }), headers: { 'content-type': 'application/json', 'x-api-key': '' }, status: 401, code: 'UNAUTHENTICATED', message: 'Please submit client identifier.' },
    { name: 'unknown key', body: JSON.stringify({ solution: ESG, operation: 'getGroups' }), headers: { 'content-type': 'application/json', 'x-api-key': 'guess' }, status: 401, code: 'UNAUTHENTICATED', message: 'The API key is not valid.' },
    { name: 'revoked key', body: JSON.stringify({ solution: ESG, operation: 'getGroups' }), headers: { 'content-type': 'application/json', 'x-api-key': 'revoked-key' }, status: 401, code: 'UNAUTHENTICATED', message: 'The API key is not valid.' },
    { name: 'absurdly long key', body: JSON.stringify({ solution: ESG, operation: 'getGroups' }), headers: { 'content-type': 'application/json', 'x-api-key': 'k'.repeat(4000) }, status: 401, code: 'UNAUTHENTICATED', message: 'The API key is not valid.' },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const res = await postCall(t.baseUrl, c.body, keyed(c.headers ?? JSON_HEADERS));
      assert.ok(res.status < 500, `${c.name}: got ${res.status} ${res.text}`);
      if (c.status === 200) assert.equal(res.status, 200, res.text);
      else assertClientError(res, c.status, c.code, c.message, /"solution":"SVC\.(Blockchain\.Hash|NFT\.zK)"/.test(c.body));
    });
  }

  test('GET /v1/call and unknown routes answer 404 with the error body', async () => {
    const get = await fetch(`${t.baseUrl}/v1/call`);
    assert.equal(get.status, 404);
    assert.deepEqual(await get.json(), { message: 'Every operation is POST /v1/call.', code: 'NOT_FOUND' });
    const other = await fetch(`${t.baseUrl}/v2/call`, { method: 'POST' });
    assert.equal(other.status, 404);
    assert.equal(((await other.json()) as { code: string }).code, 'NOT_FOUND');
  });
});

describe('identity operations', () => {
  const call = (operation: string, parameters?: unknown, apiKey = t.userKey) =>
    postCall(t.baseUrl, { solution: ESG, operation, ...(parameters === undefined ? {} : { parameters }) }, jsonHeaders(apiKey));

  test('getGroups: array of {id, group}; the caller travels to identity', async () => {
    const res = await call('getGroups');
    assert.equal(res.status, 200);
    assert.deepEqual(res.json[0], { id: 1, group: 'bankers' });
    assert.equal(res.json.length, 7);
    const last = t.identity.calls.at(-1)!;
    assert.equal(last.method, 'getGroups');
    assert.deepEqual(last.caller?.accountId, t.user.accountId);
    assert.equal(last.caller?.role, 'user');
  });

  test('getUsers and getInvestorsOfUser answer 200 with the message when no users are registered', async () => {
    for (const op of ['getUsers', 'getInvestorsOfUser']) {
      const res = await call(op, undefined, t.operatorKey);
      assert.equal(res.status, 200);
      assert.deepEqual(res.json, { message: 'No users are registered.' });
    }
  });

  test('addUser, groups, investors, getUsers and getInvestorsOfUser shapes', async () => {
    const added = await call('addUser', {
      user_identifier: 'u1',
      user_first_name: 'Ann',
      user_email: 'ann@example.org',
      user_role: 'ADMIN',
      legacy_extra: 'ignored',
    });
    assert.equal(added.status, 200, added.text);
    assert.deepEqual(added.json, { message: 'User added.' });
    assert.equal((await call('addGroupToUser', { user_identifier: 'u1', group: 'investors' })).status, 200);
    const dup = await call('addGroupToUser', { user_identifier: 'u1', group: 'investors' });
    assertClientError(dup, 409, 'ALREADY_EXISTS', 'Group is already connected to user.');
    assert.deepEqual((await call('addInvestorToUser', { user_identifier: 'u1', investor_identifier: 'inv-1' })).json, {
      message: 'Investor added to user.',
    });

    const users = await call('getUsers', { user_identifier: 'u1', decryption_key: '' });
    assert.equal(users.status, 200);
    assert.deepEqual(users.json, [
      {
        user_id: 1,
        user_identifier: 'u1',
        user_first_name: 'Ann',
        user_last_name: null,
        user_email: 'ann@example.org',
        user_role: 'admin',
        user_groups: [{ group_id: 2, group: 'investors' }],
      },
    ]);
    const investors = await call('getInvestorsOfUser', {});
    assert.deepEqual(investors.json, [
      {
        user_id: 1,
        user_identifier: 'u1',
        investors: [{ investor_id: null, investor_identifier: 'inv-1', investor_name: null }],
      },
    ]);

    assertClientError(
      await call('removeInvestorFromUser', { user_identifier: 'u1', investor_identifier: 'inv-2' }),
      404,
      'NOT_FOUND',
      'No such investor.',
    );
    assert.equal((await call('removeInvestorFromUser', { user_identifier: 'u1', investor_identifier: 'inv-1' })).status, 200);
    assert.equal((await call('removeGroupFromUser', { user_identifier: 'u1', group: 'investors' })).status, 200);
    assert.deepEqual((await call('removeUser', { user_identifier: 'u1' })).json, { message: 'User removed.' });
    assertClientError(await call('removeUser', { user_identifier: 'u1' }), 404, 'NOT_FOUND', 'No such user.');
  });

  test('generateEncryptionKey answers {message: <key>}', async () => {
    const res = await call('generateEncryptionKey');
    assert.equal(res.status, 200);
    assert.match(res.json.message as string, /^[0-9a-f]{64}$/);
  });

  test('an unexpected backend failure is a 500 that reveals nothing', async () => {
    const broken = await t.createAccount('Broken');
    const lift = t.identity.fail((c) => c.method === 'getGroups' && c.caller?.accountId === broken.caller.accountId, new Error('relation "groups" does not exist at db.internal:5432'));
    try {
      const res = await call('getGroups', undefined, broken.apiKey);
      assert.equal(res.status, 500);
      assert.deepEqual(res.json, { message: 'Internal error.', code: 'INTERNAL' });
    } finally {
      lift();
    }
  });

  test('X-Request-Id: a given one is echoed and reaches identity; otherwise one is made', async () => {
    const given = await postCall(t.baseUrl, { solution: ESG, operation: 'getGroups' }, jsonHeaders(t.userKey, { 'x-request-id': 'req-123' }));
    assert.equal(given.headers.get('x-request-id'), 'req-123');
    assert.equal(t.identity.calls.at(-1)?.requestId, 'req-123');
    const made = await postCall(t.baseUrl, { solution: ESG, operation: 'getGroups' }, jsonHeaders(t.userKey, { 'x-request-id': 'bad id\u00e9' }));
    assert.match(made.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    const failed = await postCall(t.baseUrl, 'nope', jsonHeaders(t.userKey));
    assert.match(failed.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  });
});

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { gqlAt, onlyError, type GqlResponse } from '@green-impact/testing/gateway/graphql-calls';

let t: TestGateway;

const gql = (query: string, variables: Record<string, unknown> = {}, apiKey: string | null = t.userKey): Promise<GqlResponse> =>
  gqlAt(t.baseUrl, query, variables, apiKey);
before(async () => {
  t = await startTestGateway();
});
after(async () => {
  await t.stop();
});

describe('authentication', () => {
  test('me resolves the key to its account', async () => {
    const res = await gql('{ me { id name role createdAt } }');
    assert.equal(res.status, 200);
    const { account } = await t.identity.client.authenticate({ apiKey: t.userKey });
    assert.match(account!.createdAt, /^\d{4}-\d\d-\d\dT/);
    assert.deepEqual(res.body.data, { me: { id: t.user.accountId, name: 'Acme', role: 'USER', createdAt: account!.createdAt } });
  });

  test('no key: UNAUTHENTICATED with the spec text', async () => {
    const res = await gql('{ me { id } }', {}, null);
    assert.deepEqual(onlyError(res), { message: 'Please submit client identifier.', code: 'UNAUTHENTICATED' });
  });

  test('bad or revoked key: UNAUTHENTICATED', async () => {
    assert.deepEqual(onlyError(await gql('{ groups { id } }', {}, 'guess')), {
      message: 'The API key is not valid.',
      code: 'UNAUTHENTICATED',
    });
    assert.equal(onlyError(await gql('{ groups { id } }', {}, await t.revokedKey())).code, 'UNAUTHENTICATED');
  });

  test('the key is checked at most once per request, however many fields need it, and then served from the cache', async () => {
    const checks = () => t.identity.calls.filter((c) => c.method === 'authenticate').length;
    const before = checks();
    const res = await gql('{ me { id } groups { id } users { nodes { id } } }');
    assert.equal(res.body.errors, undefined);
    assert.ok(checks() <= before + 1);
    const cached = checks();
    assert.equal((await gql('{ me { id } groups { id } }')).body.errors, undefined);
    assert.equal(checks(), cached, 'a key seen moments ago is not checked with identity again');
  });
});

describe("error codes: the ecosystem names of /v1/call's codes", () => {
  test('FORBIDDEN for operator-only fields', async () => {
    assert.deepEqual(onlyError(await gql('{ accounts { nodes { id } } }')), { message: 'Not authorized.', code: 'FORBIDDEN' });
  });

  test('BAD_USER_INPUT from the shared parameter rules, named after the GraphQL field', async () => {
    // The e-mail address's format is the identity service's rule: its refusal, relabelled input.email, is
    // checked against the real service in catalogue/identity/identity.test.ts.
    const empty = await gql('mutation { removeUser(userIdentifier: "") { message } }');
    assert.deepEqual(onlyError(empty), { message: 'userIdentifier is required.', code: 'BAD_USER_INPUT' });
  });

  test('NOT_FOUND and CONFLICT carry the spec texts', async () => {
    assert.deepEqual(onlyError(await gql('mutation { removeUser(userIdentifier: "ghost") { message } }')), {
      message: 'No such user.',
      code: 'NOT_FOUND',
    });
  });

  test('unexpected failures are INTERNAL_SERVER_ERROR and reveal nothing', async () => {
    const broken = await t.createAccount('Broken');
    const lift = t.identity.fail((c) => c.method === 'getGroups' && c.caller?.accountId === broken.caller.accountId, new Error('relation "groups" does not exist at db.internal:5432'));
    try {
      const res = await gql('{ groups { id name } }', {}, broken.apiKey);
      assert.deepEqual(onlyError(res), { message: 'Internal error.', code: 'INTERNAL_SERVER_ERROR' });
      assert.doesNotMatch(JSON.stringify(res.body), /relation|db\.internal/);
    } finally {
      lift();
    }
  });

  const requestErrors: [string, string, Record<string, unknown>][] = [
    ['GRAPHQL_PARSE_FAILED', '{ me { id }', {}],
    ['GRAPHQL_VALIDATION_FAILED', '{ me { secret } }', {}],
    ['BAD_USER_INPUT', 'mutation ($input: AddUserInput!) { addUser(input: $input) { message } }', { input: { userIdentifier: 'x', role: 'GOD' } }],
    ['QUERY_TOO_COMPLEX', `{ me ${'{ id '.repeat(120)}${'}'.repeat(120)} }`, {}],
  ];

  test("GraphQL's own request errors keep Apollo's codes; in application/json they answer 200, as GraphQL over HTTP asks", async () => {
    for (const [code, query, variables] of requestErrors) {
      const res = await gql(query, variables);
      assert.equal(onlyError(res).code, code);
      assert.equal(res.status, 200, code);
      assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8', code);
      assert.equal(res.body.data, undefined, code);
    }
  });

  test('answers are per caller and never cached: Cache-Control no-store, with the body\'s length', async () => {
    const res = await fetch(`${t.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': t.userKey },
      body: JSON.stringify({ query: '{ me { id } }' }),
    });
    const text = await res.text();
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.headers.get('content-length'), String(Buffer.byteLength(text)));
    assert.ok((JSON.parse(text) as GqlResponse['body']).data, text);
  });

  test('a client that accepts application/graphql-response+json gets 400 for request errors, and 200 for field errors', async () => {
    const post = (query: string, variables: Record<string, unknown>, accept: string) =>
      fetch(`${t.baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept, 'x-api-key': t.userKey },
        body: JSON.stringify({ query, variables }),
      });
    for (const accept of ['application/graphql-response+json', 'application/graphql-response+json, application/json;q=0.9']) {
      for (const [code, query, variables] of requestErrors) {
        const res = await post(query, variables, accept);
        assert.equal(res.status, 400, `${code} with ${accept}`);
        assert.equal(res.headers.get('content-type'), 'application/graphql-response+json; charset=utf-8');
        assert.equal(((await res.json()) as GqlResponse['body']).errors?.[0]?.extensions?.['code'], code);
      }
    }
    // A resolver's error is a partial success: data is there (null), so the status stays 200.
    const field = await post('mutation { removeUser(userIdentifier: "ghost") { message } }', {}, 'application/graphql-response+json');
    assert.equal(field.status, 200);
    const legacy = await post('{ me { secret } }', {}, 'application/json');
    assert.equal(legacy.status, 200);
  });

  test('transport errors: bad JSON and oversized bodies get the GraphQL error shape', async () => {
    const bad = await fetch(`${t.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': t.userKey },
      body: '{"query": ',
    });
    assert.equal(bad.status, 400);
    assert.deepEqual(await bad.json(), {
      errors: [{ message: 'The request body is not valid JSON.', extensions: { code: 'BAD_USER_INPUT', grpcStatus: 'INVALID_ARGUMENT' } }],
    });
    const big = await fetch(`${t.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': t.userKey },
      body: JSON.stringify({ query: `{ me { id } } #${'x'.repeat(20_000)}` }),
    });
    assert.equal(big.status, 413);
    assert.equal(((await big.json()) as GqlResponse['body']).errors?.[0]?.extensions?.['code'], 'PAYLOAD_TOO_LARGE');
  });

  test('CSRF prevention: a simple GET request is refused, a text/plain POST never reaches a resolver', async () => {
    const get = await fetch(`${t.baseUrl}/graphql?query=${encodeURIComponent('{ me { id } }')}`, { headers: { 'x-api-key': t.userKey } });
    assert.equal(get.status, 400);
    const plain = await fetch(`${t.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'x-api-key': t.userKey },
      body: JSON.stringify({ query: 'mutation { generateEncryptionKey { encryptionKey } }' }),
    });
    assert.ok(plain.status >= 400 && plain.status < 500, `status ${plain.status}`);
  });
});

describe('identity schema', () => {
  test('users, groups and investor access round trip', async () => {
    const add = await gql(
      'mutation ($input: AddUserInput!) { addUser(input: $input) { message id } }',
      { input: { userIdentifier: 'g1', firstName: 'Gus', role: 'ADMIN', email: 'gus@example.org' } },
      t.operatorKey,
    );
    assert.deepEqual(add.body, { data: { addUser: { message: 'User added.', id: '1' } } });
    await gql('mutation { addGroupToUser(userIdentifier: "g1", group: "agents") { message } }', {}, t.operatorKey);
    await gql('mutation { addInvestorToUser(userIdentifier: "g1", investorIdentifier: "inv-7") { message } }', {}, t.operatorKey);

    const read = await gql(
      `{ users(userIdentifier: "g1") { nodes { id identifier firstName lastName email role groups { id name } encrypted masked } totalCount }
         groups { name }
         investorsOfUser { userId userIdentifier investors { id identifier name } } }`,
      {},
      t.operatorKey,
    );
    assert.equal(read.body.errors, undefined, JSON.stringify(read.body.errors));
    assert.equal((read.body.data?.['users'] as { totalCount: number }).totalCount, 1);
    assert.deepEqual((read.body.data?.['users'] as { nodes: unknown[] }).nodes, [
      {
        id: '1',
        identifier: 'g1',
        firstName: 'Gus',
        lastName: null,
        email: 'gus@example.org',
        role: 'ADMIN',
        groups: [{ id: '5', name: 'agents' }],
        encrypted: false,
        masked: false,
      },
    ]);
    assert.equal((read.body.data?.['groups'] as unknown[]).length, 7);
    assert.deepEqual(read.body.data?.['investorsOfUser'], [
      { userId: '1', userIdentifier: 'g1', investors: [{ id: null, identifier: 'inv-7', name: null }] },
    ]);
    const none = await gql('{ users { nodes { id } pageInfo { hasNextPage endCursor } totalCount } investorsOfUser { userId } }', {}, t.userKey);
    assert.deepEqual(none.body.data, { users: { nodes: [], pageInfo: { hasNextPage: false, endCursor: null }, totalCount: 0 }, investorsOfUser: [] });
  });

  test('generateEncryptionKey answers the key as a string in its payload', async () => {
    const res = await gql('mutation { generateEncryptionKey { encryptionKey userErrors { message } } }');
    const { encryptionKey, userErrors } = res.body.data?.['generateEncryptionKey'] as { encryptionKey: string; userErrors: unknown[] };
    assert.match(encryptionKey, /^[0-9a-f]{64}$/);
    assert.deepEqual(userErrors, []);
  });

  test('operators create accounts; keys are issued, rotated, listed and revoked', async () => {
    const created = await gql(
      'mutation { createAccount(input: { name: "Beta", role: USER }) { account { id name role } apiKey key { id hint revokedAt } } }',
      {},
      t.operatorKey,
    );
    assert.equal(created.body.errors, undefined, JSON.stringify(created.body.errors));
    const payload = created.body.data?.['createAccount'] as { account: { id: string; role: string }; apiKey: string; key: { id: string; hint: string } };
    assert.equal(payload.account.role, 'USER');
    assert.equal(payload.key.hint, payload.apiKey.slice(-4));

    const me = await gql('{ me { name } }', {}, payload.apiKey);
    assert.deepEqual(me.body.data, { me: { name: 'Beta' } });
    const issued = await gql('mutation { issueApiKey { apiKey key { accountId } revokedKeyIds } }', {}, payload.apiKey);
    assert.equal((issued.body.data?.['issueApiKey'] as { key: { accountId: string } }).key.accountId, payload.account.id);
    const rotated = await gql('mutation { rotateApiKey { apiKey revokedKeyIds } }', {}, payload.apiKey);
    const { apiKey: newKey, revokedKeyIds } = rotated.body.data?.['rotateApiKey'] as { apiKey: string; revokedKeyIds: string[] };
    assert.equal(revokedKeyIds.length, 2);
    assert.equal(onlyError(await gql('{ me { id } }', {}, payload.apiKey)).code, 'UNAUTHENTICATED');

    const keys = await gql(`{ apiKeys { id revokedAt } }`, {}, newKey);
    const active = (keys.body.data?.['apiKeys'] as { id: string; revokedAt: string | null }[]).filter((k) => !k.revokedAt);
    assert.equal(active.length, 1);
    const revoked = await gql('mutation ($id: ID!) { revokeApiKey(keyId: $id) { key { id revokedAt } userErrors { message } } }', { id: active[0]!.id }, t.operatorKey);
    const stored = (await t.identity.client.listApiKeys({ accountId: payload.account.id }, { caller: t.operator })).keys.find((k) => k.id === active[0]!.id);
    assert.match(stored?.revokedAt ?? '', /^\d{4}-\d\d-\d\dT/, 'identity holds the revocation');
    assert.deepEqual(revoked.body.data?.['revokeApiKey'], { key: { id: active[0]!.id, revokedAt: stored!.revokedAt }, userErrors: [] });

    const accounts = await gql('{ accounts { nodes { name role } } }', {}, t.operatorKey);
    assert.ok((accounts.body.data?.['accounts'] as { nodes: { name: string }[] }).nodes.some((a) => a.name === 'Beta'));
  });

  test('introspection is on outside production, even without a key', async () => {
    const res = await gql('{ __schema { queryType { name } } }', {}, null);
    assert.deepEqual(res.body.data, { __schema: { queryType: { name: 'Query' } } });
  });
});

test('production: introspection is off', async () => {
  const prod = await startTestGateway({ NODE_ENV: 'production', DOCUMENT_LINK_SECRET: 'NH88mkRWhyS8zi6REeYACEf1UbMTLCjR5S-9QZSKdug' });
  try {
    const { body } = await gqlAt(prod.baseUrl, '{ __schema { queryType { name } } }', {}, null);
    assert.equal(body.errors?.[0]?.extensions?.['code'], 'GRAPHQL_VALIDATION_FAILED');
  } finally {
    await prod.stop();
  }
});

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { getNamedType, isEnumType, isObjectType } from 'graphql';
import { startTestGateway, type TestGateway } from '@green-impact/testing/gateway/real-gateway';
import { gqlAt, type GqlResponse } from '@green-impact/testing/gateway/graphql-calls';
import { ResourceExhaustedError } from '@green-impact/shared/errors';
import { createLogger } from '@green-impact/shared/logger';
import { schema } from './executable-schema.js';
import { createFormatError } from './format-error.js';
import { GRAPHQL_ERROR_CODES } from './error-codes.js';
import { asUserError, pathOf } from './user-errors.js';
import { InvalidArgumentError } from '@green-impact/shared/errors';

/**
 * One error model (issue 29, docs/graphql.md "Errors"): every change answers a payload carrying
 * `userErrors: [UserError!]!` whose place is a path into the input, with a code from one small set; and
 * every error's `extensions.code` is a name of the GraphQL ecosystem, the gRPC status beside it.
 */

describe('userErrors on every mutation payload', () => {
  const mutations = Object.values(schema.getMutationType()!.getFields());

  test('every change answers a payload with userErrors: [UserError!]!', () => {
    const withoutPayload: string[] = [];
    for (const mutation of mutations) {
      const type = getNamedType(mutation.type);
      const field = isObjectType(type) ? type.getFields()['userErrors'] : undefined;
      if (!field) {
        withoutPayload.push(mutation.name);
        continue;
      }
      assert.equal(String(field.type), '[UserError!]!', `${mutation.name}: ${type.name}.userErrors`);
    }
    assert.deepEqual(withoutPayload, [], 'changes without userErrors');
  });

  test('UserError places the mistake by a path into the input and names it from one code set', () => {
    const userError = schema.getType('UserError');
    assert.ok(isObjectType(userError));
    const fields = userError.getFields();
    assert.equal(String(fields['path']?.type), '[String!]');
    assert.equal(String(fields['code']?.type), 'UserErrorCode!');
    assert.match(fields['field']?.deprecationReason ?? '', /path/, 'the one-string field is deprecated for path');
    const codes = schema.getType('UserErrorCode');
    assert.ok(isEnumType(codes));
    const answered = codes.getValues().filter((v) => !v.deprecationReason).map((v) => v.name);
    assert.deepEqual(answered, ['BAD_USER_INPUT', 'NOT_FOUND', 'CONFLICT', 'PAYLOAD_TOO_LARGE']);
    for (const code of answered) assert.ok(GRAPHQL_ERROR_CODES.has(code), `${code} is also an extensions.code`);
  });

  test('the path follows the label into lists and objects the message points at', () => {
    assert.deepEqual(pathOf('input.name', 'input.name must be 1 to 255 characters.'), ['input', 'name']);
    assert.deepEqual(pathOf('input.positions', 'input.positions[2].amount must be a number.'), ['input', 'positions', '2', 'amount']);
    assert.deepEqual(pathOf('currencyCode', 'Give currencyCode or nothing.'), ['currencyCode']);
    assert.equal(pathOf(undefined, 'No such user.'), null);
    assert.deepEqual(asUserError(new InvalidArgumentError('input.attributes[0].value is required.', { field: 'input.attributes' })), {
      message: 'input.attributes[0].value is required.',
      code: 'BAD_USER_INPUT',
      path: ['input', 'attributes', '0', 'value'],
      field: 'input.attributes',
    });
  });
});

describe('extensions.code speaks the ecosystem names, grpcStatus keeps the service status', () => {
  let t: TestGateway;
  const gql = (query: string, apiKey: string | null = t.userKey): Promise<GqlResponse> => gqlAt(t.baseUrl, query, {}, apiKey);
  const extensionsOf = (res: GqlResponse) => {
    assert.equal(res.body.errors?.length, 1, JSON.stringify(res.body));
    return res.body.errors![0]!.extensions;
  };
  before(async () => {
    t = await startTestGateway();
  });
  after(async () => {
    await t.stop();
  });

  test('bad input, unauthenticated, forbidden, not found and conflict, as the real services answer them', async () => {
    await gql('mutation { addUser(input: { userIdentifier: "em-ada", firstName: "Ada" }) { id } }');
    const join = 'mutation { addGroupToUser(userIdentifier: "em-ada", group: "issuers") { message } }';
    assert.equal((await gql(join)).body.errors, undefined);
    const cases: [string, GqlResponse, unknown][] = [
      ['bad input', await gql('mutation { removeUser(userIdentifier: "") { message } }'), { code: 'BAD_USER_INPUT', grpcStatus: 'INVALID_ARGUMENT' }],
      ['unauthenticated', await gql('{ me { id } }', null), { code: 'UNAUTHENTICATED', grpcStatus: 'UNAUTHENTICATED' }],
      ['forbidden', await gql('{ accounts { nodes { id } } }'), { code: 'FORBIDDEN', grpcStatus: 'PERMISSION_DENIED' }],
      ['not found', await gql('mutation { removeUser(userIdentifier: "ghost") { message } }'), { code: 'NOT_FOUND', grpcStatus: 'NOT_FOUND' }],
      ['conflict', await gql(join), { code: 'CONFLICT', grpcStatus: 'ALREADY_EXISTS' }],
    ];
    for (const [kind, res, extensions] of cases) {
      assert.deepEqual(extensionsOf(res), extensions, kind);
      assert.ok(GRAPHQL_ERROR_CODES.has(String(extensionsOf(res)?.['code'])), kind);
    }
  });

  test('rate limited and internal faults, as the formatter answers them', () => {
    const format = createFormatError(createLogger('gateway', { level: 'silent' }));
    const limited = new ResourceExhaustedError('Too many requests with this API key; retry in 1 s.');
    assert.deepEqual(format({ message: limited.message }, limited).extensions, { code: 'TOO_MANY_REQUESTS', grpcStatus: 'RESOURCE_EXHAUSTED' });
    const fault = new Error('relation "groups" does not exist');
    assert.deepEqual(format({ message: fault.message }, fault), { message: 'Internal error.', extensions: { code: 'INTERNAL_SERVER_ERROR', grpcStatus: 'INTERNAL' } });
  });

  test('the request errors of GraphQL itself keep their names, with no grpcStatus', async () => {
    assert.deepEqual(extensionsOf(await gql('{ me { id ')), { code: 'GRAPHQL_PARSE_FAILED' });
    assert.deepEqual(extensionsOf(await gql('{ me { nope } }')), { code: 'GRAPHQL_VALIDATION_FAILED' });
  });
});

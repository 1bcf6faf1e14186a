import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { getNamedType, isListType, isNonNullType, isObjectType } from 'graphql';
import { AlreadyExistsError, InvalidArgumentError, NotAuthorizedError, UnauthenticatedError, UnavailableError } from '@green-impact/shared/errors';
import { schema } from './executable-schema.js';
import { asUserError } from './user-errors.js';

/**
 * The shape rules user errors rely on (user-errors.ts): every change answering an object answers a payload
 * with userErrors, and a refused payload can be answered — each of its other fields is nullable, a list
 * (answered empty) or its message. The behaviour end to end is in test/src/graphql-user-errors.test.ts.
 */
describe('user errors in the schema', () => {
  const mutations = Object.values(schema.getMutationType()!.getFields());
  const payloads = new Set(mutations.map((m) => getNamedType(m.type)).filter((t) => t.name.endsWith('Payload')));

  test('every payload a change answers carries userErrors', () => {
    assert.ok(payloads.size >= 20, `payload types: ${[...payloads].map((p) => p.name).join(', ')}`);
    for (const payload of payloads) {
      assert.ok(isObjectType(payload), payload.name);
      const field = payload.getFields()['userErrors'];
      assert.ok(field, `${payload.name} has userErrors`);
      assert.equal(String(field.type), '[UserError!]!', payload.name);
    }
  });

  test("a refused payload can be answered: its other fields are nullable, lists, or the message", () => {
    for (const payload of payloads) {
      if (!isObjectType(payload)) continue;
      for (const [name, field] of Object.entries(payload.getFields())) {
        if (name === 'userErrors' || name === 'message' || !isNonNullType(field.type)) continue;
        assert.ok(isListType(field.type.ofType), `${payload.name}.${name} is ${String(field.type)}: a refused change could not answer it`);
      }
    }
  });

  test("only the caller's mistakes about the change are user errors, with the field the validation names", () => {
    assert.deepEqual(asUserError(new InvalidArgumentError('input.name must be a string.', { field: 'input.name' })), {
      message: 'input.name must be a string.',
      code: 'BAD_USER_INPUT',
      path: ['input', 'name'],
      field: 'input.name',
    });
    assert.deepEqual(asUserError(new AlreadyExistsError('Group is already connected to user.')), {
      message: 'Group is already connected to user.',
      code: 'CONFLICT',
      path: null,
      field: null,
    });
    for (const refusal of [new UnauthenticatedError(), new NotAuthorizedError(), new UnavailableError(), new Error('boom')]) {
      assert.equal(asUserError(refusal), undefined, refusal.message);
    }
  });
});

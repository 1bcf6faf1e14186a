import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import { parseCall } from './envelope.js';
import { identifier, text, type Fields } from '../catalogue/fields.js';
import type { OperationEntry, Solution } from './operation.js';
import { createOperationTable, operationTable } from './operation-table.js';

/** A minimal row: its fields, and a handler the envelope never runs. */
const row = (solution: Solution, operation: string, input: Fields = {}, envelope?: OperationEntry['envelope']): OperationEntry => ({
  solution,
  operation,
  input,
  envelope,
  handler: async () => ({}),
});

const table = createOperationTable([
  row('SVC.ESG.Credits', 'addThing', { thing_identifier: identifier('thing_identifier', { aliases: ['thing_identifer'] }) }),
  row('SVC.ESG.Credits', 'listThings'),
  row('SVC.Blockchain.Hash', 'insertString', { key: text('key') }, { version: 'required', network: 'required' }),
  row('SVC.NFT.zK', 'list'),
]);

const rejects = (body: unknown, message: string, against = table) =>
  assert.throws(
    () => parseCall(body, against),
    (err: unknown) => err instanceof InvalidArgumentError && err.message === message,
    `expected "${message}" for ${JSON.stringify(body)}`,
  );

test('the body must be a JSON object', () => {
  const message = 'The request body must be a JSON object with solution, operation and parameters.';
  for (const body of [undefined, null, [], [{ solution: 'SVC.ESG.Credits' }], 'text', 42, true]) rejects(body, message);
});

test('solution: required, a string, one of the three', () => {
  rejects({ operation: 'listThings' }, 'solution is required.');
  rejects({ solution: '', operation: 'listThings' }, 'solution is required.');
  rejects({ solution: 1, operation: 'listThings' }, 'solution must be a string.');
  rejects(
    { solution: 'SVC.ESG.Debits', operation: 'listThings' },
    'Unknown solution "SVC.ESG.Debits"; expected one of SVC.ESG.Credits, SVC.Blockchain.Hash, SVC.NFT.zK.',
  );
  const long = 'x'.repeat(500);
  assert.throws(() => parseCall({ solution: long, operation: 'a' }, table), (err: Error) => err.message.length < 200);
});

test('`contract` is accepted in place of `solution` (spec §4.12 example)', () => {
  const parsed = parseCall({ contract: 'SVC.Blockchain.Hash', version: 1, network: 'sepolia', operation: 'insertString', parameters: { key: 'k' } }, table);
  assert.equal(parsed.entry.operation, 'insertString');
});

test('operation: required, a string, known for the solution', () => {
  rejects({ solution: 'SVC.ESG.Credits' }, 'operation is required.');
  rejects({ solution: 'SVC.ESG.Credits', operation: ['listThings'] }, 'operation must be a string.');
  rejects({ solution: 'SVC.ESG.Credits', operation: 'dropTables' }, 'Unknown operation "dropTables" for solution SVC.ESG.Credits.');
  rejects({ solution: 'SVC.NFT.zK', operation: 'listThings' }, 'Unknown operation "listThings" for solution SVC.NFT.zK.');
  rejects({ solution: 'SVC.ESG.Credits', operation: 'ListThings' }, 'Unknown operation "ListThings" for solution SVC.ESG.Credits.');
  rejects({ solution: 'SVC.ESG.Credits', operation: '__proto__' }, 'Unknown operation "__proto__" for solution SVC.ESG.Credits.');
});

test('parameters: optional, null means none, otherwise an object', () => {
  assert.deepEqual(parseCall({ solution: 'SVC.ESG.Credits', operation: 'listThings' }, table).parameters, {});
  assert.deepEqual(parseCall({ solution: 'SVC.ESG.Credits', operation: 'listThings', parameters: null }, table).parameters, {});
  for (const parameters of [[], 'a=b', 5, true]) {
    rejects({ solution: 'SVC.ESG.Credits', operation: 'listThings', parameters }, 'parameters must be a JSON object.');
  }
  rejects({ solution: 'SVC.ESG.Credits', operation: 'addThing' }, 'thing_identifier is required.');
  rejects({ solution: 'SVC.ESG.Credits', operation: 'addThing', parameters: null }, 'thing_identifier is required.');
});

test('parameters are validated against the row, aliases included', () => {
  const parsed = parseCall(
    { solution: 'SVC.ESG.Credits', operation: 'addThing', parameters: { thing_identifer: 't1', extra: 1 } },
    table,
  );
  assert.deepEqual(parsed.parameters, { thing_identifier: 't1' });
});

test('version and network of the Hash and NFT solutions', () => {
  const base = { solution: 'SVC.Blockchain.Hash', operation: 'insertString', parameters: { key: 'k' } };
  assert.deepEqual(parseCall({ ...base, version: 1, network: 'sepolia' }, table).envelope, { version: 1, network: 'sepolia' });
  assert.deepEqual(parseCall({ ...base, version: '1', network: 'mumbai' }, table).envelope, { version: 1, network: 'mumbai' });
  rejects({ ...base, network: 'sepolia' }, 'version is required for insertString.');
  rejects({ ...base, version: 1 }, 'network is required for insertString.');
  rejects({ ...base, version: 2, network: 'sepolia' }, 'version must be 1.');
  rejects({ ...base, version: '1.0', network: 'sepolia' }, 'version must be 1.');
  rejects({ ...base, version: 1, network: 5 }, 'network must be a string.');
  rejects({ ...base, version: 1, network: 'sep olia' }, 'network must be a network name such as sepolia.');
  // version is checked for the solution even before the operation is known
  rejects({ solution: 'SVC.NFT.zK', operation: 'list', version: 3 }, 'version must be 1.');
  assert.deepEqual(parseCall({ solution: 'SVC.NFT.zK', operation: 'list' }, table).envelope, {});
  // ESG has no envelope version: a stray one is ignored like any unknown field
  assert.equal(parseCall({ solution: 'SVC.ESG.Credits', operation: 'listThings', version: 7 }, table).entry.operation, 'listThings');
});

test('the table refuses duplicate rows, and a parameter name or alias two fields share', () => {
  const x = row('SVC.ESG.Credits', 'x');
  assert.throws(() => createOperationTable([x, x]), /defined twice/);
  const y = (input: Fields) => createOperationTable([row('SVC.ESG.Credits', 'y', input)]);
  assert.throws(() => y({ a: text('a', { aliases: ['b'] }), b: text('b') }), /Alias b of y\.a names another parameter/);
  assert.throws(() => y({ a: text('a', { aliases: ['c'] }), b: text('b', { aliases: ['c'] }) }), /Alias c of y\.b names another parameter/);
  assert.throws(() => y({ a: text('a'), b: text('a') }), /Parameter a of y is declared twice/);
});

test('the real table holds the identity rows', () => {
  for (const op of [
    'getUsers', 'addUser', 'removeUser', 'getGroups', 'addGroupToUser', 'removeGroupFromUser',
    'getInvestorsOfUser', 'addInvestorToUser', 'removeInvestorFromUser', 'generateEncryptionKey',
  ]) {
    assert.ok(operationTable.find('SVC.ESG.Credits', op), op);
  }
  rejects(
    { solution: 'SVC.ESG.Credits', operation: 'addUser', parameters: { user_first_name: 'Ann' } },
    'User identifier is missing.',
    operationTable,
  );
  // The address's format is the identity service's rule (catalogue/identity/identity.test.ts); the row checks its type.
  assert.throws(
    () => parseCall({ solution: 'SVC.ESG.Credits', operation: 'addUser', parameters: { user_identifier: 'u', user_email: { a: 1 } } }, operationTable),
    /user_email must be a string\./,
  );
});

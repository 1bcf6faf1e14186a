import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import { catalogue } from './index.js';
import { flag, identifier, int, json, listOf, number, oneOf, text, wideInt, type Fields } from './fields.js';
import { graphqlLabels, inputFromGraphql, inputFromV1 } from './parse.js';
import { getFxRates } from './taxonomy/currencies.js';
import { operationTable } from '../v1/operation-table.js';
import { schema } from '../graphql/executable-schema.js';

const refused = (run: () => unknown, message: string, field?: string) =>
  assert.throws(run, (err: unknown) => {
    assert.ok(err instanceof InvalidArgumentError, `not an InvalidArgumentError: ${String(err)}`);
    assert.equal(err.message, message);
    if (field !== undefined) assert.equal(err.field, field);
    return true;
  });

const fields = {
  name: text('thing_name'),
  code: identifier('thing_identifier', { aliases: ['thing_identifer'] }),
  year: int('reporting_year'),
  amount: number('thing_amount').optional(),
  at: wideInt('thing_timestamp').optional(),
  visibility: oneOf('thing_visibility', ['public', 'private']).optional(),
  color: oneOf('thing_color', ['red', 'green', 'blue']).optional(),
  data: json('thing_data').optional(),
  tags: listOf('thing_tags', text('tag')).optional(),
} satisfies Fields;

test('/v1/call: each field under its spec name or an alias; absent is undefined, null or ""', () => {
  assert.deepEqual(inputFromV1(fields, { thing_name: 'A', thing_identifer: 7, reporting_year: '2024', thing_amount: '', extra: 1 }), {
    name: 'A',
    code: '7',
    year: 2024,
  });
  refused(() => inputFromV1(fields, { thing_name: 'A', reporting_year: 2024 }), 'thing_identifier is required.', 'thing_identifier');
  refused(() => inputFromV1(fields, { thing_name: null, thing_identifier: 'x', reporting_year: 2024 }), 'thing_name is required.');
  const missing = { ...fields, name: text('thing_name', { missingMessage: 'Please submit a name.' }) };
  refused(() => inputFromV1(missing, { thing_identifier: 'x', reporting_year: 2024 }), 'Please submit a name.');
});

/**
 * How /v1/call has always read its parameters (moved from the old validator's tests, v1/parameters.test.ts).
 * Its lengths, e-mail addresses, years, currencies, dates and bounds are the services' rules now, tested
 * there (the validation tests of taxonomy and portfolio, services/identity/src/identity.test.ts).
 */
test('/v1/call: "" and null count as absent, aliases and which wins, unknown and inherited keys ignored', () => {
  const base = { thing_name: 'A', reporting_year: 2024 };
  for (const absent of [undefined, null, '']) {
    refused(() => inputFromV1(fields, { ...base, thing_identifier: absent }), 'thing_identifier is required.', 'thing_identifier');
  }
  // The canonical name wins over an alias; an absent canonical name leaves the alias.
  assert.equal(inputFromV1(fields, { ...base, thing_identifer: 'k1', thing_identifier: 'k2' }).code, 'k2');
  assert.equal(inputFromV1(fields, { ...base, thing_identifer: 'k1', thing_identifier: '' }).code, 'k1');
  assert.equal(inputFromV1(fields, { ...base, thing_identifer: 'k1', thing_identifier: null }).code, 'k1');
  // Only the parameters' own keys are read: neither an inherited value nor a "__proto__" key sent in JSON.
  const inherited = Object.assign(Object.create({ thing_identifier: 'polluted', thing_amount: 1 }) as object, base);
  refused(() => inputFromV1(fields, inherited), 'thing_identifier is required.');
  const sent = JSON.parse('{"thing_name":"A","reporting_year":2024,"thing_identifier":"x","__proto__":{"thing_amount":1},"constructor":{"x":1}}') as Record<string, unknown>;
  const input = inputFromV1(fields, sent);
  assert.deepEqual(input, { name: 'A', code: 'x', year: 2024 });
  assert.equal(Object.getPrototypeOf(input), Object.prototype);
  assert.equal(({} as Record<string, unknown>)['thing_amount'], undefined, 'Object.prototype is untouched');
});

test('/v1/call: text kept as given, no control characters; numbers as numeric strings', () => {
  const base = { thing_name: 'A', thing_identifier: 'x', reporting_year: 2024 };
  assert.deepEqual(inputFromV1(fields, { ...base, thing_name: '  Ann\tMarie\n', thing_identifier: 12345 }), { name: '  Ann\tMarie\n', code: '12345', year: 2024 });
  refused(() => inputFromV1(fields, { ...base, thing_identifier: 'a\nb' }), 'thing_identifier must not contain control characters.', 'thing_identifier');
  refused(() => inputFromV1(fields, { ...base, thing_identifier: 'a\tb' }), 'thing_identifier must not contain control characters.');
  refused(() => inputFromV1(fields, { ...base, thing_name: 'a\u0000b' }), 'thing_name must not contain control characters.');
  refused(() => inputFromV1(fields, { ...base, thing_name: 'del\u007f' }), 'thing_name must not contain control characters.');
  for (const bad of [{ $gt: '' }, ['a'], true, 1e400]) refused(() => inputFromV1(fields, { ...base, thing_identifier: bad }), 'thing_identifier must be a string.');
  // Integers: numbers or decimal text, no fractions, within 32 bits (a wideInt: any safe integer).
  assert.equal(inputFromV1(fields, { ...base, reporting_year: '42' }).year, 42);
  assert.equal(inputFromV1(fields, { ...base, reporting_year: '-7' }).year, -7);
  for (const bad of [4.2, '4.2', '1e3', 'abc', '0x10', ' 7', true]) refused(() => inputFromV1(fields, { ...base, reporting_year: bad }), 'reporting_year must be an integer.');
  for (const bad of [2 ** 60, '123456789012345678901234567890', 1e400]) refused(() => inputFromV1(fields, { ...base, reporting_year: bad }), 'reporting_year is out of range.');
  assert.equal(inputFromV1(fields, { ...base, thing_timestamp: String(2 ** 40) }).at, 2 ** 40);
  refused(() => inputFromV1(fields, { ...base, thing_timestamp: 2 ** 53 }), 'thing_timestamp is out of range.');
  // Numbers: finite decimals, as numbers or text.
  assert.equal(inputFromV1(fields, { ...base, thing_amount: '1.25' }).amount, 1.25);
  assert.equal(inputFromV1(fields, { ...base, thing_amount: '2e3' }).amount, 2000);
  assert.equal(inputFromV1(fields, { ...base, thing_amount: -3 }).amount, -3);
  for (const bad of ['NaN', '0x10', '1,5', {}]) refused(() => inputFromV1(fields, { ...base, thing_amount: bad }), 'thing_amount must be a number.');
  refused(() => inputFromV1(fields, { ...base, thing_amount: 1e400 }), 'thing_amount is out of range.');
});

test('/v1/call: yes/no flags and enums in any case, answered as declared', () => {
  const flagged = { ...fields, flagged: flag('thing_flag').optional() };
  const base = { thing_name: 'A', thing_identifier: 'x', reporting_year: 2024 };
  assert.equal(inputFromV1(flagged, { ...base, thing_flag: 'YES' }).flagged, true);
  assert.equal(inputFromV1(flagged, { ...base, thing_flag: 'no' }).flagged, false);
  for (const bad of ['maybe', 'y', 1]) refused(() => inputFromV1(flagged, { ...base, thing_flag: bad }), 'thing_flag must be yes or no.');
  assert.deepEqual(inputFromV1(fields, { ...base, thing_visibility: 'Private', thing_color: 'GREEN' }), { ...{ name: 'A', code: 'x', year: 2024 }, visibility: 'private', color: 'green' });
});

test('the gateway checks types only, with one text per type', () => {
  const base = { thing_name: 'A', thing_identifier: 'x', reporting_year: 2024 };
  refused(() => inputFromV1(fields, { ...base, thing_name: { a: 1 } }), 'thing_name must be a string.');
  assert.equal(inputFromV1(fields, { ...base, thing_name: 5 }).name, '5', 'text may arrive as a number');
  refused(() => inputFromV1(fields, { ...base, thing_identifier: {} }), 'thing_identifier must be a string.');
  refused(() => inputFromV1(fields, { ...base, reporting_year: 'soon' }), 'reporting_year must be an integer.');
  refused(() => inputFromV1(fields, { ...base, reporting_year: 2024.5 }), 'reporting_year must be an integer.');
  refused(() => inputFromV1(fields, { ...base, reporting_year: 2 ** 31 }), 'reporting_year is out of range.');
  refused(() => inputFromV1(fields, { ...base, thing_amount: 'lots' }), 'thing_amount must be a number.');
  refused(() => inputFromV1(fields, { ...base, thing_amount: '1e999' }), 'thing_amount is out of range.');
  refused(() => inputFromV1(fields, { ...base, thing_timestamp: 2 ** 60 }), 'thing_timestamp is out of range.');
  refused(() => inputFromV1(fields, { ...base, thing_visibility: 'secret' }), 'thing_visibility must be public or private.');
  refused(() => inputFromV1(fields, { ...base, thing_color: 'pink' }), 'thing_color must be one of red, green, blue.');
  refused(() => inputFromV1(fields, { ...base, thing_tags: 'a' }), 'thing_tags must be a list.');
  // Bounds are not the gateway's: a year of 2 digits, a negative amount pass on to the service, which owns them.
  assert.deepEqual(inputFromV1(fields, { ...base, reporting_year: 24, thing_amount: -1, thing_timestamp: 2 ** 40 }), {
    name: 'A',
    code: 'x',
    year: 24,
    amount: -1,
    at: 2 ** 40,
  });
  // Enums in any case, answered as declared; JSON untouched; lists of their element's type.
  assert.deepEqual(inputFromV1(fields, { ...base, thing_visibility: 'PUBLIC', thing_data: { a: [1] }, thing_tags: ['t'] }), {
    ...{ name: 'A', code: 'x', year: 2024 },
    visibility: 'public',
    data: { a: [1] },
    tags: ['t'],
  });
});

test('GraphQL: arguments or the fields of `input`, labelled as the caller named them', () => {
  refused(() => inputFromGraphql(fields, { input: { name: 'A', year: 2024 } }, true), 'input.code is required.', 'input.code');
  refused(() => inputFromGraphql(fields, { name: 'A', code: 'x', year: 2.5 }, false), 'year must be an integer.', 'year');
  assert.deepEqual(inputFromGraphql(fields, { name: 'A', code: 'x', year: 2024, visibility: 'PRIVATE' }, false), {
    name: 'A',
    code: 'x',
    year: 2024,
    visibility: 'private',
  });
  assert.equal(graphqlLabels(fields, true).get('reporting_year'), 'input.year');
});

test('every declaration is on the faces it names: a /v1/call row and a field of the schema', () => {
  // A /v1/call operation and a GraphQL field may share a name across two declarations when their inputs
  // differ (computePositionImpacts takes the investor on /v1/call only); each face names it once.
  const names = new Set<string>();
  for (const op of catalogue) {
    const keys = [
      ...(op.operation ? [`v1:${op.solution}/${op.operation}`] : []),
      ...(op.v1Also ?? []).map((a) => `v1:${a.solution}/${a.operation}`),
      ...(op.graphql ? [`graphql:${op.graphql.root}.${op.graphql.field}`] : []),
    ];
    assert.ok(keys.length > 0, 'an operation names itself on at least one face');
    for (const key of keys) {
      assert.ok(!names.has(key), `${key} declared twice`);
      names.add(key);
    }
    if (op.operation && op.v1) assert.equal(operationTable.find(op.solution, op.operation)?.input, op.input, `${op.operation} is not this declaration's row`);
    for (const a of op.v1Also ?? []) assert.equal(operationTable.find(a.solution, a.operation)?.input, a.input ?? op.input, `${a.solution}/${a.operation} is not this declaration's alias`);
    if (op.graphql) {
      const root = op.graphql.root === 'Query' ? schema.getQueryType() : schema.getMutationType();
      const field = root?.getFields()[op.graphql.field];
      assert.ok(field, `${op.graphql.root}.${op.graphql.field} is not in the schema`);
      const args = op.graphql.nested ? Object.keys((field.args.find((a) => a.name === 'input')?.type as { ofType?: { getFields?: () => object } })?.ofType?.getFields?.() ?? {}) : field.args.map((a) => a.name);
      for (const name of Object.keys(op.input)) assert.ok(args.includes(name), `${op.graphql.field} has no argument ${name}`);
    }
  }
});

test('a declaration renders the spec\'s rows on /v1/call', () => {
  const rows = getFxRates.v1!(
    { fxRates: [{ fxConversionId: 0, year: 2024, numeratorCurrencyCode: 'EUR', denominatorCurrencyCode: 'EUR', fxRate: 1, derived: true }] },
    {},
    {} as never,
  );
  assert.deepEqual(rows, [{ fx_conversion_id: 0, year: 2024, numerator_currency_code: 'EUR', denominator_currency_code: 'EUR', fx_rate: 1 }]);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import { catalogue } from './index.js';
import { identifier, int, json, listOf, number, oneOf, text, wideInt, type Fields } from './fields.js';
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
    const keys = [...(op.operation ? [`v1:${op.solution}/${op.operation}`] : []), ...(op.graphql ? [`graphql:${op.graphql.root}.${op.graphql.field}`] : [])];
    assert.ok(keys.length > 0, 'an operation names itself on at least one face');
    for (const key of keys) {
      assert.ok(!names.has(key), `${key} declared twice`);
      names.add(key);
    }
    if (op.operation && op.v1) assert.ok(operationTable.find(op.solution, op.operation)?.parse, `${op.operation} is not a catalogue row`);
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

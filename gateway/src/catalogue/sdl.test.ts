import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSchema, printType } from 'graphql';
import { identifier, int, json, listOf, number, oneOf, text, wideInt } from './fields.js';
import type { GraphqlFace, Operation } from './operation.js';
import { graphqlTypeOf, inputTypesSdl, rootFieldsSdl } from './sdl.js';
import { ESG } from './renders.js';

/** A declaration as the adapters hold it, with only what the SDL reads. */
function op(input: Operation['input'], face: Partial<GraphqlFace<Record<string, unknown>, unknown>> & Pick<GraphqlFace<Record<string, unknown>, unknown>, 'root' | 'field' | 'returns'>, extra: Partial<Operation> = {}): Operation {
  return {
    solution: ESG,
    summary: 'Does a thing.',
    input,
    service: 'taxonomy',
    method: 'getCategories',
    invoke: async () => ({}),
    graphql: { nested: false, render: () => null, ...face },
    ...extra,
  };
}

const SCALARS = 'scalar JSON\nscalar Decimal\nenum Visibility { PUBLIC PRIVATE }\ninput ThingInput { a: Int }\ntype Thing { id: ID }\ntype Query { unused: Int }\n';

test('a field is typed from its declaration: its type, its named GraphQL type, its list element, ! when required', () => {
  assert.equal(graphqlTypeOf(text('a')), 'String!');
  assert.equal(graphqlTypeOf(identifier('a').optional()), 'String');
  assert.equal(graphqlTypeOf(int('a')), 'Int!');
  assert.equal(graphqlTypeOf(int('a', { graphql: 'ID' })), 'ID!');
  assert.equal(graphqlTypeOf(wideInt('a').optional()), 'Float');
  assert.equal(graphqlTypeOf(number('a')), 'Decimal!');
  assert.equal(graphqlTypeOf(json('a').optional()), 'JSON');
  assert.equal(graphqlTypeOf(json('a', { graphql: 'Boolean' })), 'Boolean!');
  assert.equal(graphqlTypeOf(listOf('a', int('b')).optional()), '[Int!]');
  assert.equal(graphqlTypeOf(oneOf('a', ['public', 'private'], { graphql: 'Visibility' })), 'Visibility!');
  assert.throws(() => graphqlTypeOf(oneOf('a', ['x', 'y'])), /needs its GraphQL type named/);
});

test('a root field: its summary and /v1/call name, its arguments with their docs and defaults, or one input argument', () => {
  const read = op(
    { year: int('reporting_year', { doc: 'The year.' }), first: int('page_size', { graphqlDefault: 50, doc: 'Page size.' }).optional() },
    { root: 'Query', field: 'things', returns: '[Thing!]!' },
    { operation: 'getThings' },
  );
  const change = op({ a: int('a', { doc: 'A.' }) }, { root: 'Mutation', field: 'addThing', returns: 'Thing!', nested: true }, { envelope: { network: 'required' } });
  const sdl = `${SCALARS}extend type Query {${rootFieldsSdl('Query', [read, change])}\n}\ntype Mutation {${rootFieldsSdl('Mutation', [read, change])}\n}\n${inputTypesSdl([read, change])}`;
  const schema = buildSchema(sdl.replace('input ThingInput { a: Int }\n', ''));
  const things = schema.getQueryType()!.getFields()['things']!;
  assert.equal(things.description, 'Does a thing. On /v1/call: getThings.');
  assert.deepEqual(
    things.args.map((a) => [a.name, String(a.type), a.defaultValue, a.description]),
    [
      ['year', 'Int!', undefined, 'The year.'],
      ['first', 'Int', 50, 'Page size.'],
    ],
  );
  const addThing = schema.getMutationType()!.getFields()['addThing']!;
  assert.deepEqual(addThing.args.map((a) => [a.name, String(a.type)]), [['input', 'AddThingInput!']]);
  // The envelope's network is an input field of its own, first unless the face orders otherwise.
  assert.match(printType(schema.getType('AddThingInput')!), /"""Input of addThing\."""\ninput AddThingInput \{\n {2}"""Network name, one of networks\."""\n {2}network: String!\n\n {2}"""A\."""\n {2}a: Int!\n\}/);
});

test('declarations sharing an input type must declare the same fields; an order must name every argument', () => {
  const shared = { name: 'ThingInput', fields: { id: 'Id of the thing.' } };
  const one = op({ id: int('one_id', { doc: 'One.', graphql: 'ID' }) }, { root: 'Mutation', field: 'removeOne', returns: 'Thing!', nested: true, input: shared });
  const other = op({ id: int('other_id', { doc: 'Other.', graphql: 'ID' }) }, { root: 'Mutation', field: 'removeOther', returns: 'Thing!', nested: true, input: shared });
  const sdl = inputTypesSdl([one, other]);
  assert.equal((sdl.match(/input ThingInput/g) ?? []).length, 1);
  assert.match(sdl, /"Input of removeOne and removeOther\."/);
  assert.match(sdl, /"Id of the thing\." id: ID!/);
  const unlike = op({ id: int('x', { graphql: 'ID' }), year: int('reporting_year') }, { root: 'Mutation', field: 'removeUnlike', returns: 'Thing!', nested: true, input: shared });
  assert.throws(() => inputTypesSdl([one, unlike]), /removeUnlike declares ThingInput unlike the declarations before it/);
  const misordered = op({ a: int('a'), b: int('b') }, { root: 'Query', field: 'pair', returns: 'Thing', order: ['b'] });
  assert.throws(() => rootFieldsSdl('Query', [misordered]), /pair's order names other arguments than it has/);
  const ordered = op({ a: int('a'), b: int('b') }, { root: 'Query', field: 'pair', returns: 'Thing', order: ['b', 'a'] });
  assert.match(rootFieldsSdl('Query', [ordered]), /pair\(\n\s+b: Int!\n\s+a: Int!\n\s+\): Thing/);
});

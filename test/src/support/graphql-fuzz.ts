import fc from 'fast-check';
import { HOSTILE_TEXT, INT4_MAX } from './fuzz-values.js';

/**
 * Schema-driven GraphQL requests: the schema is read by introspection, then for any root field a
 * query is built with its arguments passed as variables (hostile in content, right in type, or now and
 * then wrong in type) and a selection of its leaf fields, one level of nesting deep.
 */

export interface TypeRef {
  kind: string;
  name: string | null;
  ofType: TypeRef | null;
}
interface Field {
  name: string;
  args: { name: string; type: TypeRef }[];
  type: TypeRef;
}
interface FullType {
  kind: string;
  name: string;
  fields: Field[] | null;
  inputFields: { name: string; type: TypeRef }[] | null;
  enumValues: { name: string }[] | null;
}
export interface Schema {
  query: Field[];
  mutation: Field[];
  types: Map<string, FullType>;
}

export const INTROSPECTION = `query {
  __schema {
    queryType { name } mutationType { name }
    types { kind name
      fields(includeDeprecated: true) { name args { name type { ...T } } type { ...T } }
      inputFields { name type { ...T } }
      enumValues(includeDeprecated: true) { name } }
  }
}
fragment T on __Type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } }`;

export function readSchema(data: any): Schema {
  const types = new Map<string, FullType>((data.__schema.types as FullType[]).map((t) => [t.name, t]));
  const rootFields = (name: string | undefined) => (name ? (types.get(name)?.fields ?? []) : []);
  return { query: rootFields(data.__schema.queryType?.name), mutation: rootFields(data.__schema.mutationType?.name), types };
}

export function typeString(t: TypeRef): string {
  if (t.kind === 'NON_NULL') return `${typeString(t.ofType!)}!`;
  if (t.kind === 'LIST') return `[${typeString(t.ofType!)}]`;
  return t.name!;
}

function named(t: TypeRef): TypeRef {
  return t.ofType ? named(t.ofType) : t;
}

export interface GraphqlRequest {
  query: string;
  variables: Record<string, unknown>;
  /** A variable was given a value of the wrong type: the request must be refused as a whole. */
  wrongType: boolean;
}

/** Values of the right type for `t`, hostile in content. */
function valueOf(schema: Schema, t: TypeRef, ids: readonly string[], depth = 0): fc.Arbitrary<unknown> {
  if (t.kind === 'NON_NULL') return valueOf(schema, t.ofType!, ids, depth);
  const inner = ((): fc.Arbitrary<unknown> => {
    if (t.kind === 'LIST') return fc.array(valueOf(schema, t.ofType!, ids, depth + 1), { maxLength: 3 });
    const type = schema.types.get(t.name!);
    if (t.kind === 'ENUM') return fc.constantFrom(...(type?.enumValues ?? [{ name: 'X' }]).map((v) => v.name));
    if (t.kind === 'INPUT_OBJECT') {
      const fields = type?.inputFields ?? [];
      if (depth > 3 || fields.length === 0) return fc.constant({});
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const f of fields) model[f.name] = valueOf(schema, f.type, ids, depth + 1);
      return fc.record(model, { requiredKeys: fields.filter((f) => f.type.kind === 'NON_NULL').map((f) => f.name) });
    }
    switch (t.name) {
      case 'Int':
        return fc.oneof(fc.integer({ min: -(2 ** 31), max: INT4_MAX }), fc.constantFrom(0, 1, 2024, -1, INT4_MAX));
      case 'Float':
        return fc.double({ noNaN: true, noDefaultInfinity: true });
      case 'Boolean':
        return fc.boolean();
      case 'ID':
        return fc.oneof(fc.constantFrom(...ids), fc.integer({ min: -5, max: INT4_MAX }).map(String), fc.uuid(), fc.constantFrom(...HOSTILE_TEXT));
      case 'String':
        return fc.oneof(fc.constantFrom(...ids), fc.constantFrom(...HOSTILE_TEXT), fc.string({ unit: 'grapheme', maxLength: 40 }), fc.constant('z'.repeat(300)));
      default: // JSON and other custom scalars
        return fc.jsonValue({ maxDepth: 3 });
    }
  })();
  return fc.oneof({ weight: 6, arbitrary: inner }, { weight: 1, arbitrary: fc.constant(null) });
}

/** A value of a type other than `t`'s. */
function wrongValueOf(schema: Schema, t: TypeRef): fc.Arbitrary<unknown> {
  const base = named(t);
  if (t.kind === 'NON_NULL') return fc.oneof(fc.constant(null), wrongValueOf(schema, t.ofType!));
  if (base.kind === 'ENUM') return fc.constantFrom('NOT_A_VALUE', 'public', 7, true);
  if (base.kind === 'INPUT_OBJECT') return fc.constantFrom('text', 7, [1, 2], { notAField: 1 });
  switch (base.name) {
    case 'Int':
      return fc.constantFrom(2 ** 31, -(2 ** 31) - 1, 1.5, '7', true, 'NaN', 1e300, [7]);
    case 'Float':
      return fc.constantFrom('1.5', true, {}, 'Infinity');
    case 'Boolean':
      return fc.constantFrom('true', 1, 0, 'yes');
    case 'ID':
      return fc.constantFrom(true, 1.5, {}, [1]);
    case 'String':
      return fc.constantFrom(7, true, {}, [], 1.5);
    default:
      return fc.constant(undefined); // any JSON fits a JSON scalar
  }
}

/** Leaf fields of an object type (and one level of object fields below), no required arguments. */
function selection(schema: Schema, t: TypeRef, depth: number): string {
  const base = named(t);
  const type = schema.types.get(base.name!);
  if (!type || (base.kind !== 'OBJECT' && base.kind !== 'INTERFACE')) return '';
  const parts: string[] = [];
  for (const f of type.fields ?? []) {
    if (f.args.some((a) => a.type.kind === 'NON_NULL')) continue;
    const leaf = named(f.type);
    if (leaf.kind === 'SCALAR' || leaf.kind === 'ENUM') parts.push(f.name);
    else if (depth < 1 && (leaf.kind === 'OBJECT' || leaf.kind === 'INTERFACE')) {
      const sub = selection(schema, f.type, depth + 1);
      if (sub) parts.push(`${f.name} ${sub}`);
    }
  }
  return parts.length ? `{ ${parts.join(' ')} }` : '{ __typename }';
}

/** A request on one root field of `kind`, from `fields` (already filtered by the caller). */
export function requestArb(schema: Schema, kind: 'query' | 'mutation', fields: Field[], ids: readonly string[]): fc.Arbitrary<GraphqlRequest> {
  return fc
    .constantFrom(...fields)
    .chain((field) => {
      const values = field.args.map((a) => valueOf(schema, a.type, ids));
      const wrong = field.args.map((a) => wrongValueOf(schema, a.type));
      return fc.tuple(fc.constant(field), fc.tuple(...values), fc.tuple(...wrong), fc.nat({ max: 9 }), fc.nat({ max: Math.max(0, field.args.length - 1) }));
    })
    .map(([field, values, wrong, dice, which]) => {
      const variables: Record<string, unknown> = {};
      const declared: string[] = [];
      const passed: string[] = [];
      field.args.forEach((a, i) => {
        declared.push(`$v${i}: ${typeString(a.type)}`);
        passed.push(`${a.name}: $v${i}`);
        const v = values[i];
        if (v !== null || a.type.kind === 'NON_NULL') variables[`v${i}`] = v;
      });
      let wrongType = false;
      if (dice === 0 && field.args.length > 0 && wrong[which] !== undefined) {
        variables[`v${which}`] = wrong[which];
        wrongType = true;
      }
      const head = declared.length ? `${kind} Fuzz(${declared.join(', ')})` : kind;
      const args = passed.length ? `(${passed.join(', ')})` : '';
      return { query: `${head} { ${field.name}${args} ${selection(schema, field.type, 0)} }`.replace(/\s+\}/g, ' }'), variables, wrongType };
    });
}

/** Requests GraphQL must refuse or answer with errors: broken syntax, unknown fields, abuse of the transport. */
export const malformedQueries: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.constantFrom(
    '{',
    '}',
    '{ me { id }',
    'query { me { id } } query { me { id } }',
    'query A { me { id } } query A { me { id } }',
    '{ nope }',
    '{ me { nope } }',
    '{ me }',
    'mutation { me { id } }',
    '{ me(x: 1) { id } }',
    '{ __schema { types { name fields { name type { name ofType { name ofType { name } } } } } } }',
    '{ me { id } ...F } fragment F on Nope { id }',
    'fragment A on Query { ...B } fragment B on Query { ...A } { ...A }',
    '{ categories(year: "2024") { id } }',
    '{ categories(year: 2024.5) { id } }',
    '{ categories(year: 99999999999) { id } }',
    '{ job(id: null) { id } }',
    'query($x: Int!) { categories(year: $x) { id } }',
    'query($x: NoSuchType) { me { id } }',
    '{ me { id } } # trailing comment',
    '\u0000{ me { id } }',
    '{ "me" { id } }',
    '{ me { id @skip } }',
    '{ me { id @nope(if: true) } }',
    `{ ${Array.from({ length: 2_000 }, (_, i) => `a${i}: __typename`).join(' ')} }`,
    `{ ${Array.from({ length: 300 }, (_, i) => `m${i}: me { id name }`).join(' ')} }`,
    `{ ${'me { '.repeat(3_000)}id${' }'.repeat(3_000)} }`,
    `${'{'.repeat(20_000)}${'}'.repeat(20_000)}`,
    `{ categories(year: 2024) { subCategories { category { subCategories { category { subCategories { category { subCategories { category { id } } } } } } } } } }`,
    `{ me { ${'id '.repeat(10_000)} } }`,
    `query(${Array.from({ length: 500 }, (_, i) => `$v${i}: Int`).join(', ')}) { me { id } }`,
  ),
);

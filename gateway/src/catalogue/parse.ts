import { InvalidArgumentError } from '@green-impact/shared/errors';
import { typeMessage, type Field, type Fields, type InputOf } from './fields.js';

/**
 * Reads an operation's input off either face and checks it against the declaration: present when
 * required, of the declared type. The first field at fault is named in an InvalidArgumentError with the
 * label the caller used (`field` set, for GraphQL's userErrors).
 *
 * Policy, as /v1/call has always read parameters (docs/gateway.md): `undefined`, `null` and `''` count as
 * absent, because legacy clients send empty strings for unused parameters; parameters that no field names
 * are ignored; numbers may arrive as numeric strings and identifiers as numbers.
 */

const isAbsent = (value: unknown) => value === undefined || value === null || value === '';

function check<F extends Fields>(fields: F, valueOf: (name: string, field: Field) => unknown, labelOf: (name: string, field: Field) => string): InputOf<F> {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields)) {
    const value = valueOf(name, field);
    const label = labelOf(name, field);
    if (isAbsent(value) || (field.type === 'list' && Array.isArray(value) && value.length === 0 && field.required)) {
      if (field.required) throw new InvalidArgumentError(field.missingMessage ?? `${label} is required.`, { field: label });
      continue;
    }
    const parsed = field.schema.safeParse(value);
    if (!parsed.success) {
      const said = new Set(parsed.error.issues.map((i) => i.message));
      const issue = said.has('range') ? 'range' : said.has('control') ? 'control' : 'type';
      throw new InvalidArgumentError(`${label} ${typeMessage(field, issue)}`, { field: label });
    }
    out[name] = parsed.data;
  }
  return out as InputOf<F>;
}

/** The input of a /v1/call: each field under its spec name or one of its aliases. */
export function inputFromV1<F extends Fields>(fields: F, raw: Readonly<Record<string, unknown>>): InputOf<F> {
  return check(
    fields,
    (_name, field) => {
      for (const key of [field.v1, ...field.aliases]) if (Object.hasOwn(raw, key) && !isAbsent(raw[key])) return raw[key];
      return undefined;
    },
    (_name, field) => field.v1,
  );
}

/**
 * The input of a GraphQL field: its arguments, or the fields of its `input` argument (labelled
 * `input.<name>`). GraphQL has already checked the types the schema declares; this applies the same
 * declaration as /v1/call so both faces refuse the same things with the same texts.
 */
export function inputFromGraphql<F extends Fields>(fields: F, args: Readonly<Record<string, unknown>>, nested: boolean): InputOf<F> {
  const source = nested ? ((args['input'] ?? {}) as Record<string, unknown>) : args;
  return check(
    fields,
    (name) => source[name],
    (name) => (nested ? `input.${name}` : name),
  );
}

/** GraphQL labels of a declaration's fields by their /v1/call names, to name a service's refusal as the caller did. */
export function graphqlLabels(fields: Fields, nested: boolean): ReadonlyMap<string, string> {
  return new Map(Object.entries(fields).map(([name, field]) => [field.v1, nested ? `input.${name}` : name]));
}

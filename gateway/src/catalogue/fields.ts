import { z } from 'zod';

/**
 * The fields of an operation's input, each declared once: its GraphQL name is the key of the declaration,
 * its /v1/call name (the spec's snake_case, with the misspellings legacy clients send) and its type are
 * here. The gateway checks what a field IS — present when required, a string, an integer, a number, one of
 * an enum's values — and nothing else: bounds, lengths, formats (4-digit years, 3-letter currency codes,
 * dates, e-mail addresses) and every message about them belong to the service that owns the rule
 * (docs/decisions.md, "One owner per rule").
 *
 * zod carries the type of each field (so an operation's input is typed from its declaration) and checks
 * it; the texts of the few messages the gateway answers are written here, once per type, with the label the
 * face gives the field (`reporting_year` on /v1/call, `input.year` or `year` on GraphQL).
 */
export type FieldType = 'string' | 'identifier' | 'int' | 'wideInt' | 'number' | 'enum' | 'json' | 'list';

export interface Field<T = unknown, Required extends boolean = boolean> {
  readonly type: FieldType;
  /** The spec's name on /v1/call. */
  readonly v1: string;
  /** Other names legacy clients send for it (the spec's misspellings). */
  readonly aliases: readonly string[];
  readonly required: Required;
  /** The spec's own text when the parameter is missing, where it fixes one. */
  readonly missingMessage?: string | undefined;
  /** For enums: the values, as the service takes them; matched in any case on /v1/call. */
  readonly values?: readonly string[] | undefined;
  /** The element field of a list. */
  readonly element?: Field | undefined;
  /** What the field means, for GraphQL's and OpenAPI's descriptions. */
  readonly doc?: string | undefined;
  /** Its GraphQL named type when not its type's own (`ID` for an id, an enum's name). */
  readonly graphql?: string | undefined;
  /** The default GraphQL gives the argument when the caller omits it. */
  readonly graphqlDefault?: string | number | boolean | undefined;
  /** The zod schema of a present value (after /v1/call's lenient coercions). */
  readonly schema: z.ZodType<T>;
  /** The same field, not required. */
  optional(): Field<T, false>;
  /** The same field with another description, aliases or missing-text. */
  with(extra: { doc?: string; aliases?: readonly string[]; missingMessage?: string; graphql?: string }): Field<T, Required>;
}

export type Fields = Readonly<Record<string, Field>>;

/** The input an operation's handler gets: required fields present, optional ones possibly undefined. */
export type InputOf<F extends Fields> = {
  -readonly [K in keyof F as F[K] extends Field<unknown, true> ? K : never]: F[K] extends Field<infer T> ? T : never;
} & {
  -readonly [K in keyof F as F[K] extends Field<unknown, true> ? never : K]?: F[K] extends Field<infer T> ? T : never;
};

/** The message of a present value of the wrong type, without its label. */
export const TYPE_MESSAGES: Record<Exclude<FieldType, 'enum' | 'json'>, string> = {
  string: 'must be a string.',
  identifier: 'must be a string.',
  int: 'must be an integer.',
  wideInt: 'must be an integer.',
  number: 'must be a number.',
  list: 'must be a list.',
};
export const OUT_OF_RANGE = 'is out of range.';

const INT32_MAX = 2_147_483_647;
const INT_TEXT = /^[+-]?\d+$/;
const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Numbers may arrive as numeric strings on /v1/call (legacy clients send text); GraphQL sends numbers. */
const numeric = (text: RegExp) =>
  z.preprocess(
    (v) => (typeof v === 'string' && text.test(v) ? Number(v) : v),
    // zod refuses Infinity as a number: a value too large to hold is out of range, not of the wrong type.
    z.number({ error: (issue) => (typeof issue.input === 'number' && !Number.isNaN(issue.input) ? 'range' : 'type') }),
  );

/**
 * Text is a string without control characters (line breaks and tabs allowed in free text, none in a
 * lookup key): part of what the field is, the same for every service, so it is checked here.
 */
const CONTROL_EXCEPT_WHITESPACE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const ANY_CONTROL = /[\u0000-\u001f\u007f]/;

const SCHEMAS = {
  // Text and keys may arrive as numbers on /v1/call (a spec example sends identifiers as numbers).
  string: z
    .union([z.string(), z.number().finite().transform(String)], { error: 'type' })
    .refine((s) => !CONTROL_EXCEPT_WHITESPACE.test(s), { error: 'control' }),
  identifier: z
    .union([z.string(), z.number().finite().transform(String)], { error: 'type' })
    .refine((s) => !ANY_CONTROL.test(s), { error: 'control' }),
  int: numeric(INT_TEXT)
    .refine(Number.isInteger, { error: 'type', abort: true })
    .refine((n) => Math.abs(n) <= INT32_MAX, { error: 'range' }),
  wideInt: numeric(INT_TEXT)
    .refine(Number.isInteger, { error: 'type', abort: true })
    .refine(Number.isSafeInteger, { error: 'range' }),
  number: numeric(NUMBER_TEXT),
  json: z.unknown(),
} as const;

function make<T, R extends boolean>(base: Omit<Field<T, R>, 'optional' | 'with' | 'aliases'> & { aliases?: readonly string[] }): Field<T, R> {
  const field: Field<T, R> = {
    ...base,
    aliases: base.aliases ?? [],
    optional: () => make<T, false>({ ...field, required: false }),
    with: (extra) => make<T, R>({ ...field, ...extra }),
  };
  return field;
}

type Options = { aliases?: readonly string[]; doc?: string; missingMessage?: string; graphql?: string; graphqlDefault?: string | number | boolean };

/** Free text such as a name (GraphQL String). */
export const text = (v1: string, o: Options = {}) => make<string, true>({ type: 'string', v1, required: true, schema: SCHEMAS.string, ...o });
/** A lookup key: an identifier, a code, a language (GraphQL String; /v1/call also takes a number). */
export const identifier = (v1: string, o: Options = {}) =>
  make<string, true>({ type: 'identifier', v1, required: true, schema: SCHEMAS.identifier, ...o });
/** A 32-bit integer: an id, a year, a count (GraphQL Int). */
export const int = (v1: string, o: Options = {}) => make<number, true>({ type: 'int', v1, required: true, schema: SCHEMAS.int, ...o });
/** An integer beyond 32 bits, such as a millisecond timestamp. */
export const wideInt = (v1: string, o: Options = {}) =>
  make<number, true>({ type: 'wideInt', v1, required: true, schema: SCHEMAS.wideInt, ...o });
/** A finite number: an amount, a rate (GraphQL Float). */
export const number = (v1: string, o: Options = {}) => make<number, true>({ type: 'number', v1, required: true, schema: SCHEMAS.number, ...o });
/** Any JSON value, passed on untouched. */
export const json = (v1: string, o: Options = {}) => make<unknown, true>({ type: 'json', v1, required: true, schema: SCHEMAS.json, ...o });

/** One of `values`, matched in any case on /v1/call and answered as spelled here. */
export function oneOf<const V extends string>(v1: string, values: readonly V[], o: Options = {}): Field<V, true> {
  const byLower = new Map(values.map((v) => [v.toLowerCase(), v]));
  const schema = z.preprocess(
    (v) => (typeof v === 'string' ? (byLower.get(v.toLowerCase()) ?? v) : v),
    z.enum(values as unknown as [V, ...V[]], { error: 'type' }),
  ) as unknown as z.ZodType<V>;
  return make<V, true>({ type: 'enum', v1, required: true, values, schema, ...o });
}

/**
 * A yes / no flag: GraphQL's Boolean; /v1/call takes a JSON boolean or the spec's yes / no (and true / false)
 * as text, in any case, and describes it as yes / no.
 */
export function flag(v1: string, o: Options = {}): Field<boolean, true> {
  const words: Record<string, boolean> = { yes: true, no: false, true: true, false: false };
  const schema = z.preprocess((v) => (typeof v === 'string' ? (words[v.toLowerCase()] ?? v) : v), z.boolean({ error: 'type' })) as unknown as z.ZodType<boolean>;
  return make<boolean, true>({ type: 'enum', v1, required: true, values: ['yes', 'no'], schema, graphql: 'Boolean', ...o });
}

/** A list of `element`s (absent and empty are the same). */
export function listOf<T>(v1: string, element: Field<T>, o: Options = {}): Field<T[], true> {
  const schema = z.array(element.schema, { error: 'type' }) as unknown as z.ZodType<T[]>;
  return make<T[], true>({ type: 'list', v1, required: true, element, schema, ...o });
}

/** What zod found wrong with a present value. */
export type Issue = 'type' | 'range' | 'control';

/** The label-less message of a field whose present value zod refused. */
export function typeMessage(field: Field, issue: Issue): string {
  if (issue === 'range') return OUT_OF_RANGE;
  if (issue === 'control') return 'must not contain control characters.';
  if (field.type === 'enum') {
    const values = field.values ?? [];
    return values.length === 2 ? `must be ${values[0]} or ${values[1]}.` : `must be one of ${values.join(', ')}.`;
  }
  if (field.type === 'json') return 'must be JSON.';
  return TYPE_MESSAGES[field.type];
}

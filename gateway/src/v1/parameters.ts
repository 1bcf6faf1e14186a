import { InvalidArgumentError } from '@green-impact/shared/errors';

/**
 * Declarative parameter specs for /v1/call and the one validator that applies them. Pure: no I/O.
 *
 * Policy (documented in docs/gateway.md):
 * - `undefined`, `null` and `''` count as absent, because legacy clients send empty strings for unused
 *   parameters.
 * - Strings are kept as given (not trimmed); control characters are rejected.
 * - Integers and numbers may arrive as numeric strings, and identifiers as numbers.
 * - Parameters that no spec names are ignored.
 */
export type ParamType =
  | 'string' // free text such as a name; default max length 255
  | 'identifier' // a lookup key; default max length 255, no control characters at all
  | 'email' // an e-mail address; max length 320
  | 'int'
  | 'number'
  | 'year' // 4 digits
  | 'currency' // 3 letters, returned uppercased
  | 'date' // YYYY-MM-DD, a real calendar date
  | 'yesno' // yes | no (any case), returned lowercased
  | 'visibility' // public | private (any case), returned lowercased
  | 'enum' // one of `values` (any case), returned as spelled in `values`
  | 'json'; // any JSON value, passed on untouched

export interface ParamSpec {
  readonly type: ParamType;
  readonly required?: boolean;
  /** Text given instead of `<name> is required.` when the parameter is missing (the spec fixes some). */
  readonly missingMessage?: string;
  /** For string, identifier and email. */
  readonly maxLength?: number;
  /** Inclusive bounds for int and number. */
  readonly min?: number;
  readonly max?: number;
  /** An `int` that may exceed 32 bits (millisecond timestamps); others are bounded to int4 like the ids they name. */
  readonly wide?: boolean;
  /** For enum. */
  readonly values?: readonly string[];
  /** Other names legacy clients send for this parameter (the spec's misspellings). */
  readonly aliases?: readonly string[];
  /**
   * Described from a catalogue declaration (catalogue/v1.ts): the gateway checks the type alone and the
   * service owns every bound, so no default length applies.
   */
  readonly unbounded?: boolean;
}

export type ParamSpecs = Readonly<Record<string, ParamSpec>>;

type ValueOf<S extends ParamSpec> = S['type'] extends 'int' | 'number' | 'year'
  ? number
  : S['type'] extends 'json'
    ? unknown
    : S extends { type: 'enum'; values: readonly (infer V extends string)[] }
      ? V
      : string;

/** The validated parameters of an operation, typed from its specs. */
export type ParamsOf<S extends ParamSpecs> = {
  -readonly [K in keyof S as S[K]['required'] extends true ? K : never]: ValueOf<S[K]>;
} & {
  -readonly [K in keyof S as S[K]['required'] extends true ? never : K]?: ValueOf<S[K]>;
};

const DEFAULT_MAX_LENGTH: Partial<Record<ParamType, number>> = { string: 255, identifier: 255, email: 320 };
const ANY_CONTROL = /[\u0000-\u001f\u007f]/;
const CONTROL_EXCEPT_WHITESPACE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const INT_TEXT = /^[+-]?\d+$/;
const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const DATE_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Validates and normalises `raw` against `specs`. Returns only the parameters the specs name, under
 * their canonical names; throws InvalidArgumentError naming the first offending parameter.
 * `labels` renames parameters in messages (GraphQL passes its camelCase field names).
 */
export function validateParameters<S extends ParamSpecs>(
  specs: S,
  raw: Readonly<Record<string, unknown>>,
  labels: Partial<Record<keyof S & string, string>> = {},
): ParamsOf<S> {
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const label = labels[name] ?? name;
    const value = pick(raw, name, spec.aliases);
    if (value === undefined) {
      if (spec.required) throw invalid(label, spec.missingMessage ?? `${label} is required.`);
      continue;
    }
    out[name] = coerce(label, spec, value);
  }
  return out as ParamsOf<S>;
}

function isAbsent(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

function pick(raw: Readonly<Record<string, unknown>>, name: string, aliases: readonly string[] = []): unknown {
  for (const key of [name, ...aliases]) {
    if (Object.hasOwn(raw, key) && !isAbsent(raw[key])) return raw[key];
  }
  return undefined;
}

function coerce(label: string, spec: ParamSpec, value: unknown): unknown {
  switch (spec.type) {
    case 'string':
    case 'identifier':
    case 'email':
      return text(label, spec, value);
    case 'int':
      return integer(label, spec, value);
    case 'number':
      return decimal(label, spec, value);
    case 'year':
      return year(label, value);
    case 'currency': {
      if (typeof value !== 'string' || !/^[A-Za-z]{3}$/.test(value)) {
        throw invalid(label, `${label} must be a 3-letter currency code.`);
      }
      return value.toUpperCase();
    }
    case 'date':
      return date(label, value);
    case 'yesno':
      return choice(label, value, ['yes', 'no'], `${label} must be yes or no.`);
    case 'visibility':
      return choice(label, value, ['public', 'private'], `${label} must be public or private.`);
    case 'enum': {
      const values = spec.values ?? [];
      return choice(label, value, values, `${label} must be one of ${values.join(', ')}.`);
    }
    case 'json':
      return value;
  }
}

function text(label: string, spec: ParamSpec, value: unknown): string {
  let s: string;
  if (typeof value === 'string') s = value;
  else if (typeof value === 'number' && Number.isFinite(value) && spec.type !== 'email') s = String(value);
  else throw invalid(label, `${label} must be a string.`);
  const max = spec.maxLength ?? DEFAULT_MAX_LENGTH[spec.type] ?? 255;
  if (s.length > max) throw invalid(label, `${label} must be at most ${max} characters.`);
  const forbidden = spec.type === 'string' ? CONTROL_EXCEPT_WHITESPACE : ANY_CONTROL;
  if (forbidden.test(s)) throw invalid(label, `${label} must not contain control characters.`);
  if (spec.type === 'email' && !EMAIL.test(s)) throw invalid(label, `${label} must be an e-mail address.`);
  return s;
}

const INT32_MAX = 2_147_483_647;

function integer(label: string, spec: ParamSpec, value: unknown): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && INT_TEXT.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n)) throw invalid(label, `${label} must be an integer.`);
  if (!Number.isSafeInteger(n)) throw invalid(label, `${label} is out of range.`);
  // Ids and counts are 32-bit in storage; a larger value is the client's mistake, said here.
  if (!spec.wide && spec.max === undefined && Math.abs(n) > INT32_MAX) throw invalid(label, `${label} is out of range.`);
  return inRange(label, spec, n);
}

function decimal(label: string, spec: ParamSpec, value: unknown): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && NUMBER_TEXT.test(value) ? Number(value) : NaN;
  if (Number.isNaN(n)) throw invalid(label, `${label} must be a number.`);
  if (!Number.isFinite(n)) throw invalid(label, `${label} is out of range.`);
  return inRange(label, spec, n);
}

function inRange(label: string, spec: ParamSpec, n: number): number {
  const { min, max } = spec;
  if ((min !== undefined && n < min) || (max !== undefined && n > max)) {
    const bounds =
      min !== undefined && max !== undefined
        ? `between ${min} and ${max}`
        : min !== undefined
          ? `at least ${min}`
          : `at most ${max}`;
    throw invalid(label, `${label} must be ${bounds}.`);
  }
  return n;
}

function year(label: string, value: unknown): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d{4}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1000 || n > 9999) throw invalid(label, `${label} must be a 4-digit year.`);
  return n;
}

function date(label: string, value: unknown): string {
  const m = typeof value === 'string' ? DATE_TEXT.exec(value) : null;
  if (m) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const parsed = new Date(Date.UTC(y, mo - 1, d));
    if (parsed.getUTCFullYear() === y && parsed.getUTCMonth() === mo - 1 && parsed.getUTCDate() === d) {
      return value as string;
    }
  }
  throw invalid(label, `${label} must be a date in the form YYYY-MM-DD.`);
}

/** A validation failure naming the parameter at fault (`field`, for GraphQL's userErrors). */
function invalid(label: string, message: string): InvalidArgumentError {
  return new InvalidArgumentError(message, { field: label });
}

/** Case-insensitive match; returns the value as spelled in `values`. */
function choice(label: string, value: unknown, values: readonly string[], message: string): string {
  if (typeof value === 'string') {
    const wanted = value.toLowerCase();
    const found = values.find((v) => v.toLowerCase() === wanted);
    if (found !== undefined) return found;
  }
  throw invalid(label, message);
}

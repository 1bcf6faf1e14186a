import { GraphQLError, GraphQLScalarType, Kind, print, type ValueNode } from 'graphql';

/**
 * The exact scalars of the GraphQL face (issue 29): money, amounts, values and rates as `Decimal` (a
 * string on the wire), calendar dates as `Date` and instants as `DateTime`. They are written here rather
 * than taken from graphql-scalars: that library has no decimal, and its Date and DateTime turn values
 * into JS Date objects and back, where the face wants the service's own text passed through, checked.
 *
 * Why 15 significant digits: the services store amounts as IEEE 754 doubles (PostgreSQL `double
 * precision`), and every decimal of at most 15 significant digits survives the trip through a double
 * and back exactly. So a Decimal given with up to 15 digits is answered with the same digits, and a
 * computed figure (an attributed impact, a share, an FX conversion) is answered to its first 15 digits,
 * without a binary float's artefacts (0.30000000000000004 is 0.3). More digits than that would be
 * silently rounded by the store, so they are refused on input.
 */
export const DECIMAL_DIGITS = 15;

const DECIMAL_TEXT = /^-?(\d+)(\.\d+)?$/;

/** A finite number as plain decimal text (no exponent) to `DECIMAL_DIGITS` significant digits, trailing zeros dropped. */
export function decimalText(n: number): string {
  if (!Number.isFinite(n)) throw new TypeError(`${n} is not a finite number`);
  if (n === 0) return '0';
  const [mantissa, exponent] = Math.abs(n).toExponential(DECIMAL_DIGITS - 1).split('e') as [string, string];
  const digits = mantissa.replace('.', '').replace(/0+$/, '');
  const point = Number(exponent) + 1; // digits before the decimal point
  const text =
    point <= 0 ? `0.${'0'.repeat(-point)}${digits}` : point >= digits.length ? digits + '0'.repeat(point - digits.length) : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return n < 0 ? `-${text}` : text;
}

/** How many significant digits a decimal text has (leading and trailing zeros are not). */
function significantDigits(text: string): number {
  return text.replace(/^-/, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '').length;
}

/** A scalar's refusal of a client's value (graphql-js reports it as a variable or argument error). */
export function badInput(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });
}

/** A Decimal given as text: checked, and the number the services take. */
function decimalFromText(text: string): number {
  if (!DECIMAL_TEXT.test(text)) throw badInput(`Decimal must be a decimal number such as "1250000.50" (digits, an optional leading minus and decimal point): got ${JSON.stringify(text.slice(0, 40))}.`);
  if (significantDigits(text) > DECIMAL_DIGITS) {
    throw badInput(`Decimal carries at most ${DECIMAL_DIGITS} significant digits (the service would round ${text.slice(0, 40)}).`);
  }
  return Number(text);
}

export const decimalScalar = new GraphQLScalarType({
  name: 'Decimal',
  description: `An exact decimal number, as a string on the wire: "1250000.5", "-0.25". At most ${DECIMAL_DIGITS} significant digits, which the service keeps exactly; computed figures (attributed impacts, shares, conversions) are given to ${DECIMAL_DIGITS} significant digits. Input also accepts a number literal.`,
  serialize(value) {
    if (typeof value === 'number') return decimalText(value);
    if (typeof value === 'string' && DECIMAL_TEXT.test(value)) return decimalText(Number(value));
    throw new GraphQLError(`Decimal cannot represent ${JSON.stringify(value)}.`);
  },
  parseValue(value) {
    if (typeof value === 'string') return decimalFromText(value.trim());
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    throw badInput(`Decimal must be a string such as "1250000.50" or a finite number: got ${JSON.stringify(value)}.`);
  },
  parseLiteral(node: ValueNode) {
    if (node.kind === Kind.STRING || node.kind === Kind.INT || node.kind === Kind.FLOAT) {
      if (node.kind === Kind.FLOAT && /e/i.test(node.value)) return decimalFromText(decimalText(Number(node.value)));
      return decimalFromText(node.value);
    }
    throw badInput(`Decimal must be a string such as "1250000.50" or a number literal: got ${print(node)}.`);
  },
});

const DATE_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `text` is a calendar date YYYY-MM-DD that exists (no 31 April). */
function isCalendarDate(text: string): boolean {
  const m = DATE_TEXT.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

export const dateScalar = new GraphQLScalarType({
  name: 'Date',
  description: 'A calendar date, RFC 3339 full-date: "2025-06-30".',
  specifiedByURL: 'https://www.rfc-editor.org/rfc/rfc3339#section-5.6',
  serialize(value) {
    if (value instanceof Date) return value.toISOString().slice(0, 10);
    if (typeof value === 'string' && isCalendarDate(value.slice(0, 10))) return value.slice(0, 10);
    throw new GraphQLError(`Date cannot represent ${JSON.stringify(value)}.`);
  },
  parseValue(value) {
    if (typeof value === 'string' && isCalendarDate(value)) return value;
    throw badInput(`Date must be a calendar date YYYY-MM-DD such as "2025-06-30": got ${JSON.stringify(value)}.`);
  },
  parseLiteral(node) {
    if (node.kind === Kind.STRING && isCalendarDate(node.value)) return node.value;
    throw badInput(`Date must be a calendar date YYYY-MM-DD such as "2025-06-30": got ${print(node)}.`);
  },
});

const DATE_TIME_TEXT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export const dateTimeScalar = new GraphQLScalarType({
  name: 'DateTime',
  description: 'An instant, RFC 3339 date-time in UTC: "2025-06-30T12:00:00.000Z".',
  specifiedByURL: 'https://www.rfc-editor.org/rfc/rfc3339#section-5.6',
  serialize(value) {
    const date = value instanceof Date ? value : typeof value === 'number' ? new Date(value) : typeof value === 'string' && DATE_TIME_TEXT.test(value) ? new Date(value) : undefined;
    if (!date || Number.isNaN(date.getTime())) throw new GraphQLError(`DateTime cannot represent ${JSON.stringify(value)}.`);
    return date.toISOString();
  },
  parseValue(value) {
    if (typeof value === 'string' && DATE_TIME_TEXT.test(value) && !Number.isNaN(Date.parse(value))) return new Date(value).toISOString();
    throw badInput(`DateTime must be an RFC 3339 date-time such as "2025-06-30T12:00:00Z": got ${JSON.stringify(value)}.`);
  },
  parseLiteral(node) {
    if (node.kind === Kind.STRING && DATE_TIME_TEXT.test(node.value) && !Number.isNaN(Date.parse(node.value))) return new Date(node.value).toISOString();
    throw badInput(`DateTime must be an RFC 3339 date-time such as "2025-06-30T12:00:00Z": got ${print(node)}.`);
  },
});

/** The SDL of the scalars, for the schema's type definitions. */
export const scalarTypeDefs = /* GraphQL */ `
  """${decimalScalar.description}"""
  scalar Decimal

  """${dateScalar.description}"""
  scalar Date @specifiedBy(url: "${dateScalar.specifiedByURL}")

  """${dateTimeScalar.description}"""
  scalar DateTime @specifiedBy(url: "${dateTimeScalar.specifiedByURL}")
`;

export const scalarResolvers = { Decimal: decimalScalar, Date: dateScalar, DateTime: dateTimeScalar };

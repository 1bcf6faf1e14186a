import fc from 'fast-check';
import type { Field } from '@green-impact/gateway/catalogue/fields';

/**
 * Values for /v1/call parameters, from each parameter's field in the gateway's operation table (the
 * catalogue's declarations): `adversarialValue` stays inside the field's type (so it reaches the services)
 * but is hostile in content; `invalidValue` is outside it by construction (so the request must be refused,
 * by the gateway for its type or by the service for its length).
 */

/** Largest value of the services' `serial` (int4) ids. */
export const INT4_MAX = 2_147_483_647;

/** The services' longest text or identifier (their validation; the gateway checks types only). */
const TEXT_MAX = 255;

/** Hostile text that is still valid text: injections, tricky unicode, numbers-as-text, keywords. */
export const HOSTILE_TEXT: readonly string[] = [
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '" OR ""="',
  '1; SELECT pg_sleep(5) --',
  "admin'--",
  '%s%s%s%n',
  '$1',
  '\\',
  '../../../../etc/passwd',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '${7*7}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '\u202eRTL override\u202c',
  'مرحبا بالعالم',
  'שלום',
  '🌱💧🔥👩‍👩‍👧‍👦',
  'e\u0301\u0301\u0301',
  '\ufeffBOM',
  'zero\u200bwidth',
  '\ud800',
  '\udfff',
  'lone \ud83d high',
  'Ｆｕｌｌｗｉｄｔｈ',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '0x1F',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  ' ',
  '%00',
  '\u00a0',
  'tab\tand\nnewline', // allowed in free text, refused in identifiers
];

/** Printable graphemes from the whole of Unicode, and now and then a hostile piece. */
const textArb = (maxLength: number): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_TEXT) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: Math.min(40, maxLength) }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: Math.min(20, maxLength) }) },
    // Exactly at the limit, in characters that take 1, 2 and 4 bytes of UTF-8.
    { weight: 1, arbitrary: fc.constantFrom('x'.repeat(maxLength), 'é'.repeat(maxLength), '😀'.repeat(Math.floor(maxLength / 2))) },
  );

const CONTROL = /[\u0000-\u001f\u007f]/g;
const CONTROL_EXCEPT_WHITESPACE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
const nonEmpty = (s: string) => (s === '' ? 'x' : s);

export interface ValuePools {
  /** Identifiers that exist (of the target account and others): hostile traffic aims at real rows. */
  identifiers: readonly string[];
  /** Numeric ids that exist (taxonomy items, positions). */
  ids: readonly number[];
}

function caseOf(value: string): fc.Arbitrary<string> {
  return fc.constantFrom(value, value.toUpperCase(), value[0]!.toUpperCase() + value.slice(1));
}

/** A value the field accepts, hostile in content. */
export function adversarialValue(name: string, field: Field, pools: ValuePools): fc.Arbitrary<unknown> {
  switch (field.type) {
    case 'string':
      return textArb(TEXT_MAX).map((s) => nonEmpty(s.replace(CONTROL_EXCEPT_WHITESPACE, '')));
    case 'identifier':
      return fc.oneof(
        { weight: 2, arbitrary: fc.constantFrom(...pools.identifiers) },
        { weight: 3, arbitrary: textArb(TEXT_MAX).map((s) => nonEmpty(s.replace(CONTROL, ''))) },
        { weight: 1, arbitrary: fc.integer({ min: 0, max: INT4_MAX }) }, // identifiers may be numbers
      );
    case 'int':
    case 'wideInt': {
      const n = fc.oneof(
        fc.constantFrom(-INT4_MAX, INT4_MAX),
        fc.integer({ min: -INT4_MAX, max: INT4_MAX }),
        ...(name.endsWith('_id') && pools.ids.length ? [fc.constantFrom(...pools.ids)] : []),
      );
      return fc.oneof(n, n.map(String));
    }
    case 'number': {
      const n = fc.double({ min: -1e308, max: 1e308, noNaN: true, noDefaultInfinity: true });
      return fc.oneof(n, n.map((x) => String(x)), fc.constantFrom(0, 1e15, 5e-324, 1e-7));
    }
    case 'enum':
      return fc.constantFrom(...(field.values ?? ['x'])).chain(caseOf);
    case 'json':
      return innerSaveValue(name);
    case 'list':
      return fc.array(adversarialValue(name, field.element!, pools), { maxLength: 3 });
  }
}

/** The inner save parameters of the blockchain writes: mostly right, sometimes any JSON at all. */
function innerSaveValue(name: string): fc.Arbitrary<unknown> {
  const right: Record<string, unknown> = { solution: 'SVC.Blockchain.Save', operation: 'save', version: 1, network: 'sepolia' };
  return fc.oneof({ weight: 4, arbitrary: fc.constant(right[name] ?? 'x') }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) });
}

const notText = fc.oneof(fc.boolean(), fc.constant([]), fc.array(fc.string(), { minLength: 1, maxLength: 3 }), fc.dictionary(fc.string(), fc.string(), { minKeys: 0, maxKeys: 3 }), fc.constant({ __proto__: null }));

/** A value the field refuses, whatever else the request holds. */
export function invalidValue(field: Field): fc.Arbitrary<unknown> | undefined {
  const tooLong = fc.integer({ min: 1, max: 5_000 }).map((extra) => 'y'.repeat(TEXT_MAX + extra));
  switch (field.type) {
    case 'string':
      return fc.oneof(notText, tooLong, fc.constantFrom('nul\u0000byte', 'bell\u0007', 'esc\u001b[31m', 'del\u007f'));
    case 'identifier':
      return fc.oneof(notText, tooLong, fc.constantFrom('nul\u0000byte', 'line\nbreak', 'tab\tbed', 'cr\r', '\u001f'));
    case 'int':
    case 'wideInt':
      return fc.oneof(
        notText,
        fc.double({ noInteger: true, noNaN: true, noDefaultInfinity: true }),
        fc.constantFrom(1.5, -0.5, 1e-7, '1.5', 'NaN', 'Infinity', '-Infinity', '1e3', '0x10', ' 7', '7 ', '٣', '1_000', 2 ** 53, 1e20, -(2 ** 53), '99999999999999999999'),
      );
    case 'number':
      return fc.oneof(notText, fc.constantFrom('NaN', 'Infinity', '-Infinity', '1e400', '-1e400', 'abc', '1,5', '1.2.3', '0x10', '--1'));
    case 'enum':
      return fc.oneof(notText, fc.constantFrom('root', 'superadmin', 'operator', 'admin ', 7));
    case 'json':
      return undefined; // anything is JSON: no invalid value exists at this level
    case 'list':
      return fc.constantFrom<unknown>('a', 42, true, {});
  }
}

/** Keys that must never change how an object behaves, with values that would if they did. */
export const POLLUTION: fc.Arbitrary<Record<string, unknown>> = fc.constantFrom<Record<string, unknown>>(
  JSON.parse('{"__proto__": {"role": "operator", "isAdmin": true, "accountId": "1"}}'),
  { constructor: { prototype: { role: 'operator', polluted: true } } },
  JSON.parse('{"__proto__": {"polluted": "yes"}, "constructor": {"name": "x"}}'),
  { prototype: { polluted: true } },
  { toString: 'x', valueOf: 'y', hasOwnProperty: 'z' },
  {},
);

/** A JSON value nested `depth` levels deep (arrays or objects). */
export function nested(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

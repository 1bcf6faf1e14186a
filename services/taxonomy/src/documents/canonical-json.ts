/** A JSON value as the documents build it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * Canonical JSON text: object keys sorted (by UTF-16 code units, as RFC 8785 sorts them), no
 * insignificant whitespace, numbers in ECMAScript's shortest round-trip form, -0 written as 0. The same
 * value always gives the same text, whatever order its keys were built in. Non-finite numbers are refused.
 */
export function canonicalJson(value: Json): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`JSON has no representation for ${value}.`);
    return JSON.stringify(value === 0 ? 0 : value);
  }
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k]!)}`).join(',')}}`;
}

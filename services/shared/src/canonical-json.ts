/** A JSON value as documents are built: object members whose value is undefined are left out. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue | undefined };

/**
 * Canonical JSON (RFC 8785, JCS): object members sorted by the UTF-16 code units of their names at every
 * level, no insignificant whitespace, strings and numbers as ECMAScript serializes them (the shortest
 * round-trip form; -0 is 0). The same value is always the same bytes, whatever order it was built in, so
 * the SHA-256 anchored on a chain can be recomputed from the stored document by anyone. Non-finite numbers
 * have no JSON form and are refused. The one implementation: framework documents (taxonomy) and position
 * impact documents (portfolio) both hash what this writes.
 */
export function canonicalJson(value: JsonValue): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`JSON has no representation for ${value}.`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  // Plain string comparison orders by UTF-16 code units, as RFC 8785 §3.2.3 requires.
  const keys = Object.keys(value)
    .filter((k) => value[k] !== undefined)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k]!)}`).join(',')}}`;
}

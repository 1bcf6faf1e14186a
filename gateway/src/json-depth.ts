/**
 * The deepest nesting of arrays and objects any JSON input may have: a /v1/call body, a GraphQL request
 * (its variables and extensions), a JSON scalar's value on either face. Every serializer and walker behind
 * the gateway (protobuf's Struct, graphql-js's value coercion, the services' JSON columns) recurses per
 * level: 10,000 levels answered 500 "Maximum call stack size exceeded" (issue 46). No honest input of this
 * API nests more than a few levels; a GraphQL request body adds five around a variable's value.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether `value` nests arrays and objects more than `limit` levels deep (`{}` and `[]` are one level).
 * Stops at the first level past the limit, so its own recursion is bounded by `limit` whatever the input.
 */
export function jsonTooDeep(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  const deeper = (v: unknown, depth: number): boolean => {
    if (typeof v !== 'object' || v === null) return false;
    if (depth >= limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (deeper(child, depth + 1)) return true;
    return false;
  };
  return deeper(value, 0);
}

/** The message of a refusal of JSON nested deeper than MAX_JSON_DEPTH; `what` names the input. */
export function tooDeepMessage(what: string): string {
  return `${what} nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep; at most ${MAX_JSON_DEPTH} are allowed.`;
}

/** A message value as a JSON object, or undefined for anything else (garbage, arrays, scalars). */
export function jsonObjectOf(value: Buffer): Record<string, unknown> | undefined {
  try {
    const raw: unknown = JSON.parse(value.toString('utf8'));
    return typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

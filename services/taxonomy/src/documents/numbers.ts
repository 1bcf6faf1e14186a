/**
 * Numbers in rendered documents. Rounding is decimal (1.005 → 1.01 at 2 decimals, half away from zero),
 * not binary as toFixed alone would do, and never depends on the locale or the ICU version, so the same
 * figures give the same bytes everywhere.
 */
export function roundTo(value: number, decimals: number): number {
  if (!Number.isFinite(value) || Number.isInteger(value)) return value === 0 ? 0 : value;
  const [mantissa, exponent] = value.toExponential().split('e') as [string, string];
  const shifted = Math.round(Math.abs(Number(`${mantissa}e${Number(exponent) + decimals}`)));
  const rounded = Math.sign(value) * Number(`${shifted}e${-decimals}`);
  return rounded === 0 ? 0 : rounded; // no -0
}

/**
 * `value` rounded to `decimals` and written with exactly that many decimals, "." as the decimal sign and
 * the integer digits grouped by three with `groupSeparator` (default a narrow no-break space, the
 * language-neutral grouping of ISO 80000-1): 450000000 → "450 000 000.00".
 */
export function formatNumber(value: number, decimals: number, groupSeparator = '\u202f'): string {
  const fixed = roundTo(value, decimals).toFixed(decimals);
  const match = /^(-?)(\d+)(\.\d+)?$/.exec(fixed);
  if (!match) return fixed; // 1e21 and beyond: toFixed answers exponential notation
  const [, sign, integer, fraction = ''] = match;
  return `${sign}${integer!.replace(/\B(?=(\d{3})+$)/g, groupSeparator)}${fraction}`;
}

/**
 * Rounding and printing of document figures, deterministic on every platform (no locale). Rounds half
 * away from zero on the decimal representation, so 1.005 with 2 decimals is 1.01, not binary 1.00.
 */
export function roundTo(value: number, decimals: number): number {
  if (!Number.isFinite(value)) throw new RangeError(`cannot round ${value}`);
  const factor = 10 ** decimals;
  // 1.005 · 100 is 100.49999999999999 in binary; 15 significant digits snap it back to 100.5.
  const shifted = Number((Math.abs(value) * factor).toPrecision(15));
  const rounded = (Math.sign(value) * Math.round(shifted)) / factor;
  return rounded === 0 ? 0 : rounded; // no -0
}

/** 1234567.891 with 2 decimals → "1,234,567.89"; always exactly `decimals` digits after the point. */
export function formatFixed(value: number, decimals: number): string {
  const [whole, fraction] = Math.abs(roundTo(value, decimals)).toFixed(decimals).split('.') as [string, string | undefined];
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const sign = roundTo(value, decimals) < 0 ? '-' : '';
  return `${sign}${grouped}${fraction !== undefined ? `.${fraction}` : ''}`;
}

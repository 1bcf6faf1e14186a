/**
 * The one formatter of figures on every page and document (taxonomy framework documents, ICMA and EU GBS
 * reports, portfolio position documents, the gateway's impact report pages), so the same number reads the
 * same everywhere and documents anchored by hash give the same bytes on every platform.
 *
 * - Rounding is half away from zero on the number's decimal string (its shortest round-trip form), never on
 *   binary floats: 1.005 → 1.01 at 2 decimals (toFixed alone gives 1.00), 2.5 → 3, -1.005 → -1.01.
 * - "." is the decimal sign; integer digits are grouped by three with a narrow no-break space (U+202F, the
 *   language-neutral grouping of ISO 80000-1): 1 000 000.00. No locale, no ICU.
 * - An amount is the figure, a no-break space (U+00A0) and the currency code after it: 4 986.34 EUR; a
 *   percentage is the figure, a narrow no-break space and "%". Neither breaks across lines.
 * - Ratios (FX rates, τ, shares P_f ÷ D) are written with RATIO_DECIMALS decimals, not their 16 binary digits.
 */

/** Decimals of ratios: FX rates, τ (days held ÷ days in the year), shares P_f ÷ D. */
export const RATIO_DECIMALS = 6;
/** Groups the integer digits of a figure: narrow no-break space. */
export const DIGIT_GROUP = '\u202f';
/** Between an amount and its currency code: no-break space. */
export const CURRENCY_SPACE = '\u00a0';

/** `digits` × 10^(point − digits.length): the decimal digits of |value| as JavaScript prints it shortest. */
function decimalOf(value: number): { negative: boolean; digits: string; point: number } {
  const [mantissa, exponent] = Math.abs(value).toExponential().split('e') as [string, string];
  return { negative: value < 0, digits: mantissa.replace('.', ''), point: Number(exponent) + 1 };
}

/** A string of decimal digits plus one ("" + 1 = "1", "099" + 1 = "100"). */
function increment(digits: string): string {
  const out = digits.split('');
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i] !== '9') {
      out[i] = String(Number(out[i]) + 1);
      return out.join('');
    }
    out[i] = '0';
  }
  return `1${out.join('')}`;
}

function checked(value: number, decimals: number): void {
  if (!Number.isFinite(value)) throw new RangeError(`a figure must be a finite number, got ${value}`);
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 100) throw new RangeError(`decimals must be an integer from 0 to 100, got ${decimals}`);
}

/**
 * `value` rounded half away from zero to `decimals`, written plainly with exactly that many decimals and
 * no grouping ("1234.57"): machine-read text such as CSV cells. Never exponential notation.
 */
export function decimalString(value: number, decimals: number): string {
  checked(value, decimals);
  const { negative, digits, point } = decimalOf(value);
  const keep = point + decimals; // digits of `digits` that stay
  const kept = keep <= 0 ? '' : digits.slice(0, keep).padEnd(keep, '0');
  const next = keep < 0 ? '0' : (digits[keep] ?? '0'); // the first digit dropped
  const rounded = (next >= '5' ? increment(kept) : kept).replace(/^0+/, '').padStart(decimals + 1, '0');
  const integer = rounded.slice(0, rounded.length - decimals);
  const fraction = rounded.slice(rounded.length - decimals);
  const zero = /^[0]*$/.test(rounded);
  return `${negative && !zero ? '-' : ''}${integer}${decimals > 0 ? `.${fraction}` : ''}`;
}

/** `value` rounded half away from zero to `decimals` as a number (JSON documents): 1.005 → 1.01; never -0. */
export function roundTo(value: number, decimals: number): number {
  return Number(decimalString(value, decimals));
}

/** A figure for people: rounded, exactly `decimals` decimals, digits grouped (450000000 → "450 000 000.00"). */
export function formatFigure(value: number, decimals: number): string {
  const [, sign, integer, fraction] = /^(-?)(\d+)(\.\d+)?$/.exec(decimalString(value, decimals))!;
  return `${sign}${integer!.replace(/\B(?=(\d{3})+$)/g, DIGIT_GROUP)}${fraction ?? ''}`;
}

/** An amount with its currency after it: "4 986.34 EUR". */
export function formatAmount(value: number, decimals: number, currencyCode: string): string {
  return `${formatFigure(value, decimals)}${CURRENCY_SPACE}${currencyCode}`;
}

/** A percentage given in percent (25 for 25 %): "25.00 %". */
export function formatPercent(value: number, decimals: number): string {
  return `${formatFigure(value, decimals)}${DIGIT_GROUP}%`;
}

/** A ratio (FX rate, τ, share P_f ÷ D) with RATIO_DECIMALS decimals: 0.7424657534246575 → "0.742466". */
export function formatRatio(value: number): string {
  return formatFigure(value, RATIO_DECIMALS);
}

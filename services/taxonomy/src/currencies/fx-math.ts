import type { FxRate } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import type { FxRateRow } from './entities.js';

/**
 * How a year's FX listing and lookups derive from the stored rates (pure, unit-tested). Only what an
 * operator added is stored, one row per currency pair and year; derived pairs are never stored:
 * - identity pairs X/X = 1.0 for every currency having a rate that year;
 * - the reciprocal B/A = 1 / rate of each stored A/B.
 * Derived rows carry fx_conversion_id 0 and `derived` true (the contract's convention): their values
 * follow from a stored row, which keeps its own id.
 */
export type StoredRate = Pick<FxRateRow, 'id' | 'reportingYear' | 'numeratorCode' | 'denominatorCode' | 'rate'>;

export const DERIVED_ID = 0;

export function fxListing(year: number, stored: readonly StoredRate[]): FxRate[] {
  const rows: FxRate[] = [];
  const currencies = new Set<string>();
  for (const s of stored) {
    currencies.add(s.numeratorCode);
    currencies.add(s.denominatorCode);
    rows.push(storedRow(s), reciprocal(s));
  }
  for (const code of currencies) rows.push(identity(year, code));
  return rows.sort(
    (a, b) =>
      a.numeratorCurrencyCode.localeCompare(b.numeratorCurrencyCode) ||
      a.denominatorCurrencyCode.localeCompare(b.denominatorCurrencyCode),
  );
}

/**
 * The rate numerator/denominator of a year from its stored rates: 1.0 for the same currency (an amount
 * in its own currency needs no rate), the stored pair, or the reciprocal of the stored opposite pair.
 */
export function lookupRate(year: number, stored: readonly StoredRate[], numerator: string, denominator: string): FxRate | undefined {
  if (numerator === denominator) return identity(year, numerator);
  for (const s of stored) {
    if (s.reportingYear !== year) continue;
    if (s.numeratorCode === numerator && s.denominatorCode === denominator) return storedRow(s);
    if (s.numeratorCode === denominator && s.denominatorCode === numerator) return reciprocal(s);
  }
  return undefined;
}

function storedRow(s: StoredRate): FxRate {
  return {
    fxConversionId: s.id,
    year: s.reportingYear,
    numeratorCurrencyCode: s.numeratorCode,
    denominatorCurrencyCode: s.denominatorCode,
    fxRate: s.rate,
    derived: false,
  };
}

function reciprocal(s: StoredRate): FxRate {
  return {
    fxConversionId: DERIVED_ID,
    year: s.reportingYear,
    numeratorCurrencyCode: s.denominatorCode,
    denominatorCurrencyCode: s.numeratorCode,
    fxRate: 1 / s.rate,
    derived: true,
  };
}

function identity(year: number, code: string): FxRate {
  return { fxConversionId: DERIVED_ID, year, numeratorCurrencyCode: code, denominatorCurrencyCode: code, fxRate: 1, derived: true };
}

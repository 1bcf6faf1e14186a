import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fxListing, lookupRate, type StoredRate } from './fx-math.js';

const stored: StoredRate[] = [
  { id: 7, reportingYear: 2024, numeratorCode: 'SEK', denominatorCode: 'EUR', rate: 11.5 },
  { id: 9, reportingYear: 2024, numeratorCode: 'USD', denominatorCode: 'EUR', rate: 1.25 },
];

describe('FX derivation', () => {
  it('lists stored pairs, their reciprocals and an identity pair per currency, sorted', () => {
    const rows = fxListing(2024, stored).map((r) => [r.numeratorCurrencyCode, r.denominatorCurrencyCode, r.fxRate, r.fxConversionId, r.derived]);
    assert.deepEqual(rows, [
      ['EUR', 'EUR', 1, 0, true],
      ['EUR', 'SEK', 1 / 11.5, 0, true],
      ['EUR', 'USD', 0.8, 0, true],
      ['SEK', 'EUR', 11.5, 7, false],
      ['SEK', 'SEK', 1, 0, true],
      ['USD', 'EUR', 1.25, 9, false],
      ['USD', 'USD', 1, 0, true],
    ]);
  });

  it('lists nothing for a year without rates', () => {
    assert.deepEqual(fxListing(2023, []), []);
  });

  it('looks up stored, reciprocal and identity rates, and nothing else (no cross rates)', () => {
    assert.equal(lookupRate(2024, stored, 'SEK', 'EUR')?.fxRate, 11.5);
    assert.equal(lookupRate(2024, stored, 'SEK', 'EUR')?.derived, false);
    assert.equal(lookupRate(2024, stored, 'EUR', 'USD')?.fxRate, 0.8);
    assert.equal(lookupRate(2024, stored, 'EUR', 'USD')?.derived, true);
    assert.equal(lookupRate(2024, stored, 'NOK', 'NOK')?.fxRate, 1);
    assert.equal(lookupRate(2024, stored, 'SEK', 'USD'), undefined);
    assert.equal(lookupRate(2023, stored, 'SEK', 'EUR'), undefined);
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FrameworkRow } from '@green-impact/proto/greenimpact/taxonomy/v1/taxonomy';
import { attributeToAsset } from './asset-attribution.js';

const row = (subCategoryVolume: number, indicatorValue: number): FrameworkRow => ({
  categoryId: 1, categoryName: 'Energy', subCategoryId: 2, subCategoryName: 'Solar', subCategoryVolume, frameworkCurrencyCode: 'EUR',
  superIndicatorId: 3, superIndicatorName: 'GHG', indicatorId: 4, indicatorName: 'GHG avoided', indicatorValue, unitId: 5, unitName: 'tCO2e',
  year: 2024, sdg: { '7': 'Affordable and Clean Energy' }, euObjective: {}, language: 'English', languageCode: 'en',
});

describe('asset attribution: share = A_f / D, rows scaled by it, volumes in the asset currency', () => {
  it('works a SEK asset in an EUR framework by hand', () => {
    // A = 10 000 000 SEK at 0.1 EUR/SEK = 1 000 000 EUR; D = max(L, V) = 4 000 000 → share 0.25.
    const a = attributeToAsset({
      assetCurrencyCode: 'SEK',
      assetValueOutstanding: 10_000_000,
      assetToFrameworkRate: 0.1,
      frameworkToAssetRate: 10,
      figures: { frameworkIdentifier: 'F', reportingYear: 2024, valueOutstanding: 2_000_000, allocatedAmount: 4_000_000, valueOutstandingFramework: false },
      rows: [row(800_000, 1_000)],
    });
    assert.deepEqual([a.assetValueFramework, a.denominator, a.share], [1_000_000, 4_000_000, 0.25]);
    const [r] = a.rows;
    // 0.25 · 800 000 EUR = 200 000 EUR = 2 000 000 SEK; 0.25 · 1 000 tCO2e = 250.
    assert.deepEqual([r!.subCategoryVolume, r!.currencyCode, r!.indicatorValue], [2_000_000, 'SEK', 250]);
    assert.deepEqual([r!.sdg, r!.year, r!.indicatorName], [{ '7': 'Affordable and Clean Energy' }, 2024, 'GHG avoided']);
  });

  it('uses D = V when value_outstanding_framework is yes, and refuses D = 0', () => {
    const base = { assetCurrencyCode: 'EUR', assetValueOutstanding: 500, assetToFrameworkRate: 1, frameworkToAssetRate: 1, rows: [row(100, 10)] };
    const a = attributeToAsset({ ...base, figures: { frameworkIdentifier: 'F', reportingYear: 2024, valueOutstanding: 1_000, allocatedAmount: 5_000, valueOutstandingFramework: true } });
    assert.deepEqual([a.share, a.rows[0]!.subCategoryVolume, a.rows[0]!.indicatorValue], [0.5, 50, 5]);
    assert.throws(
      () => attributeToAsset({ ...base, figures: { frameworkIdentifier: 'F', reportingYear: 2024, valueOutstanding: 0, allocatedAmount: 5_000, valueOutstandingFramework: true } }),
      { name: 'FailedPreconditionError' },
    );
  });
});

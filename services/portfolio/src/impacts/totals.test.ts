import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { indicatorTotals, subCategoryVolumeTotals, type TotalInput } from './totals.js';

const row = (positionId: number, subCategoryId: number, indicatorId: number, unitId: number, value: number, attributedVolume: number, currency = 'EUR'): TotalInput => ({
  positionId,
  subCategoryId,
  subCategoryName: `sub ${subCategoryId}`,
  superIndicatorId: 100,
  superIndicatorName: 'GHG',
  indicatorId,
  indicatorName: `indicator ${indicatorId}`,
  unitId,
  unitName: `unit ${unitId}`,
  value,
  attributedVolume,
  frameworkCurrencyCode: currency,
});

describe('impact totals', () => {
  const records = [
    row(1, 1, 10, 5, 40, 3_200),
    row(1, 1, 11, 6, 12.8, 3_200),
    row(2, 1, 10, 5, 10, 800),
    row(2, 2, 12, 6, 1, 50, 'SEK'),
    row(3, 1, 10, 7, 2, 100),
  ];

  it('sums values per indicator and unit and counts the positions', () => {
    assert.deepEqual(
      indicatorTotals(records).map((t) => [t.indicatorId, t.unitId, t.value, t.positionCount]),
      [
        [10, 5, 50, 2],
        [10, 7, 2, 1],
        [11, 6, 12.8, 1],
        [12, 6, 1, 1],
      ],
    );
  });

  it('sums attributed volumes per sub category and currency, each position’s sub category once', () => {
    assert.deepEqual(
      subCategoryVolumeTotals(records).map((t) => [t.subCategoryId, t.currencyCode, t.attributedVolume]),
      [
        [1, 'EUR', 4_100], // 3 200 (position 1, once for its two rows) + 800 + 100
        [2, 'SEK', 50],
      ],
    );
  });

  it('is empty for no records', () => {
    assert.deepEqual(indicatorTotals([]), []);
    assert.deepEqual(subCategoryVolumeTotals([]), []);
  });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ImpactRecordColumns, ImpactRecordPosition, ImpactRecordRowNames } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { recordsOf } from '@green-impact/shared/impact-record-columns';
import { impactRecordsJson } from './impact-records-json.js';
import { impactRecordRow } from './rows.js';

/** impactRecordsJson writes the bytes JSON.stringify writes for impactRecordRow of every record. */

const position = (positionId: number, o: Partial<ImpactRecordPosition> = {}): ImpactRecordPosition => ({
  positionId,
  reportingYear: 2024,
  investorIdentifier: 'inv "quoted" \u2028 é',
  assetIdentifier: 'SE-1',
  frameworkIdentifier: 'GBF',
  frameworkCurrencyCode: 'EUR',
  positionAmountFrameworkCurrency: 1234.5,
  attributionDenominator: 1e21,
  tau: 0.1 + 0.2,
  fxRate: 1 / 11.5,
  positionAmount: -0,
  positionCurrencyCode: 'SEK',
  frameworkValueOutstanding: 5e-7,
  frameworkAllocatedAmount: 800_000_000,
  valueOutstandingFramework: false,
  holdingDaysInYear: 300,
  daysInYear: 366,
  computedAt: '2024-05-01T10:00:00.123Z',
  stale: false,
  ...o,
});

const names = (k: number, o: Partial<ImpactRecordRowNames> = {}): ImpactRecordRowNames => ({
  categoryId: 1,
  categoryName: 'Energy',
  subCategoryId: k,
  subCategoryName: `Sub ${k} \\ "x"`,
  superIndicatorId: 3,
  superIndicatorName: 'GHG',
  indicatorId: 10 + k,
  indicatorName: 'CO₂ avoided',
  unitId: 4,
  unitName: 't CO₂e',
  ...o,
});

test('the bytes of JSON.stringify over impactRecordRow, record for record', () => {
  const c: ImpactRecordColumns = {
    positions: [position(7), position(9, { stale: true, valueOutstandingFramework: true, investorIdentifier: 'other' })],
    // The same ids under another name: a row renamed between two computations.
    rowNames: [names(1), names(2), names(1, { categoryName: 'Renamed' })],
    id: [100, 101, 102, 103, 2 ** 40],
    position: [0, 0, 1, 1, 1],
    rowName: [0, 1, 0, 2, 1],
    value: [1.5, Number.NaN, 0, -2e-9, Number.MAX_VALUE],
    attributedVolume: [3, 4, Number.POSITIVE_INFINITY, 6, 7],
    indicatorValue: [0.1, 0.2, 0.3, 0.4, 0.5],
    subCategoryVolume: [10, 20, 30, 40, 50],
  };
  assert.equal(impactRecordsJson(c), JSON.stringify(recordsOf(c).map(impactRecordRow)).slice(1, -1));
});

test('an empty page is no text', () => {
  const c: ImpactRecordColumns = { positions: [], rowNames: [], id: [], position: [], rowName: [], value: [], attributedVolume: [], indicatorValue: [], subCategoryVolume: [] };
  assert.equal(impactRecordsJson(c), '');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import type { AssetFrameworkDetail, ImpactRecord } from '@green-impact/proto/greenimpact/portfolio/v1/portfolio';
import { assetRow, investorRow, portfolioPositionRow, portfolioRow, positionRow } from '../../generated/portfolio.js';
import { assetFrameworkDetail, impactRecordRow, impactSummary } from './rows.js';

/** deepEqual plus the key order of the spec's lists. */
function same(actual: object, expected: object) {
  assert.deepEqual(actual, expected);
  assert.deepEqual(Object.keys(actual), Object.keys(expected));
}

const asset = {
  assetId: 7,
  assetIdentifier: 'SE0001',
  assetName: 'Green bond 2029',
  assetValueOutstanding: 50e6,
  assetCurrencyCode: 'SEK',
  assetDateIssued: '2024-03-01',
  assetDateMaturity: '2029-03-01',
  issuerIdentifier: 'ISS-1',
  issuerName: 'Nordic Issuer',
  frameworkIdentifier: 'GBF-2024',
  frameworkName: 'Green Bond Framework',
  assetVisibility: Visibility.VISIBILITY_PUBLIC,
  frameworkId: 3,
  owned: true,
};

test('asset (§2.5): the spec keys in order, absent value and dates null, proto extras out', () => {
  same(assetRow(asset), {
    asset_id: 7,
    asset_identifier: 'SE0001',
    asset_name: 'Green bond 2029',
    asset_value_outstanding: 50e6,
    asset_currency_code: 'SEK',
    asset_date_issued: '2024-03-01',
    asset_date_maturity: '2029-03-01',
    issuer_identifier: 'ISS-1',
    issuer_name: 'Nordic Issuer',
    framework_identifier: 'GBF-2024',
    framework_name: 'Green Bond Framework',
    asset_visibility: 'public',
  });
  const bare = assetRow({ ...asset, assetValueOutstanding: undefined, assetDateIssued: undefined, assetDateMaturity: undefined, assetVisibility: Visibility.VISIBILITY_PRIVATE });
  assert.equal(bare.asset_value_outstanding, null);
  assert.equal(bare.asset_date_issued, null);
  assert.equal(bare.asset_date_maturity, null);
  assert.equal(bare.asset_visibility, 'private');
});

test('asset framework detail (§2.3): the framework summary, then rows with currency_code in place of framework_currency_code', () => {
  const detail: AssetFrameworkDetail = {
    frameworkId: 3,
    frameworkIdentifier: 'GBF-2024',
    frameworkName: 'Green Bond Framework',
    frameworkValueOutstanding: 500e6,
    frameworkAllocatedAmount: 450e6,
    frameworkActivePercentage: 90,
    frameworkCurrencyCode: 'EUR',
    valueOutstandingFramework: true,
    frameworkVisibility: Visibility.VISIBILITY_PUBLIC,
    assetIdentifier: 'SE0001',
    assetName: 'Green bond 2029',
    currencyCode: 'SEK',
    attributionShare: 0.01,
    attributionDenominator: 500e6,
    fxRate: 11.5,
    framework: [
      {
        categoryId: 1,
        categoryName: 'Renewable energy',
        subCategoryId: 10,
        subCategoryName: 'Solar power',
        subCategoryVolume: 13.8e6,
        currencyCode: 'SEK',
        superIndicatorId: 20,
        superIndicatorName: 'GHG emissions',
        indicatorId: 30,
        indicatorName: 'Avoided emissions',
        indicatorValue: 42,
        unitId: 40,
        unitName: 'tCO2e',
        year: 2024,
        sdg: { '13': 'Climate Action', '7': 'Affordable and Clean Energy' },
        euObjective: {},
        language: 'English',
        languageCode: 'en',
      },
    ],
  };
  const shaped = assetFrameworkDetail(detail);
  same(shaped, {
    framework_id: 3,
    framework_identifier: 'GBF-2024',
    framework_name: 'Green Bond Framework',
    framework_value_outstanding: 500e6,
    framework_allocated_amount: 450e6,
    framework_active_percentage: 90,
    framework_currency_code: 'EUR',
    value_outstanding_framework: 'yes',
    framework_visibility: 'public',
    framework: [
      {
        category_id: 1,
        category_name: 'Renewable energy',
        sub_category_id: 10,
        sub_category_name: 'Solar power',
        sub_category_volume: 13.8e6,
        currency_code: 'SEK',
        super_indicator_id: 20,
        super_indicator_name: 'GHG emissions',
        indicator_id: 30,
        indicator_name: 'Avoided emissions',
        indicator_value: 42,
        unit_id: 40,
        unit_name: 'tCO2e',
        year: 2024,
        sdg: { '7': 'Affordable and Clean Energy', '13': 'Climate Action' },
        eu_objective: {},
        language: 'English',
      },
    ],
  });
  assert.deepEqual(Object.keys(shaped.framework[0]!).slice(4, 6), ['sub_category_volume', 'currency_code']);
  const noYear = assetFrameworkDetail({ ...detail, frameworkValueOutstanding: undefined, valueOutstandingFramework: undefined });
  assert.equal(noYear.framework_value_outstanding, null);
  assert.equal(noYear.value_outstanding_framework, null);
});

test('investor (§2.6): investor_email null when never given; encrypted / masked stay out', () => {
  const investor = {
    investorId: 4,
    investorIdentifier: 'inv_abc',
    investorName: '********',
    investorCurrencyCode: 'EUR',
    encrypted: true,
    masked: true,
  };
  same(investorRow(investor), { investor_id: 4, investor_identifier: 'inv_abc', investor_name: '********', investor_currency_code: 'EUR', investor_email: null });
  assert.equal(investorRow({ ...investor, investorEmail: 'a@b.se' }).investor_email, 'a@b.se');
});

test('position, portfolio and portfolio position (§2.7)', () => {
  const position = {
    positionId: 12,
    positionAmount: 250_000,
    positionCurrencyCode: 'EUR',
    positionDays: 365,
    investorIdentifier: 'inv_abc',
    investorName: 'Ann',
    assetIdentifier: 'SE0001',
    assetName: 'Green bond 2029',
    issuerIdentifier: 'ISS-1',
    issuerName: 'Nordic Issuer',
    masked: false,
    impactYears: [2024],
  };
  same(positionRow(position), {
    position_id: 12,
    position_amount: 250_000,
    position_currency_code: 'EUR',
    position_days: 365,
    position_start_date: null,
    investor_identifier: 'inv_abc',
    investor_name: 'Ann',
    asset_identifier: 'SE0001',
    asset_name: 'Green bond 2029',
    issuer_identifier: 'ISS-1',
    issuer_name: 'Nordic Issuer',
  });
  assert.equal(positionRow({ ...position, positionStartDate: '2024-07-01' }).position_start_date, '2024-07-01');
  same(
    portfolioRow({
      portfolioId: 4,
      portfolioIdentifier: 'core',
      investorIdentifier: 'inv_abc',
      investorName: 'Ann',
      assets: [{ assetIdentifier: 'SE0001', assetName: 'Green bond 2029' }],
      masked: false,
      positionIds: [12],
    }),
    { portfolio_id: 4, portfolio_identifier: 'core', investor_identifier: 'inv_abc', investor_name: 'Ann', assets: [{ asset_identifier: 'SE0001', asset_name: 'Green bond 2029' }] },
  );
  same(
    portfolioPositionRow({
      positionId: 12,
      positionAmount: 250_000,
      positionCurrencyCode: 'EUR',
      positionDays: 180,
      assetIdentifier: 'SE0001',
      assetName: 'Green bond 2029',
      issuerIdentifier: 'ISS-1',
      issuerName: 'Nordic Issuer',
      positionStartDate: '2024-07-01',
    }),
    {
      position_id: 12,
      position_amount: 250_000,
      position_currency_code: 'EUR',
      position_days: 180,
      asset_identifier: 'SE0001',
      asset_name: 'Green bond 2029',
      issuer_identifier: 'ISS-1',
      issuer_name: 'Nordic Issuer',
    },
  );
});

test('impacts: snake_case records with every input, flag as yes / no; totals and volume totals', () => {
  const record: ImpactRecord = {
    id: 99,
    positionId: 12,
    reportingYear: 2024,
    investorIdentifier: 'inv_abc',
    assetIdentifier: 'SE0001',
    frameworkIdentifier: 'GBF-2024',
    categoryId: 1,
    categoryName: 'Renewable energy',
    subCategoryId: 10,
    subCategoryName: 'Solar power',
    superIndicatorId: 20,
    superIndicatorName: 'GHG emissions',
    indicatorId: 30,
    indicatorName: 'Avoided emissions',
    unitId: 40,
    unitName: 'tCO2e',
    value: 1.25,
    attributedVolume: 100,
    frameworkCurrencyCode: 'EUR',
    positionAmountFrameworkCurrency: 250_000,
    attributionDenominator: 500e6,
    tau: 0.5,
    fxRate: 1,
    positionAmount: 250_000,
    positionCurrencyCode: 'EUR',
    indicatorValue: 5000,
    subCategoryVolume: 400_000,
    frameworkValueOutstanding: 500e6,
    frameworkAllocatedAmount: 450e6,
    valueOutstandingFramework: false,
    holdingDaysInYear: 183,
    daysInYear: 366,
    computedAt: '2024-06-30T12:00:00.000Z',
    stale: false,
  };
  const row = impactRecordRow(record);
  assert.equal(row.impact_id, 99);
  assert.equal(row.value_outstanding_framework, 'no');
  assert.equal(row.position_amount_framework_currency, 250_000);
  assert.equal(row.tau, 0.5);
  assert.equal(row.stale, 'no');
  assert.equal(Object.keys(row).length, 34, 'every field of the record');
  same(
    impactSummary({
      reportingYear: 2024,
      totals: [{ indicatorId: 30, indicatorName: 'Avoided emissions', unitId: 40, unitName: 'tCO2e', superIndicatorId: 20, superIndicatorName: 'GHG emissions', value: 1.25, positionCount: 1 }],
      volumeTotals: [{ subCategoryId: 10, subCategoryName: 'Solar power', currencyCode: 'EUR', attributedVolume: 100 }],
      impacts: [record],
      positionIdsWithoutImpacts: [13],
      stalePositions: 0,
    }),
    {
      reporting_year: 2024,
      totals: [{ indicator_id: 30, indicator_name: 'Avoided emissions', super_indicator_id: 20, super_indicator_name: 'GHG emissions', unit_id: 40, unit_name: 'tCO2e', value: 1.25, position_count: 1 }],
      volume_totals: [{ sub_category_id: 10, sub_category_name: 'Solar power', currency_code: 'EUR', attributed_volume: 100 }],
      impacts: [row],
      position_ids_without_impacts: [13],
      stale_positions: 0,
    },
  );
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DomainError } from '@green-impact/shared/errors';
import { daysInYear, holdingInYear, isLeapYear } from './holding-period.js';
import { attributionDenominator, computePositionImpacts, type FrameworkYearFigures } from './impact-math.js';

/** Equal up to floating-point noise (relative 1e-12). */
function near(actual: number, expected: number, what = ''): void {
  const tolerance = Math.max(1e-12, Math.abs(expected) * 1e-12);
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what} ${actual} ≉ ${expected}`);
}

const figures = (v: number, l: number, yes: boolean): FrameworkYearFigures => ({
  frameworkIdentifier: 'GB-1',
  reportingYear: 2024,
  valueOutstanding: v,
  allocatedAmount: l,
  valueOutstandingFramework: yes,
});

describe('τ: the part of the reporting year a position is held', () => {
  it('knows leap years', () => {
    assert.deepEqual([2023, 2024, 1900, 2000, 2100].map(isLeapYear), [false, true, false, true, false]);
    assert.deepEqual([2023, 2024].map(daysInYear), [365, 366]);
  });

  it('defaults the start to 1 January of the reporting year', () => {
    const h = holdingInYear({ startDate: null, positionDays: 365, year: 2023 });
    assert.deepEqual(h, {
      start: '2023-01-01', endExclusive: '2024-01-01', startGiven: false, positionDays: 365,
      holdingDaysInYear: 365, daysInYear: 365, tau: 1,
    });
  });

  it('365 days from 1 January of leap year 2024 miss 31 December: τ = 365/366', () => {
    const h = holdingInYear({ startDate: undefined, positionDays: 365, year: 2024 });
    assert.equal(h.endExclusive, '2024-12-31');
    assert.deepEqual([h.holdingDaysInYear, h.daysInYear], [365, 366]);
    assert.equal(h.tau, 365 / 366);
    assert.equal(holdingInYear({ startDate: null, positionDays: 366, year: 2024 }).tau, 1);
  });

  it('splits a holding from 1 July 2023 over 2023 (184 of 365 days) and 2024 (181 of 366 days)', () => {
    // 1 Jul – 31 Dec 2023: 31+31+30+31+30+31 = 184 days; the other 365 − 184 = 181 fall in 2024 (1 Jan – 29 Jun).
    const y2023 = holdingInYear({ startDate: '2023-07-01', positionDays: 365, year: 2023 });
    const y2024 = holdingInYear({ startDate: '2023-07-01', positionDays: 365, year: 2024 });
    assert.equal(y2023.endExclusive, '2024-06-30');
    assert.deepEqual([y2023.holdingDaysInYear, y2023.daysInYear, y2023.tau], [184, 365, 184 / 365]);
    assert.deepEqual([y2024.holdingDaysInYear, y2024.daysInYear, y2024.tau], [181, 366, 181 / 366]);
    assert.equal(y2023.holdingDaysInYear + y2024.holdingDaysInYear, 365);
    assert.equal(y2023.startGiven, true);
  });

  it('is 0 for a holding wholly before or after the year, 1 for one covering it', () => {
    assert.equal(holdingInYear({ startDate: '2022-01-01', positionDays: 365, year: 2023 }).tau, 0);
    assert.equal(holdingInYear({ startDate: '2022-01-01', positionDays: 365, year: 2023 }).endExclusive, '2023-01-01');
    assert.equal(holdingInYear({ startDate: '2024-01-01', positionDays: 30, year: 2023 }).tau, 0);
    assert.equal(holdingInYear({ startDate: '2022-06-01', positionDays: 1000, year: 2023 }).tau, 1);
  });

  it('counts the start day: one day on leap day 2024 is 1/366, two days from 31 December span two years', () => {
    assert.equal(holdingInYear({ startDate: '2024-02-29', positionDays: 1, year: 2024 }).tau, 1 / 366);
    assert.equal(holdingInYear({ startDate: '2024-12-31', positionDays: 2, year: 2024 }).holdingDaysInYear, 1);
    assert.equal(holdingInYear({ startDate: '2024-12-31', positionDays: 2, year: 2025 }).holdingDaysInYear, 1);
    assert.equal(holdingInYear({ startDate: '2024-12-31', positionDays: 2, year: 2025 }).tau, 1 / 365);
  });
});

describe('D: the attribution denominator', () => {
  it('is V when value_outstanding_framework is yes, whatever L is', () => {
    assert.equal(attributionDenominator(figures(1000, 800, true)), 1000);
    assert.equal(attributionDenominator(figures(1000, 1500, true)), 1000);
  });

  it('is max(L, V) otherwise', () => {
    assert.equal(attributionDenominator(figures(1000, 1500, false)), 1500);
    assert.equal(attributionDenominator(figures(1000, 800, false)), 1000);
  });

  it('refuses D = 0 with a clear FAILED_PRECONDITION', () => {
    assert.throws(() => attributionDenominator(figures(0, 500, true)), (err: unknown) => {
      assert.ok(err instanceof DomainError);
      assert.equal(err.code, 'FAILED_PRECONDITION');
      assert.equal(err.message, 'Framework "GB-1" has no value outstanding above 0 for 2024 (D = 0); impacts cannot be attributed.');
      return true;
    });
    assert.throws(() => attributionDenominator(figures(0, 0, false)), {
      message: 'Framework "GB-1" has no value outstanding nor allocated amount above 0 for 2024 (D = 0); impacts cannot be attributed.',
    });
  });
});

describe('impact(k,i) = τ · (P_f / D) · x(k,i) and attributed_volume(k) = τ · (P_f / D) · s(k)', () => {
  const rows = [
    { subCategoryId: 1, indicatorId: 10, subCategoryVolume: 1_000_000, indicatorValue: 12_500 },
    { subCategoryId: 1, indicatorId: 11, subCategoryVolume: 1_000_000, indicatorValue: 4_000 },
    { subCategoryId: 2, indicatorId: 12, subCategoryVolume: 250_000, indicatorValue: 0 },
  ];

  it('a full year in 2023 with D = max(L, V) = L', () => {
    // 100 000 SEK at 0.08 EUR/SEK: P_f = 8 000 EUR. D = max(2 500 000, 2 000 000) = 2 500 000. P_f/D = 0.0032. τ = 1.
    const r = computePositionImpacts({
      reportingYear: 2023,
      position: { amount: 100_000, currencyCode: 'SEK', positionDays: 365, startDate: null },
      fxRate: 0.08,
      framework: { ...figures(2_000_000, 2_500_000, false), reportingYear: 2023, currencyCode: 'EUR' },
      rows,
    });
    near(r.positionAmountFramework, 8_000, 'P_f');
    assert.equal(r.denominator, 2_500_000);
    near(r.share, 0.0032, 'P_f/D');
    assert.equal(r.holding.tau, 1);
    near(r.rows[0]!.value, 40, 'impact 10'); // 0.0032 · 12 500
    near(r.rows[1]!.value, 12.8, 'impact 11'); // 0.0032 · 4 000
    assert.equal(r.rows[2]!.value, 0);
    near(r.rows[0]!.attributedVolume, 3_200, 'volume 1'); // 0.0032 · 1 000 000
    near(r.rows[2]!.attributedVolume, 800, 'volume 2'); // 0.0032 · 250 000
    assert.deepEqual(r.rows.map((x) => x.indicatorId), [10, 11, 12]);
  });

  it('half of leap year 2024 (1 July – 31 December: 184 of 366 days) with D = V', () => {
    // Same P_f = 8 000 EUR; D = V = 2 000 000 (flag yes); P_f/D = 0.004; τ = 184/366.
    const r = computePositionImpacts({
      reportingYear: 2024,
      position: { amount: 100_000, currencyCode: 'SEK', positionDays: 365, startDate: '2024-07-01' },
      fxRate: 0.08,
      framework: { ...figures(2_000_000, 2_500_000, true), currencyCode: 'EUR' },
      rows,
    });
    assert.equal(r.denominator, 2_000_000);
    assert.deepEqual([r.holding.holdingDaysInYear, r.holding.daysInYear], [184, 366]);
    near(r.factor, (184 / 366) * 0.004, 'factor');
    near(r.rows[0]!.value, (50 * 184) / 366, 'impact'); // 0.004 · 12 500 = 50, × 184/366 = 25.136…
    near(r.rows[0]!.attributedVolume, (4_000 * 184) / 366, 'volume'); // 0.004 · 1 000 000 = 4 000, × 184/366
  });

  it('a holding from 1 July 2023 for 365 days splits its impact over 2023 and 2024', () => {
    // 50 000 EUR in an EUR framework: rate 1, P_f/D = 50 000 / 1 000 000 = 0.05.
    const input = (year: number, x: number) => ({
      reportingYear: year,
      position: { amount: 50_000, currencyCode: 'EUR', positionDays: 365, startDate: '2023-07-01' },
      fxRate: 1,
      framework: { ...figures(1_000_000, 400_000, true), reportingYear: year, currencyCode: 'EUR' },
      rows: [{ subCategoryVolume: 730_000, indicatorValue: x }],
    });
    const y2023 = computePositionImpacts(input(2023, 730)); // 0.05 · 730 = 36.5, × 184/365 = 18.4
    const y2024 = computePositionImpacts(input(2024, 732)); // 0.05 · 732 = 36.6, × 181/366 = 18.1
    near(y2023.rows[0]!.value, 18.4, '2023');
    near(y2024.rows[0]!.value, 18.1, '2024');
    near(y2023.rows[0]!.attributedVolume, 18_400, '2023 volume'); // 0.05 · 730 000 · 184/365
  });

  it('a holding outside the year has zero impacts; D = 0 is refused before anything is computed', () => {
    const outside = computePositionImpacts({
      reportingYear: 2025,
      position: { amount: 1, currencyCode: 'EUR', positionDays: 10, startDate: '2024-01-01' },
      fxRate: 1,
      framework: { ...figures(100, 0, true), currencyCode: 'EUR' },
      rows,
    });
    assert.equal(outside.holding.tau, 0);
    assert.ok(outside.rows.every((x) => x.value === 0 && x.attributedVolume === 0));
    assert.throws(
      () =>
        computePositionImpacts({
          reportingYear: 2024,
          position: { amount: 1, currencyCode: 'EUR', positionDays: 10, startDate: null },
          fxRate: 1,
          framework: { ...figures(0, 0, false), currencyCode: 'EUR' },
          rows,
        }),
      { name: 'FailedPreconditionError' },
    );
  });
});

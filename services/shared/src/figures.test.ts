import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decimalString, formatAmount, formatFigure, formatPercent, formatRatio, roundTo } from './figures.js';

describe('figures', () => {
  it('round half away from zero on the decimal string, without -0', () => {
    assert.equal(roundTo(1.005, 2), 1.01); // toFixed alone gives 1.00
    assert.equal((1.005).toFixed(2), '1.00', 'the binary rounding this module exists to avoid');
    assert.equal(roundTo(2.675, 2), 2.68);
    assert.equal(roundTo(1.2345, 3), 1.235);
    assert.equal(roundTo(-1.005, 2), -1.01);
    assert.equal(roundTo(0.1 + 0.2, 2), 0.3);
    assert.equal(roundTo(123456789.125, 2), 123456789.13);
    assert.equal(roundTo(1e-7, 2), 0);
    assert.ok(Object.is(roundTo(-1e-7, 2), 0));
    assert.equal(roundTo(450000000, 2), 450000000);
    assert.deepEqual([roundTo(2.5, 0), roundTo(-2.5, 0), roundTo(0.5, 0), roundTo(0.005, 2), roundTo(0.0049, 2)], [3, -3, 1, 0.01, 0]);
    assert.equal(roundTo(1 / 3, 10), 0.3333333333);
    assert.equal(roundTo(123.456, 0), 123);
  });

  it('write exactly the decimals asked for, never exponential notation', () => {
    assert.equal(decimalString(1234.5, 0), '1235');
    assert.equal(decimalString(999.995, 2), '1000.00');
    assert.equal(decimalString(12, 3), '12.000');
    assert.equal(decimalString(0.125, 1), '0.1');
    assert.equal(decimalString(-0.001, 2), '0.00');
    assert.equal(decimalString(1e21, 2), '1000000000000000000000.00');
    assert.equal(decimalString(1.5e-7, 8), '0.00000015');
    assert.equal(decimalString(9.999, 2), '10.00');
  });

  it('group integer digits by three with a narrow no-break space', () => {
    assert.equal(formatFigure(450000000, 2), '450\u202f000\u202f000.00');
    assert.equal(formatFigure(-1234567.891, 2), '-1\u202f234\u202f567.89');
    assert.equal(formatFigure(999.995, 2), '1\u202f000.00');
    assert.equal(formatFigure(1.005, 2), '1.01');
    assert.equal(formatFigure(100, 0), '100');
  });

  it('put the currency after the amount, joined by a no-break space; percent likewise', () => {
    assert.equal(formatAmount(4986.336, 2, 'EUR'), '4\u202f986.34\u00a0EUR');
    assert.equal(formatAmount(1_000_000, 2, 'EUR'), '1\u202f000\u202f000.00\u00a0EUR');
    assert.equal(formatPercent(12.5, 2), '12.50\u202f%');
  });

  it('write ratios (τ, FX rates, shares) with six decimals', () => {
    assert.equal(formatRatio(271 / 365), '0.742466');
    assert.equal(formatRatio(1.0842), '1.084200');
    assert.equal(formatRatio(16234.123456789), '16\u202f234.123457');
  });

  it('refuse what is not a figure', () => {
    assert.throws(() => formatFigure(Number.NaN, 2), RangeError);
    assert.throws(() => roundTo(Number.POSITIVE_INFINITY, 2), RangeError);
    assert.throws(() => formatFigure(1, -1), RangeError);
    assert.throws(() => formatFigure(1, 1.5), RangeError);
  });
});
